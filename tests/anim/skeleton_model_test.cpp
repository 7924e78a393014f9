// The skeleton built from the model view (model/model.hpp) evaluates exactly like the one built
// from the file model (pmd / pmx), on corpus models with their motions.
#include <gtest/gtest.h>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "support/corpus.hpp"

namespace mmdkit::anim {
namespace {

void compare(const std::string& model_path, const std::string& motion_path) {
  auto mf = test::corpus_file(model_path);
  auto vf = test::corpus_file(motion_path);
  if (!mf || !vf) GTEST_SKIP() << "not in the corpus: " << model_path;
  const auto mb = test::read_bytes(mf->path);
  Result<SkeletonDesc> direct = make_error(ErrorCode::invalid_value, "unset");
  if (model_path.ends_with(".pmd")) {
    auto m = pmd::read(mb);
    ASSERT_TRUE(m);
    direct = skeleton_desc_from_pmd(m->model);
  } else {
    auto m = pmx::read(mb);
    ASSERT_TRUE(m);
    direct = skeleton_desc_from_pmx(m->model);
  }
  ASSERT_TRUE(direct);
  auto a = build_skeleton(std::move(*direct));
  auto view = model::load(mb);
  ASSERT_TRUE(view) << view.error().to_string();
  auto b = build_skeleton(*view);
  ASSERT_TRUE(a);
  ASSERT_TRUE(b) << b.error().to_string();
  ASSERT_EQ(a->bone_count(), b->bone_count());
  EXPECT_EQ(a->ik_count(), b->ik_count());
  auto v = vmd::read(test::read_bytes(vf->path));
  ASSERT_TRUE(v);
  const vmd::Motion* list[] = {&v->motion};
  auto sa = MotionSampler::create(*a, list);
  auto sb = MotionSampler::create(*b, list);
  ASSERT_TRUE(sa && sb);
  PoseWorkspace wa(*a), wb(*b);
  std::vector<BonePose> la(a->bone_count()), lb(b->bone_count());
  std::vector<std::uint8_t> ia(a->ik_count()), ib(b->ik_count());
  for (double f : {0.0, 45.5, 120.0, 300.0}) {
    sa->sample(f, la, ia);
    sb->sample(f, lb, ib);
    evaluate(*a, {la, {}, ia}, wa);
    evaluate(*b, {lb, {}, ib}, wb);
    for (std::size_t i = 0; i < a->bone_count(); ++i)
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(wa.model_positions()[i][c], wb.model_positions()[i][c], 1e-5f)
            << model_path << " frame " << f << " bone " << a->names()[i];
  }
}

TEST(SkeletonFromModelView, MikuPmd) {
  MMDKIT_REQUIRE_CORPUS();
  compare("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd",
          "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
}

TEST(SkeletonFromModelView, MeiPmd) {
  MMDKIT_REQUIRE_CORPUS();
  compare("mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd",
          "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_greeting/mei_greeting.vmd");
}

TEST(SkeletonFromModelView, SamplePmx) {
  MMDKIT_REQUIRE_CORPUS();
  compare("miu200521358__mmd_base/test/resources/サンプルモデル.pmx",
          "miu200521358__mmd_base/tests/resources/サンプルモーション2.vmd");
}

}  // namespace
}  // namespace mmdkit::anim

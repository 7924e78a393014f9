// PMD → PMX (model::pmd_to_pmx) keeps the evaluation: the converted PMX, written and read back,
// evaluated with the PMX rules (bones by deform layer, IK right after its IK bone) gives the same
// bone model transforms as the PMD evaluated with MMD's PMD rules (FK, IK chains in file order,
// follow bones after IK). This is what the deform layers 0 / 1 / 2 written by the converter are
// for (docs/MODEL.md "Deform layers"). The test lives in the export test program because that is
// the one linking the evaluator with the model layer.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "mmdkit/anim/motion_sampler.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_generate.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "mmdkit/model/convert.hpp"
#include "mmdkit/model/model.hpp"
#include "support/corpus.hpp"

namespace mmdkit {
namespace {

// Largest difference of bone head positions (MMD units) and of model rotations (max |Δ component|,
// sign-aligned) between the PMD and its conversion over `frames`.
struct Diff {
  float position = 0;
  float rotation = 0;
  std::string worst;
};

Diff evaluate_both(const pmd::Model& pmd, const vmd::Motion& motion, std::initializer_list<double> frames) {
  Diff d;
  auto view_pmd = model::from_pmd(pmd);
  EXPECT_TRUE(view_pmd);
  if (!view_pmd) return d;
  auto converted = model::pmd_to_pmx(pmd);
  EXPECT_TRUE(converted) << converted.error().to_string();
  if (!converted) return d;
  auto bytes = pmx::write(*converted);
  EXPECT_TRUE(bytes);
  if (!bytes) return d;
  auto back = pmx::read(*bytes, pmx::ReadOptions{.strict = true});
  EXPECT_TRUE(back);
  if (!back) return d;
  auto view_pmx = model::from_pmx(back->model);
  EXPECT_TRUE(view_pmx);
  if (!view_pmx) return d;
  EXPECT_EQ(view_pmd->transform_order, model::TransformOrder::pmd);
  EXPECT_EQ(view_pmx->transform_order, model::TransformOrder::pmx);
  auto a = anim::build_skeleton(*view_pmd);
  auto b = anim::build_skeleton(*view_pmx);
  EXPECT_TRUE(a && b);
  if (!a || !b) return d;
  EXPECT_EQ(a->rule(), anim::OrderRule::pmd);
  EXPECT_EQ(b->rule(), anim::OrderRule::pmx);
  EXPECT_EQ(a->bone_count(), b->bone_count());
  EXPECT_EQ(a->ik_count(), b->ik_count());
  if (a->bone_count() != b->bone_count() || a->ik_count() != b->ik_count()) return d;
  const vmd::Motion* list[] = {&motion};
  auto sa = anim::MotionSampler::create(*a, list);
  auto sb = anim::MotionSampler::create(*b, list);
  EXPECT_TRUE(sa && sb);
  if (!sa || !sb) return d;
  anim::PoseWorkspace wa(*a), wb(*b);
  std::vector<anim::BonePose> la(a->bone_count()), lb(b->bone_count());
  std::vector<std::uint8_t> ia(a->ik_count()), ib(b->ik_count());
  for (double f : frames) {
    sa->sample(f, la, ia);
    sb->sample(f, lb, ib);
    anim::evaluate(*a, {la, {}, ia}, wa);
    anim::evaluate(*b, {lb, {}, ib}, wb);
    for (std::size_t i = 0; i < a->bone_count(); ++i) {
      for (int c = 0; c < 3; ++c) {
        const float dp = std::fabs(wa.model_positions()[i][c] - wb.model_positions()[i][c]);
        if (dp > d.position) {
          d.position = dp;
          d.worst = a->names()[i] + " frame " + std::to_string(f);
        }
      }
      const auto &qa = wa.model_rotations()[i], &qb = wb.model_rotations()[i];
      const float dot = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
      const float s = dot < 0 ? -1.0f : 1.0f;
      for (int c = 0; c < 4; ++c) d.rotation = std::max(d.rotation, std::fabs(qa[c] - s * qb[c]));
    }
  }
  return d;
}

// The generated humanoid (leg and toe IK, eyes following 両目) under a generated motion that
// moves every bone, IK handles included.
TEST(PmdToPmxEvaluation, GeneratedHumanoidEvaluatesAlike) {
  auto pmd = pmd::generate({.seed = 3, .vertices = 100, .morphs = 2});
  ASSERT_TRUE(pmd);
  const vmd::Motion motion = vmd::generate({.seed = 3, .bone_keys = 600, .morph_keys = 0, .frames = 120});
  const Diff d = evaluate_both(*pmd, motion, {0.0, 17.5, 60.0, 119.0});
  EXPECT_LE(d.position, 1e-5f) << d.worst;
  EXPECT_LE(d.rotation, 1e-5f) << d.worst;
}

// A model whose file order is the worst case for an index-order evaluation: the IK bone comes
// before its links, and two follow bones come before everything they follow — 左ひざ補助 (type 5)
// follows the IK link 左ひざ, 左足捩 (type 9) follows the IK link 左足 at 0.5. MMD's PMD order (FK,
// IK, then follow bones) is only reproduced in PMX by the layers 0 / 1 / 2 of pmd_to_pmx; with
// layer 0 everywhere (PmxEditor's PMD import) the IK and the followers see stale transforms.
pmd::Model order_sensitive_pmd() {
  pmd::Model m;
  struct B {
    const char* name;
    std::uint16_t parent, tail;
    std::uint8_t type;
    std::uint16_t ik_parent;
    std::array<float, 3> position;
  };
  const B bones[] = {
      {"センター", pmd::kNoBone, 0, 1, 0, {0, 8, 0}},  {"左ひざ補助", 0, 0, 5, 5, {1.2f, 6, 0}},
      {"左足捩", 0, 4, 9, 50, {1, 9, 0}},              {"左足ＩＫ", 0, 0, 2, 0, {1, 1, 0}},
      {"左足", 0, 5, 4, 3, {1, 10, 0}},                {"左ひざ", 4, 6, 4, 3, {1, 6, 0.2f}},
      {"左足首", 5, 0, 4, 3, {1, 1, 0}},
  };
  for (const B& b : bones) {
    pmd::Bone x;
    EXPECT_TRUE(pmd::set_text(x.name, b.name, Encoding::cp932));
    x.parent = b.parent;
    x.tail = b.tail;
    x.type = b.type;
    x.ik_parent = b.ik_parent;
    x.position = b.position;
    m.bones.push_back(x);
  }
  pmd::IkChain k;
  k.target = 3;
  k.effector = 6;
  k.iterations = 40;
  k.unit_angle = 0.5f;
  k.links = {5, 4};
  m.ik_chains.push_back(k);
  return m;
}

TEST(PmdToPmxEvaluation, IkAndFollowBonesBeforeTheirSourcesEvaluateAlike) {
  const pmd::Model pmd = order_sensitive_pmd();
  auto p = model::pmd_to_pmx(pmd);
  ASSERT_TRUE(p) << p.error().to_string();
  // Layers: センター 0, 左ひざ補助 / 左足捩 2 (follow), 左足ＩＫ 1 (IK), the legs 0.
  std::vector<std::int32_t> layers;
  for (const auto& b : p->bones) layers.push_back(b.deform_layer);
  EXPECT_EQ(layers, (std::vector<std::int32_t>{0, 2, 2, 1, 0, 0, 0}));
  const vmd::Motion motion = vmd::generate({.seed = 11, .bone_keys = 200, .morph_keys = 0, .frames = 60});
  const Diff d = evaluate_both(pmd, motion, {0.0, 12.5, 30.0, 59.0});
  EXPECT_LE(d.position, 1e-5f) << d.worst;
  EXPECT_LE(d.rotation, 1e-5f) << d.worst;
}

void corpus_case(const std::string& model_path, const std::string& motion_path) {
  auto mf = test::corpus_file(model_path);
  auto vf = test::corpus_file(motion_path);
  if (!mf || !vf) GTEST_SKIP() << "not in the corpus: " << model_path;
  auto m = pmd::read(test::read_bytes(mf->path));
  ASSERT_TRUE(m);
  auto v = vmd::read(test::read_bytes(vf->path));
  ASSERT_TRUE(v);
  const Diff d = evaluate_both(m->model, v->motion, {0.0, 45.5, 120.0, 300.0});
  EXPECT_LE(d.position, 1e-4f) << model_path << ": " << d.worst;
  EXPECT_LE(d.rotation, 1e-5f) << model_path << ": " << d.worst;
}

// miku_v2: leg / toe IK, eyes (type 5) and arm twist (type 9) follow bones.
TEST(PmdToPmxEvaluation, MikuV2EvaluatesAlike) {
  MMDKIT_REQUIRE_CORPUS();
  corpus_case("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd",
              "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
}

TEST(PmdToPmxEvaluation, MeiEvaluatesAlike) {
  MMDKIT_REQUIRE_CORPUS();
  corpus_case("mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd",
              "mmdagent__mmdagent-mirror/MMDAgent_Example/Motion/mei_greeting/mei_greeting.vmd");
}

}  // namespace
}  // namespace mmdkit

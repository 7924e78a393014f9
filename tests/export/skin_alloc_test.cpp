// Morphs and skinning allocate nothing per frame: this executable counts global operator new
// (support/counting_new.hpp), and frames of apply_morphs + evaluate + skin (one thread and the
// pool) must not add to the count.

#include <gtest/gtest.h>


#include "support/counting_new.hpp"
#include "mmdkit/anim/morph.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/anim/skinning.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/model/model.hpp"


namespace mmdkit::anim {
namespace {

TEST(SkinAllocation, MorphsPoseAndSkinningAllocateNothingPerFrame) {
  // PMX 2.1: BDEF1/2/4, SDEF, QDEF vertices; vertex, bone, material, group, UV, flip, impulse morphs.
  pmx::GenerateOptions o;
  o.vertices = 5000;  // ≥ 2048, so that skin_parallel hands chunks to the pool's worker
  o.morphs = 24;
  o.variant = pmx::GenerateVariant::pmx21_utf8;
  auto pm = pmx::generate(o);
  ASSERT_TRUE(pm.has_value());
  auto view = model::from_pmx(*pm);
  ASSERT_TRUE(view.has_value());
  auto sk = build_skeleton(*view);
  ASSERT_TRUE(sk.has_value());
  auto md = MorphData::create(*view);
  ASSERT_TRUE(md.has_value());
  auto sd = SkinningData::create(*view);
  ASSERT_TRUE(sd.has_value());
  EXPECT_TRUE(sd->needs_rotations());

  MorphWorkspace mws(*md);
  PoseWorkspace pws(*sk);
  SkinWorkspace sws(*sd);
  ThreadPool pool(2);
  std::vector<float> weights(md->morph_count(), 0.0f);
  std::vector<BonePose> local(sk->bone_count());
  std::vector<std::uint8_t> ik(sk->ik_count(), 1);
  std::vector<Vec3> pos(sd->vertex_count()), nrm(sd->vertex_count());
  auto frame = [&](int f) {
    for (std::size_t m = 0; m < weights.size(); ++m)
      weights[m] = static_cast<float>((static_cast<int>(m) + f) % 5) * 0.25f;
    for (std::size_t b = 0; b < local.size(); ++b)
      local[b].rotation = quat_from_axis_angle({0, 1, 0}, 0.01f * static_cast<float>(f + static_cast<int>(b)));
    apply_morphs(*md, weights, mws);
    evaluate(*sk, {local, mws.bone_offsets(), ik}, pws);
    if (f % 2)
      skin(*sd, {pws.skinning_matrices(), pws.model_rotations()}, sws, mws.vertex_offsets(), pos, nrm);
    else
      skin_parallel(pool, *sd, {pws.skinning_matrices(), pws.model_rotations()}, sws, mws.vertex_offsets(), pos, nrm);
  };
  frame(0);  // warm-up
  const long before = ::mmdkit::test::allocation_count();
  for (int f = 1; f < 40; ++f) frame(f);
  EXPECT_EQ(::mmdkit::test::allocation_count(), before);
  // The frames did work: some morph touched vertices, and positions moved off the bind pose.
  EXPECT_FALSE(mws.touched_vertices().empty());
  std::size_t moved = 0;
  for (std::size_t v = 0; v < pos.size(); ++v) moved += pos[v] != sd->bind_positions()[v];
  EXPECT_GT(moved, pos.size() / 2);
}

}  // namespace
}  // namespace mmdkit::anim

// Every corpus model with rigid bodies simulates a whole corpus motion: no NaN, and no physics
// bone farther from its parent than its rest length plus kStretchMargin (docs/PHYSICS.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "mmdkit/anim/pose.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/physics/physics.hpp"
#include "support/corpus.hpp"

namespace mmdkit::physics {
namespace {

/// How far past its rest length a physics bone may be from its parent (MMD units): MMD's joints
/// are soft (docs/PHYSICS.md "Limits").
constexpr float kStretchMargin = 2.0f;

constexpr const char* kMotion = "moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd";

TEST(Corpus, EveryModelWithRigidBodiesSimulatesAWholeMotion) {
  MMDKIT_REQUIRE_CORPUS();
  auto mf = test::corpus_file(kMotion);
  ASSERT_TRUE(mf);
  auto motion = vmd::read(test::read_bytes(mf->path));
  ASSERT_TRUE(motion) << motion.error().to_string();
  std::set<std::string> seen;
  std::size_t simulated = 0;
  for (const char* kind : {"pmd", "pmx"})
    for (const test::CorpusFile& f : test::corpus_files(kind)) {
      if (!seen.insert(f.sha256).second) continue;
      auto m = model::load(test::read_bytes(f.path));
      if (!m || m->rigid_bodies.empty()) continue;
      auto sk = anim::build_skeleton(*m);
      if (!sk) continue;  // evaluation refuses it (anim tests cover that)
      const vmd::Motion* list[] = {&motion->motion};
      auto sampler = anim::MotionSampler::create(*sk, list);
      ASSERT_TRUE(sampler) << f.local_path;
      anim::PoseWorkspace ws(*sk);
      std::vector<anim::BonePose> local(sk->bone_count());
      std::vector<std::uint8_t> ik(sk->ik_count(), 1), off(sk->bone_count(), 0);
      World world;
      ModelPhysics& mp = world.add_model(*m, *sk);
      const auto parents = sk->parents();
      const auto bind = sk->bind_positions();
      float worst = 0;
      const std::uint32_t last = sampler->last_frame();
      for (std::uint32_t frame = 0; frame <= last; ++frame) {
        sampler->sample(frame, local, ik);
        anim::sample_physics_off(sampler->bound(), frame, off);
        const anim::PoseInput in{local, {}, ik};
        ASSERT_TRUE(anim::evaluate_before_physics(*sk, in, ws));
        mp.set_targets(ws, off);
        if (frame == 0)
          world.reset();
        else
          world.step_frame();
        mp.write_bones(ws);
        ASSERT_TRUE(anim::evaluate_after_physics(*sk, in, ws));
        for (const anim::Mat4& mat : ws.model_matrices())
          for (float x : mat) ASSERT_TRUE(std::isfinite(x)) << f.local_path << " frame " << frame;
        for (std::uint32_t b : mp.driven_bones()) {
          const std::int32_t p = parents[b];
          if (p < 0) continue;
          const auto pu = static_cast<std::size_t>(p);
          const auto& a = ws.model_positions()[b];
          const auto& c = ws.model_positions()[pu];
          const float d = std::hypot(a[0] - c[0], a[1] - c[1], a[2] - c[2]);
          const float rest = std::hypot(bind[b][0] - bind[pu][0], bind[b][1] - bind[pu][1], bind[b][2] - bind[pu][2]);
          worst = std::max(worst, d - rest);
          ASSERT_LE(d, rest + kStretchMargin) << f.local_path << " frame " << frame << " bone " << sk->names()[b];
        }
      }
      for (const Warning& w : world.warnings()) std::printf("  warning: %s\n", w.to_string().c_str());
      std::printf("%s: %zu bodies, %zu joints, %u frames, %zu warnings, worst stretch %.3f\n", f.local_path.c_str(),
                  mp.body_count(), mp.joint_count(), last + 1, world.warnings().size(), static_cast<double>(worst));
      ++simulated;
    }
  EXPECT_GE(simulated, 3u);
}

}  // namespace
}  // namespace mmdkit::physics

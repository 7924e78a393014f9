// glTF animation from the pipeline (export/gltf_sampling.hpp) and keyframe reduction: the node
// transforms composed down the hierarchy (as a glTF reader does) give the pipeline's model
// transforms back; reduced channels stay within their tolerance at every sample.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "export/gltf_reader.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/export/gltf.hpp"
#include "mmdkit/export/gltf_sampling.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::exporter {
namespace {

struct Fixture {
  vmd::Motion motion;
  std::shared_ptr<const anim::CharacterData> data;
};

Fixture generated(std::uint64_t camera_keys = 0) {
  Fixture f;
  auto pmx = pmx::generate({});
  EXPECT_TRUE(pmx);
  auto view = model::from_pmx(*pmx);
  EXPECT_TRUE(view);
  vmd::GenerateOptions vo;
  vo.frames = 60;
  vo.camera_keys = camera_keys;
  f.motion = vmd::generate(vo);
  anim::MotionInputs in;
  in.motions = {&f.motion};
  auto d = anim::CharacterData::create(std::make_shared<const model::Model>(std::move(*view)), in);
  EXPECT_TRUE(d) << (d ? "" : d.error().to_string());
  if (d) f.data = *d;
  return f;
}

TEST(GltfSampling, ComposedNodeTransformsGiveThePipelinesModelTransforms) {
  Fixture f = generated();
  ASSERT_TRUE(f.data);
  anim::Character c(f.data);
  GltfSampling s;
  s.first_frame = 10;
  s.last_frame = 20;
  s.fps = 60;  // half frames
  auto an = sample_animation(c, s);
  ASSERT_TRUE(an) << an.error().to_string();
  ASSERT_EQ(an->sample_count, 21u);
  const auto parents = f.data->skeleton().parents();
  const std::size_t nb = parents.size();
  anim::Character check(f.data);
  for (std::size_t i : {std::size_t{0}, std::size_t{7}, std::size_t{20}}) {
    ASSERT_TRUE(check.evaluate(10 + 0.5 * static_cast<double>(i)));
    std::vector<Quat> rot(nb);
    std::vector<Vec3> pos(nb);
    // Parents may come after children in index order: resolve in a loop.
    std::vector<bool> done(nb, false);
    for (std::size_t pass = 0; pass < nb; ++pass) {
      for (std::size_t b = 0; b < nb; ++b) {
        if (done[b]) continue;
        const std::int32_t p = parents[b];
        if (p >= 0 && !done[static_cast<std::size_t>(p)]) continue;
        const Quat& lr = an->rotations[i * nb + b];
        const Vec3& lt = an->translations[i * nb + b];
        if (p < 0) {
          rot[b] = lr;
          pos[b] = lt;
        } else {
          const auto up = static_cast<std::size_t>(p);
          rot[b] = quat_multiply(rot[up], lr);
          const Vec3 d = quat_rotate(rot[up], lt);
          pos[b] = {pos[up][0] + d[0], pos[up][1] + d[1], pos[up][2] + d[2]};
        }
        done[b] = true;
      }
    }
    for (std::size_t b = 0; b < nb; ++b) {
      const auto& want = check.pose().model_positions()[b];
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(pos[b][static_cast<std::size_t>(k)], want[static_cast<std::size_t>(k)], 1e-4) << b;
      EXPECT_LT(quat_angle_between(rot[b], check.pose().model_rotations()[b]), 1e-4f) << b;
    }
    const auto w = check.morph_weights();
    for (std::size_t m = 0; m < w.size(); ++m) EXPECT_EQ(an->morph_weights[i * w.size() + m], w[m]);
  }
}

TEST(GltfSampling, CameraLooksAtItsTarget) {
  Fixture f = generated(12);
  ASSERT_TRUE(f.data);
  anim::Character c(f.data);
  GltfSampling s;
  s.last_frame = 60;
  s.camera = true;
  auto an = sample_animation(c, s);
  ASSERT_TRUE(an);
  anim::Character check(f.data);
  for (std::size_t i : {std::size_t{0}, std::size_t{33}, std::size_t{60}}) {
    ASSERT_TRUE(check.evaluate(static_cast<double>(i)));
    const anim::CameraState& cam = check.camera();
    // The eye is at target + R·(0, 0, distance): R·(0, 0, 1) points from the target to the eye
    // scaled by 1 / distance.
    const Vec3 fwd = quat_rotate(an->camera_rotations[i], {0, 0, 1});
    for (int k = 0; k < 3; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      EXPECT_NEAR(fwd[uk] * cam.distance, cam.position[uk] - cam.target[uk], 1e-3) << i;
      EXPECT_EQ(an->camera_positions[i][uk], cam.position[uk]);
    }
    EXPECT_NEAR(an->camera_fov[i], cam.fov_degrees * 3.14159265f / 180, 1e-6);
  }
}

TEST(GltfSampling, BadRangesAreRefused) {
  Fixture f = generated();
  ASSERT_TRUE(f.data);
  anim::Character c(f.data);
  GltfSampling s;
  s.first_frame = 10;
  s.last_frame = 5;
  EXPECT_EQ(sample_animation(c, s).error().code, ErrorCode::invalid_argument);
  s.last_frame = 20;
  s.fps = 0;
  EXPECT_EQ(sample_animation(c, s).error().code, ErrorCode::invalid_argument);
}

// One bone, 101 samples: translation x = 0.1·i (a line), y = 1 at sample 50 only (a spike);
// rotation about Y at a constant rate (slerp reproduces it). With tolerance 0.01 units / degrees,
// the x ramp and the rotation need only their ends, the spike needs samples 49, 50, 51.
TEST(GltfReduce, KeepsOnlyWhatTheToleranceNeedsAndStaysWithinIt) {
  model::Model m;
  model::Bone b;
  b.name = "b";
  m.bones.push_back(b);
  GltfAnimation an;
  an.sample_count = 101;
  for (int i = 0; i <= 100; ++i) {
    an.translations.push_back({0.1f * static_cast<float>(i), i == 50 ? 1.0f : 0.0f, 0});
    an.rotations.push_back(quat_from_axis_angle({0, 1, 0}, 0.02f * static_cast<float>(i)));
  }
  an.reduce_tolerance = 0.01f;
  an.reduce_tolerance_degrees = 0.01f;
  GltfOptions o;
  o.scale = 1;
  auto r = write_gltf(m, &an, o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->reduction.keys_before, 202u);
  EXPECT_EQ(r->reduction.keys_after, 5u + 2u);  // translation: 0, 49, 50, 51, 100; rotation: 0, 100
  const test::Gltf g = test::parse_glb(r->bytes);
  const auto& anim = g.json["animations"][0];
  for (const auto& ch : anim["channels"].GetArray()) {
    const auto& smp = anim["samplers"][static_cast<rapidjson::SizeType>(ch["sampler"].GetInt())];
    const auto t = g.accessor(smp["input"].GetInt());
    const auto v = g.accessor(smp["output"].GetInt());
    const std::string path = ch["target"]["path"].GetString();
    if (path == "translation") {
      EXPECT_EQ(t.size(), 5u);
      EXPECT_NEAR(t[2], 50.0 / 30, 1e-6);
      // Linear interpolation of the kept keys at every sample stays within 0.01.
      for (int i = 0; i <= 100; ++i) {
        const double time = i / 30.0;
        std::size_t k = 0;
        while (k + 2 < t.size() && t[k + 1] <= time) ++k;
        const double u = std::clamp((time - t[k]) / (t[k + 1] - t[k]), 0.0, 1.0);
        const double x = v[k * 3] + (v[k * 3 + 3] - v[k * 3]) * u;
        const double y = v[k * 3 + 1] + (v[k * 3 + 4] - v[k * 3 + 1]) * u;
        EXPECT_NEAR(x, 0.1 * i, 0.01 + 1e-5) << i;
        EXPECT_NEAR(y, i == 50 ? 1.0 : 0.0, 0.01 + 1e-5) << i;
      }
    } else {
      EXPECT_EQ(t.size(), 2u);
      EXPECT_NEAR(v[5], -std::sin(1.0), 1e-6);  // end key: 2 rad about Y, y negated by the mirror
    }
  }
  EXPECT_LE(r->reduction.max_translation, 0.01);
  EXPECT_LE(r->reduction.max_degrees, 0.01);
}

// A model without bones, morph targets or camera has nothing to animate: no animation is written
// (glTF requires at least one channel).
TEST(GltfReduce, NothingToAnimateWritesNoAnimation) {
  model::Model m;
  GltfAnimation an;
  an.sample_count = 4;
  auto r = write_gltf(m, &an, {});
  ASSERT_TRUE(r);
  const test::Gltf g = test::parse_glb(r->bytes);
  ASSERT_EQ(g.error, "");
  EXPECT_FALSE(g.json.HasMember("animations"));
}

}  // namespace
}  // namespace mmdkit::exporter

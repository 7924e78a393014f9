// Helpers for motion tests: the generated humanoid, generated motions, and evaluation of a motion
// on a model through anim::Character (the one pipeline) frame by frame.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::motion::test {

/// The generated humanoid PMX as a geometry-free model view.
inline std::shared_ptr<const model::Model> humanoid() {
  static const std::shared_ptr<const model::Model> m = [] {
    pmx::GenerateOptions o;
    o.vertices = 0;
    auto p = pmx::generate(o);
    EXPECT_TRUE(p.has_value());
    auto v = model::from_pmx(*p, model::BuildOptions{false});
    EXPECT_TRUE(v.has_value());
    return std::make_shared<const model::Model>(std::move(*v));
  }();
  return m;
}

/// A generated motion with every section.
inline vmd::Motion generated(std::uint64_t seed = 7, std::uint32_t frames = 120, std::uint64_t bone_keys = 400) {
  vmd::GenerateOptions o;
  o.seed = seed;
  o.frames = frames;
  o.bone_keys = bone_keys;
  o.morph_keys = 60;
  o.camera_keys = 12;
  o.light_keys = 6;
  o.self_shadow_keys = 4;
  o.property_keys = 5;
  return vmd::generate(o);
}

/// One evaluated frame: world positions of the bones, morph weights, camera eye and angles.
struct Frame {
  std::vector<Vec3> positions;
  std::vector<Quat> local;  // key pose rotation per bone
  std::vector<Vec3> local_t;
  std::vector<float> weights;
  Vec3 eye{}, cam_rot{};
  float distance = 0, fov = 0;
};

/// Evaluates `motion` on `model` at frames first..last (whole frames).
inline std::vector<Frame> evaluate(const std::shared_ptr<const model::Model>& model, const vmd::Motion& motion,
                                   std::uint32_t first, std::uint32_t last, bool ik = true) {
  anim::MotionInputs in;
  in.motions = {&motion};
  auto data = anim::CharacterData::create(model, in);
  EXPECT_TRUE(data.has_value()) << (data ? "" : data.error().to_string());
  if (!data) return {};
  anim::Character ch(*data);
  ch.set_ik(ik);
  std::vector<Frame> out;
  for (std::uint32_t f = first; f <= last; ++f) {
    EXPECT_TRUE(ch.evaluate(f).has_value());
    Frame fr;
    fr.positions.assign(ch.pose().model_positions().begin(), ch.pose().model_positions().end());
    for (const auto& p : ch.key_pose()) {
      fr.local.push_back(p.rotation);
      fr.local_t.push_back(p.translation);
    }
    fr.weights.assign(ch.morph_weights().begin(), ch.morph_weights().end());
    fr.eye = ch.camera().position;
    fr.cam_rot = ch.camera().rotation;
    fr.distance = ch.camera().distance;
    fr.fov = ch.camera().fov_degrees;
    out.push_back(std::move(fr));
  }
  return out;
}

/// Largest absolute difference between two evaluations (positions, weights, camera eye, angles
/// and distance; not the view angle, see max_fov_difference).
inline double max_difference(const std::vector<Frame>& a, const std::vector<Frame>& b) {
  double d = 0;
  EXPECT_EQ(a.size(), b.size());
  for (std::size_t f = 0; f < std::min(a.size(), b.size()); ++f) {
    for (std::size_t i = 0; i < a[f].positions.size(); ++i)
      for (int c = 0; c < 3; ++c) d = std::max(d, double(std::abs(a[f].positions[i][c] - b[f].positions[i][c])));
    for (std::size_t i = 0; i < a[f].weights.size(); ++i) d = std::max(d, double(std::abs(a[f].weights[i] - b[f].weights[i])));
    for (int c = 0; c < 3; ++c) {
      d = std::max(d, double(std::abs(a[f].eye[c] - b[f].eye[c])));
      d = std::max(d, double(std::abs(a[f].cam_rot[c] - b[f].cam_rot[c])));
    }
    d = std::max(d, double(std::abs(a[f].distance - b[f].distance)));
  }
  return d;
}

/// Largest camera view-angle difference (degrees). Not in max_difference: a VMD stores the view
/// angle as a whole number of degrees, so a key made between keys is rounded (up to 0.5°).
inline double max_fov_difference(const std::vector<Frame>& a, const std::vector<Frame>& b) {
  double d = 0;
  for (std::size_t f = 0; f < std::min(a.size(), b.size()); ++f) d = std::max(d, double(std::abs(a[f].fov - b[f].fov)));
  return d;
}

/// A bone key on a named track built in code.
inline vmd::BoneKey key(std::uint32_t name, std::uint32_t frame, std::array<float, 3> pos, std::array<float, 4> rot = {0, 0, 0, 1},
                        vmd::Curve curve = vmd::kLinearCurve) {
  vmd::BoneKey k;
  k.name = name;
  k.frame = frame;
  k.position = pos;
  k.rotation = rot;
  k.interpolation = vmd::encode_bone_interpolation(curve, curve, curve, curve);
  return k;
}

/// A track name with CP932 bytes.
inline vmd::TrackName name(const std::string& utf8) {
  vmd::TrackName n;
  n.raw = *encode_text(utf8, Encoding::cp932);
  n.text = utf8;
  return n;
}

}  // namespace mmdkit::motion::test

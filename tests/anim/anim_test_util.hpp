// Helpers for anim tests: VMD keys built in code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mmdkit/formats/vmd.hpp"

namespace mmdkit::anim::test {

inline vmd::BoneKey bone_key(std::uint32_t name, std::uint32_t frame, std::array<float, 3> pos,
                             std::array<float, 4> rot = {0, 0, 0, 1}, vmd::Curve x = vmd::kLinearCurve,
                             vmd::Curve y = vmd::kLinearCurve, vmd::Curve z = vmd::kLinearCurve,
                             vmd::Curve r = vmd::kLinearCurve, bool physics_off = false) {
  vmd::BoneKey k;
  k.name = name;
  k.frame = frame;
  k.position = pos;
  k.rotation = rot;
  k.interpolation = vmd::encode_bone_interpolation(x, y, z, r, physics_off);
  return k;
}

inline vmd::TrackName track_name(const std::vector<std::uint8_t>& raw) {
  vmd::TrackName n;
  n.raw = raw;
  return n;
}

inline std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

}  // namespace mmdkit::anim::test

// mmdkit CLI — the JSON pieces `sample` writes, for one model and for a scene alike (one form of a
// bone, the morph weights and the camera; cmd_sample.hpp and docs/SCENE.md "sample" show where).
// Numbers are the shortest text that reads back to the same float (format_float_json).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "mmdkit/anim/camera.hpp"
#include "mmdkit/core/math.hpp"

namespace mmdkit::cli {

/// `[v0,v1,...]`.
void append_floats(std::string& s, const float* v, std::size_t n);

/// A bone of a frame: `\n {"name":NAME,"index":I,"position":[3],"quaternion":[4],"matrix":[16]}`,
/// the position being the matrix's translation (12..14).
void append_bone(std::string& s, std::string_view name, std::size_t index, const Mat4& m, const Quat& q);

/// `,"morphs":[{"name":NAME,"index":I,"weight":W},...]`.
void append_morphs(std::string& s, std::span<const std::string> names, std::span<const float> weights);

/// `,"camera":{"target":[3],"rotation":[3],"distance":D,"fov":F,"perspective":B,"position":[3]}`.
void append_camera(std::string& s, const anim::CameraState& cam);

}  // namespace mmdkit::cli

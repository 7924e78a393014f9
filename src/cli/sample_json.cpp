// mmdkit CLI — the JSON pieces of `sample` (sample_json.hpp).
#include "cli/sample_json.hpp"

#include <fmt/format.h>

#include "core/json.hpp"
#include "mmdkit/core/number.hpp"

namespace mmdkit::cli {

void append_floats(std::string& s, const float* v, std::size_t n) {
  s += '[';
  for (std::size_t i = 0; i < n; ++i) {
    if (i) s += ',';
    s += format_float_json(v[i]);
  }
  s += ']';
}

void append_bone(std::string& s, std::string_view name, std::size_t index, const Mat4& m, const Quat& q) {
  s += "\n {\"name\":";
  json::append_string(s, name);
  s += fmt::format(",\"index\":{},\"position\":", index);
  append_floats(s, &m[12], 3);
  s += ",\"quaternion\":";
  append_floats(s, q.data(), 4);
  s += ",\"matrix\":";
  append_floats(s, m.data(), 16);
  s += '}';
}

void append_morphs(std::string& s, std::span<const std::string> names, std::span<const float> weights) {
  s += ",\"morphs\":[";
  for (std::size_t m = 0; m < names.size(); ++m) {
    if (m) s += ',';
    s += "{\"name\":";
    json::append_string(s, names[m]);
    s += fmt::format(",\"index\":{},\"weight\":", m);
    s += format_float_json(weights[m]);
    s += '}';
  }
  s += ']';
}

void append_camera(std::string& s, const anim::CameraState& cam) {
  s += ",\"camera\":{\"target\":";
  append_floats(s, cam.target.data(), 3);
  s += ",\"rotation\":";
  append_floats(s, cam.rotation.data(), 3);
  s += ",\"distance\":";
  s += format_float_json(cam.distance);
  s += ",\"fov\":";
  s += format_float_json(cam.fov_degrees);
  s += fmt::format(",\"perspective\":{},\"position\":", cam.perspective ? "true" : "false");
  append_floats(s, cam.position.data(), 3);
  s += '}';
}

}  // namespace mmdkit::cli

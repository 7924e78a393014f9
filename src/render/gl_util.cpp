// mmdkit (private) — OpenGL helpers (gl_util.hpp).
#include "render/gl_util.hpp"

#include <cmath>
#include <vector>

namespace mmdkit::render::gl {
namespace {

std::string shader_log(GLuint s, bool program) {
  GLint n = 0;
  if (program) glGetProgramiv(s, GL_INFO_LOG_LENGTH, &n);
  else glGetShaderiv(s, GL_INFO_LOG_LENGTH, &n);
  std::vector<char> buf(static_cast<std::size_t>(n > 0 ? n : 1), '\0');
  if (program) glGetProgramInfoLog(s, n, nullptr, buf.data());
  else glGetShaderInfoLog(s, n, nullptr, buf.data());
  return std::string(buf.data());
}

Result<GLuint> compile(GLenum type, const char* src, const char* name) {
  GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &src, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    std::string log = shader_log(s, false);
    glDeleteShader(s);
    return make_error(ErrorCode::unsupported, std::string("shader '") + name + "' does not compile: " + log);
  }
  return s;
}

}  // namespace

Result<GLuint> make_program(const char* vs, const char* fs, const char* name) {
  auto v = compile(GL_VERTEX_SHADER, vs, name);
  if (!v) return std::unexpected(v.error());
  auto f = compile(GL_FRAGMENT_SHADER, fs, name);
  if (!f) {
    glDeleteShader(*v);
    return std::unexpected(f.error());
  }
  GLuint p = glCreateProgram();
  glAttachShader(p, *v);
  glAttachShader(p, *f);
  glLinkProgram(p);
  glDeleteShader(*v);
  glDeleteShader(*f);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::string log = shader_log(p, true);
    glDeleteProgram(p);
    return make_error(ErrorCode::unsupported, std::string("program '") + name + "' does not link: " + log);
  }
  return p;
}

Mat4 mul(const Mat4& a, const Mat4& b) noexcept {
  Mat4 r{};
  for (int c = 0; c < 4; ++c)
    for (int rr = 0; rr < 4; ++rr) {
      float s = 0;
      for (int k = 0; k < 4; ++k) s += a[static_cast<std::size_t>(k * 4 + rr)] * b[static_cast<std::size_t>(c * 4 + k)];
      r[static_cast<std::size_t>(c * 4 + rr)] = s;
    }
  return r;
}

Mat4 look_at_lh(const Vec3& eye, const Vec3& center, const Vec3& up) noexcept {
  auto sub = [](const Vec3& a, const Vec3& b) { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]}; };
  auto cross = [](const Vec3& a, const Vec3& b) {
    return Vec3{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  };
  auto dot = [](const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
  auto norm = [&](Vec3 a) {
    const float l = std::sqrt(dot(a, a));
    if (l > 0) a = {a[0] / l, a[1] / l, a[2] / l};
    return a;
  };
  const Vec3 f = norm(sub(center, eye));
  const Vec3 s = norm(cross(up, f));
  const Vec3 u = cross(f, s);
  return {s[0], u[0], f[0], 0, s[1], u[1], f[1], 0, s[2], u[2], f[2], 0, -dot(s, eye), -dot(u, eye), -dot(f, eye), 1};
}

}  // namespace mmdkit::render::gl

// mmdkit (private) — small OpenGL helpers: shader programs, 4×4 matrix math for the renderer.
#pragma once

#include <epoxy/gl.h>

#include <array>
#include <string>

#include "mmdkit/core/math.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit::render::gl {

/// Compiles and links a program; errors (unsupported) carry the driver's log.
Result<GLuint> make_program(const char* vs, const char* fs, const char* name);

/// a · b (column-major).
Mat4 mul(const Mat4& a, const Mat4& b) noexcept;

/// Left-handed look-at (+Z forward), as glm::lookAtLH.
Mat4 look_at_lh(const Vec3& eye, const Vec3& center, const Vec3& up) noexcept;

}  // namespace mmdkit::render::gl

// mmdkit — the background pass (background.hpp).
#include "render/background.hpp"

#include <string>

#include "render/gl_util.hpp"

namespace mmdkit::render::detail {

namespace {

// A quad from gl_VertexID (triangle strip): rect = left, top, width, height in pixels from the
// picture's top-left corner; uv (0, 0) = the image's first (top) row, first column.
constexpr const char* kBackgroundVs = R"(#version 330 core
uniform vec4 u_rect;
uniform vec2 u_viewport;
out vec2 v_uv;
void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  vec2 px = u_rect.xy + corner * u_rect.zw;
  v_uv = corner;
  gl_Position = vec4(px.x / u_viewport.x * 2.0 - 1.0, 1.0 - px.y / u_viewport.y * 2.0, 0.0, 1.0);
}
)";

constexpr const char* kBackgroundFs = R"(#version 330 core
uniform sampler2D u_image;
in vec2 v_uv;
out vec4 o_color;
void main() { o_color = vec4(texture(u_image, v_uv).rgb, 1.0); }
)";

}  // namespace

BackgroundPass::~BackgroundPass() {
  if (prog_) glDeleteProgram(prog_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (tex_) glDeleteTextures(1, &tex_);
}

Result<void> BackgroundPass::draw(std::span<const BackgroundLayer> layers, int width, int height) {
  if (layers.empty()) return {};
  if (!prog_) {
    auto p = gl::make_program(kBackgroundVs, kBackgroundFs, "background");
    if (!p) return std::unexpected(p.error());
    prog_ = *p;
    rect_ = glGetUniformLocation(prog_, "u_rect");
    viewport_ = glGetUniformLocation(prog_, "u_viewport");
    glGenVertexArrays(1, &vao_);
    glGenTextures(1, &tex_);
    glBindTexture(GL_TEXTURE_2D, tex_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glUseProgram(prog_);
  glUniform1i(glGetUniformLocation(prog_, "u_image"), 0);
  glUniform2f(viewport_, float(width), float(height));
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_CULL_FACE);
  glDisable(GL_STENCIL_TEST);
  glDepthMask(GL_FALSE);
  glBindVertexArray(vao_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, tex_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  for (const BackgroundLayer& l : layers) {
    const Image* im = l.image;
    if (!im || im->width < 1 || im->height < 1 || im->width > 16384 || im->height > 16384 ||
        im->rgba.size() != std::size_t(im->width) * std::size_t(im->height) * 4)
      return make_error(ErrorCode::invalid_argument, "a background picture must be 1..16384 pixels a side, RGBA8");
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, im->width, im->height, 0, GL_RGBA, GL_UNSIGNED_BYTE, im->rgba.data());
    glUniform4f(rect_, l.rect[0], l.rect[1], l.rect[2], l.rect[3]);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  }
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  return {};
}

}  // namespace mmdkit::render::detail

// mmdkit (private) — GLSL 3.30 core shaders of the renderer. Formulas and sources: docs/RENDER.md.
#pragma once

namespace mmdkit::render::shaders {

// Material pass (MMD's "object" / "object_ss" passes).
inline constexpr const char* kMaterialVs = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_uv;       // xy: UV, zw: additional UV 1 (sub-texture sphere map)
layout(location = 4) in vec4 a_color;    // vertex colour (accessories; constant white otherwise)
uniform mat4 u_view;
uniform mat4 u_proj;
uniform mat4 u_light_vp;
out vec3 v_world;
out vec3 v_normal;
out vec3 v_view_normal;
out vec4 v_uv;
out vec4 v_light_clip;
out vec4 v_color;
void main() {
  vec4 w = vec4(a_position, 1.0);
  v_color = a_color;
  v_world = a_position;
  v_normal = a_normal;
  v_view_normal = mat3(u_view) * a_normal;
  v_uv = a_uv;
  v_light_clip = u_light_vp * w;
  gl_Position = u_proj * (u_view * w);
}
)";

inline constexpr const char* kMaterialFs = R"(#version 330 core
in vec3 v_world;
in vec3 v_normal;
in vec3 v_view_normal;
in vec4 v_uv;
in vec4 v_light_clip;
in vec4 v_color;
uniform int u_accessory;      // 1: MMD's accessory shader (model::Shading::accessory)
uniform vec4 u_diffuse;
uniform vec3 u_ambient;
uniform vec3 u_specular;
uniform float u_power;
uniform vec3 u_light_color;
uniform vec3 u_to_light;      // unit vector towards the light
uniform vec3 u_eye;           // camera position (world)
uniform int u_ortho;          // orthographic camera: eye direction is the view direction
uniform vec3 u_view_dir;      // world direction the camera looks along
uniform int u_has_texture;
uniform int u_sphere_mode;    // 0 off, 1 multiply, 2 add, 3 sub-texture (multiply, additional UV 1)
uniform int u_has_toon;
uniform int u_self_shadow;    // 0 off, 1 mode 1, 2 mode 2
uniform sampler2D u_texture;
uniform sampler2D u_sphere;
uniform sampler2D u_toon;
uniform sampler2D u_shadow_map;
uniform vec4 u_shadow_rect;   // the part of MMD's map box the map holds: offset xy, size zw (0..1)
uniform vec4 u_tex_mul, u_tex_add, u_sph_mul, u_sph_add, u_toon_mul, u_toon_add;
out vec4 o_color;

float shadow_comp() {
  vec3 p = v_light_clip.xyz / v_light_clip.w;
  vec2 st = p.xy * 0.5 + 0.5;
  if (any(lessThan(st, vec2(0.0))) || any(greaterThan(st, vec2(1.0)))) return 1.0;
  // A fitted map holds only u_shadow_rect of the box; outside it nothing casts (depth cleared).
  vec2 sm = (st - u_shadow_rect.xy) / u_shadow_rect.zw;
  if (any(lessThan(sm, vec2(0.0))) || any(greaterThan(sm, vec2(1.0)))) return 1.0;
  float z = p.z * 0.5 + 0.5;
  float d = max(z - texture(u_shadow_map, sm).r, 0.0);
  // MME full.fx CalcShdow: mode 1 factor 1500, mode 2 factor 8000 × (1 − y) in D3D texture space.
  float k = u_self_shadow == 2 ? 8000.0 * (1.0 - st.y) : 1500.0;
  return 1.0 - clamp(d * k - 0.3, 0.0, 1.0);
}

// MMD's accessory shader (nanoem accessory_color.hlsl + AccessoryProgramBundle, docs/RENDER.md
// "Accessories"): ambient = diffuse·(light − 0.3) + emissive (in u_ambient); no toon; specular
// × 0.1 with power ≥ 1; the shadowed colour is the texture × that ambient.
vec4 accessory_color(vec3 n, vec3 l, vec3 v) {
  vec4 base = vec4(1.0);
  if (u_has_texture != 0) base *= clamp(texture(u_texture, v_uv.xy) * u_tex_mul + u_tex_add, 0.0, 1.0);
  if (u_sphere_mode != 0) {
    vec3 vn = normalize(v_view_normal);
    vec2 suv = u_sphere_mode == 3 ? v_uv.zw : vec2(vn.x * 0.5 + 0.5, -vn.y * 0.5 + 0.5);
    vec4 s = clamp(texture(u_sphere, suv) * u_sph_mul + u_sph_add, 0.0, 1.0);
    if (u_sphere_mode == 2) base.rgb += s.rgb; else base *= s;
  }
  float ndl = clamp(dot(n, l), 0.0, 1.0);
  vec3 amb = u_diffuse.rgb * (u_light_color - 0.3) + u_ambient;
  vec4 c = base * clamp(vec4(amb + v_color.rgb * u_diffuse.rgb * ndl, u_diffuse.a), 0.0, 1.0);
  if (u_self_shadow != 0) c = mix(base * vec4(amb, c.a), c, min(ndl, shadow_comp()));
  c.rgb += 0.1 * u_specular * u_light_color * pow(max(0.0, dot(n, normalize(l + v))), max(u_power, 1.0));
  return clamp(c, 0.0, 1.0);
}

void main() {
  vec3 n = normalize(v_normal);
  vec3 l = u_to_light;
  vec3 v = u_ortho != 0 ? -u_view_dir : normalize(u_eye - v_world);
  if (u_accessory != 0) {
    o_color = accessory_color(n, l, v);
    return;
  }
  vec4 c = vec4(clamp(u_diffuse.rgb * u_light_color + u_ambient, 0.0, 1.0), u_diffuse.a);
  if (u_has_texture != 0) c *= clamp(texture(u_texture, v_uv.xy) * u_tex_mul + u_tex_add, 0.0, 1.0);
  if (u_sphere_mode != 0) {
    vec3 vn = normalize(v_view_normal);
    vec2 suv = u_sphere_mode == 3 ? v_uv.zw : vec2(vn.x * 0.5 + 0.5, -vn.y * 0.5 + 0.5);
    vec4 s = clamp(texture(u_sphere, suv) * u_sph_mul + u_sph_add, 0.0, 1.0);
    if (u_sphere_mode == 2) c.rgb += s.rgb; else c.rgb *= s.rgb;
  }
  float ndl = dot(n, l);
  vec3 spec = vec3(0.0);
  if (u_power > 0.0) spec = u_specular * u_light_color * pow(max(0.0, dot(n, normalize(l + v))), u_power);
  if (u_self_shadow != 0) {
    float comp = shadow_comp();
    vec3 shadowed = c.rgb;
    if (u_has_toon != 0) {
      comp = min(clamp(3.0 * ndl, 0.0, 1.0), comp);
      shadowed *= clamp(texture(u_toon, vec2(0.0, 1.0)).rgb * u_toon_mul.rgb + u_toon_add.rgb, 0.0, 1.0);
    }
    c.rgb = mix(shadowed, c.rgb + spec, comp);
  } else {
    if (u_has_toon != 0)
      c.rgb *= clamp(texture(u_toon, vec2(0.0, 0.5 - 0.5 * ndl)).rgb * u_toon_mul.rgb + u_toon_add.rgb, 0.0, 1.0);
    c.rgb += spec;
  }
  o_color = clamp(c, 0.0, 1.0);
}
)";

// Edge pass: inverted hull pushed out in clip space by a constant number of pixels.
inline constexpr const char* kEdgeVs = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 3) in float a_edge_scale;
uniform mat4 u_view;
uniform mat4 u_proj;
uniform vec2 u_viewport;     // pixels
uniform float u_edge_pixels; // pixels per unit of edge size × vertex edge scale
uniform float u_edge_size;
void main() {
  vec4 clip = u_proj * (u_view * vec4(a_position, 1.0));
  vec2 n = (mat3(u_view) * a_normal).xy;
  // Pixel-space direction of the normal: x and y scale alike (f·height/2 per view unit).
  float len = length(n);
  if (len > 1e-6) clip.xy += (n / len) * (2.0 * u_edge_pixels * u_edge_size * a_edge_scale / u_viewport) * clip.w;
  gl_Position = clip;
}
)";

inline constexpr const char* kFlatFs = R"(#version 330 core
uniform vec4 u_color;
out vec4 o_color;
void main() { o_color = u_color; }
)";

// Ground shadow: the model flattened onto y = 0 along the light.
inline constexpr const char* kGroundVs = R"(#version 330 core
layout(location = 0) in vec3 a_position;
uniform mat4 u_view;
uniform mat4 u_proj;
uniform vec3 u_light_dir;  // direction the light travels, y < 0
void main() {
  vec3 p = a_position - u_light_dir * (a_position.y / u_light_dir.y);
  p.y = 0.0;
  gl_Position = u_proj * (u_view * vec4(p, 1.0));
}
)";

// Shadow map (depth from the light).
inline constexpr const char* kDepthVs = R"(#version 330 core
layout(location = 0) in vec3 a_position;
uniform mat4 u_light_vp;
void main() { gl_Position = u_light_vp * vec4(a_position, 1.0); }
)";

inline constexpr const char* kDepthFs = R"(#version 330 core
void main() {}
)";

}  // namespace mmdkit::render::shaders

// PMX writer: exact inverse of the reader for unmodified models.
#include <cstring>

#include "core/try.hpp"
#include "formats/pmx/common.hpp"


namespace mmdkit::pmx {
namespace {

using detail::deform_size;

bool valid_size(std::uint8_t s) { return s == 1 || s == 2 || s == 4; }

bool fits_signed(std::int32_t v, std::size_t size) {
  if (size == 1) return v >= -128 && v <= 127;
  if (size == 2) return v >= -32768 && v <= 32767;
  return true;
}
bool fits_vertex(std::uint32_t v, std::size_t size) {
  if (size == 1) return v <= 0xFF;
  if (size == 2) return v <= 0xFFFF;
  return true;
}
inline void store_index(std::uint8_t* p, std::int32_t v, std::size_t size) {
  if (size == 1) p[0] = static_cast<std::uint8_t>(static_cast<std::int8_t>(v));
  else if (size == 2) store_le(p, static_cast<std::int16_t>(v));
  else store_le(p, v);
}
inline void store_vertex_index(std::uint8_t* p, std::uint32_t v, std::size_t size) {
  if (size == 1) p[0] = static_cast<std::uint8_t>(v);
  else if (size == 2) store_le(p, static_cast<std::uint16_t>(v));
  else store_le(p, v);
}

class Writer {
 public:
  explicit Writer(const Model& m) : m_(m), w_(out_) {}
  Result<std::vector<std::uint8_t>> run();

 private:
  std::unexpected<Error> fail(ErrorCode code, std::string msg, std::int64_t record = -1) const {
    return make_error(code, std::move(msg), section_, record, static_cast<std::int64_t>(out_.size()));
  }
  Result<void> text(const Text& t, std::int64_t record, std::string_view what) {
    if (!t.raw.empty() || t.text.empty()) {
      w_.u32(static_cast<std::uint32_t>(t.raw.size()));
      w_.bytes(t.raw);
      return {};
    }
    auto enc = detail::encode(t.text, enc_);
    if (!enc) {
      Error e = enc.error();
      e.message = std::string(what) + ": " + e.message;
      e.section = section_;
      e.record = record;
      e.offset = static_cast<std::int64_t>(out_.size());
      return std::unexpected(std::move(e));
    }
    w_.u32(static_cast<std::uint32_t>(enc->size()));
    w_.bytes(*enc);
    return {};
  }
  Result<void> names(const Text& a, const Text& b, std::int64_t record) {
    MMDKIT_TRY(text(a, record, "name"));
    return text(b, record, "English name");
  }
  Result<void> index(std::int32_t v, std::size_t size, std::int64_t record, std::string_view what) {
    if (!fits_signed(v, size))
      return fail(ErrorCode::invalid_argument,
                  std::string(what) + " index " + std::to_string(v) + " does not fit in " + std::to_string(size) +
                      " byte(s)",
                  record);
    std::size_t at = out_.size();
    out_.resize(at + size);
    store_index(out_.data() + at, v, size);
    return {};
  }
  Result<void> vindex(std::uint32_t v, std::int64_t record, std::string_view what) {
    if (!fits_vertex(v, vi_))
      return fail(ErrorCode::invalid_argument,
                  std::string(what) + " vertex index " + std::to_string(v) + " does not fit in " +
                      std::to_string(vi_) + " byte(s)",
                  record);
    std::size_t at = out_.size();
    out_.resize(at + vi_);
    store_vertex_index(out_.data() + at, v, vi_);
    return {};
  }
  template <std::size_t N>
  void fvec(const std::array<float, N>& v) {
    w_.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>(v.data()), N * 4));
  }
  Result<void> count(std::size_t n, std::int64_t record, std::string_view what) {
    if (n > 0x7FFFFFFFu)
      return fail(ErrorCode::invalid_argument, std::string(what) + " count " + std::to_string(n) + " exceeds 2^31-1",
                  record);
    w_.i32(static_cast<std::int32_t>(n));
    return {};
  }

  Result<void> header();
  Result<void> vertices();
  Result<void> faces();
  Result<void> materials();
  Result<void> bones();
  Result<void> morphs();
  Result<void> display_frames();
  Result<void> rigid_bodies();
  Result<void> joints();
  Result<void> soft_bodies();

  const Model& m_;
  std::vector<std::uint8_t> out_;
  ByteWriter w_;
  std::string section_ = "header";
  Encoding enc_ = Encoding::utf16le;
  std::size_t vi_ = 4, ti_ = 1, mi_ = 1, bi_ = 2, morph_i_ = 2, ri_ = 2, auv_ = 0;
};

Result<void> Writer::header() {
  const Header& h = m_.header;
  if (h.encoding != Encoding::utf16le && h.encoding != Encoding::utf8)
    return fail(ErrorCode::invalid_argument, "encoding must be UTF-16LE or UTF-8");
  if (h.additional_uv_count > kMaxAdditionalUvs)
    return fail(ErrorCode::invalid_argument, "additional UV count above 4");
  for (std::uint8_t s : {h.vertex_index_size, h.texture_index_size, h.material_index_size, h.bone_index_size,
                         h.morph_index_size, h.rigid_body_index_size})
    if (!valid_size(s)) return fail(ErrorCode::invalid_argument, "index size " + std::to_string(s) + " is not 1, 2 or 4");
  if (h.extra_globals.size() > 255 - kKnownGlobals) return fail(ErrorCode::invalid_argument, "too many globals");
  enc_ = h.encoding;
  vi_ = h.vertex_index_size, ti_ = h.texture_index_size, mi_ = h.material_index_size, bi_ = h.bone_index_size;
  morph_i_ = h.morph_index_size, ri_ = h.rigid_body_index_size, auv_ = h.additional_uv_count;
  w_.bytes(kSignature);
  w_.f32(h.version_value);
  w_.u8(static_cast<std::uint8_t>(kKnownGlobals + h.extra_globals.size()));
  w_.u8(h.encoding == Encoding::utf16le ? 0 : 1);
  w_.u8(h.additional_uv_count);
  w_.u8(h.vertex_index_size);
  w_.u8(h.texture_index_size);
  w_.u8(h.material_index_size);
  w_.u8(h.bone_index_size);
  w_.u8(h.morph_index_size);
  w_.u8(h.rigid_body_index_size);
  w_.bytes(h.extra_globals);
  MMDKIT_TRY(text(m_.name, -1, "model name"));
  MMDKIT_TRY(text(m_.name_en, -1, "English model name"));
  MMDKIT_TRY(text(m_.comment, -1, "comment"));
  return text(m_.comment_en, -1, "English comment");
}

Result<void> Writer::vertices() {
  section_ = "vertices";
  const auto& vs = m_.vertices;
  if (m_.additional_uvs.size() != vs.size() * auv_)
    return fail(ErrorCode::invalid_argument, "additional_uvs holds " + std::to_string(m_.additional_uvs.size()) +
                                                 " entries, expected vertices x additional UV count = " +
                                                 std::to_string(vs.size() * auv_));
  MMDKIT_TRY(count(vs.size(), -1, "vertex"));
  const std::size_t fixed = 32 + 16 * auv_ + 1;
  std::size_t total = 0;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    auto t = static_cast<std::uint8_t>(vs[i].deform);
    if (t > 4) return fail(ErrorCode::invalid_argument, "deform type " + std::to_string(t) + " is not 0..4", static_cast<std::int64_t>(i));
    total += fixed + deform_size(vs[i].deform, bi_) + 4;
  }
  std::size_t pos = out_.size();
  out_.resize(pos + total);
  std::uint8_t* base = out_.data();
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const Vertex& v = vs[i];
    std::uint8_t* p = base + pos;
    std::memcpy(p, v.position.data(), 12);
    std::memcpy(p + 12, v.normal.data(), 12);
    std::memcpy(p + 24, v.uv.data(), 8);
    if (auv_) std::memcpy(p + 32, m_.additional_uvs[i * auv_].data(), 16 * auv_);
    p[fixed - 1] = static_cast<std::uint8_t>(v.deform);
    std::uint8_t* d = p + fixed;
    int nb = v.deform == DeformType::bdef1 ? 1 : (v.deform == DeformType::bdef4 || v.deform == DeformType::qdef) ? 4 : 2;
    for (int k = 0; k < nb; ++k) {
      if (!fits_signed(v.bones[k], bi_)) {
        out_.resize(pos);
        return fail(ErrorCode::invalid_argument,
                    "bone index " + std::to_string(v.bones[k]) + " does not fit in " + std::to_string(bi_) + " byte(s)",
                    static_cast<std::int64_t>(i));
      }
      store_index(d + k * bi_, v.bones[k], bi_);
    }
    d += nb * bi_;
    switch (v.deform) {
      case DeformType::bdef1: break;
      case DeformType::bdef2: store_le(d, v.weights[0]), d += 4; break;
      case DeformType::bdef4:
      case DeformType::qdef: std::memcpy(d, v.weights.data(), 16), d += 16; break;
      case DeformType::sdef: {
        if (v.sdef >= m_.sdef_params.size()) {
          out_.resize(pos);
          return fail(ErrorCode::invalid_argument, "SDEF vertex without sdef_params entry", static_cast<std::int64_t>(i));
        }
        const SdefParams& s = m_.sdef_params[v.sdef];
        store_le(d, v.weights[0]);
        std::memcpy(d + 4, s.c.data(), 12);
        std::memcpy(d + 16, s.r0.data(), 12);
        std::memcpy(d + 28, s.r1.data(), 12);
        d += 40;
        break;
      }
    }
    store_le(d, v.edge_scale);
    pos = static_cast<std::size_t>(d + 4 - base);
  }
  return {};
}

Result<void> Writer::faces() {
  section_ = "faces";
  const auto& f = m_.faces;
  MMDKIT_TRY(count(f.size(), -1, "face index"));
  std::size_t pos = out_.size();
  out_.resize(pos + f.size() * vi_);
  std::uint8_t* p = out_.data() + pos;
  if (vi_ == 4) {
    if (!f.empty()) std::memcpy(p, f.data(), f.size() * 4);  // memcpy from null (no faces) is UB
    return {};
  }
  std::uint32_t limit = vi_ == 1 ? 0xFFu : 0xFFFFu;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] > limit) {
      out_.resize(pos);
      return fail(ErrorCode::invalid_argument,
                  "vertex index " + std::to_string(f[i]) + " does not fit in " + std::to_string(vi_) + " byte(s)",
                  static_cast<std::int64_t>(i / 3));
    }
    if (vi_ == 1) p[i] = static_cast<std::uint8_t>(f[i]);
    else store_le(p + 2 * i, static_cast<std::uint16_t>(f[i]));
  }
  return {};
}

Result<void> Writer::materials() {
  section_ = "textures";
  MMDKIT_TRY(count(m_.textures.size(), -1, "texture"));
  for (std::size_t i = 0; i < m_.textures.size(); ++i) MMDKIT_TRY(text(m_.textures[i], static_cast<std::int64_t>(i), "texture path"));
  section_ = "materials";
  MMDKIT_TRY(count(m_.materials.size(), -1, "material"));
  for (std::size_t i = 0; i < m_.materials.size(); ++i) {
    const Material& mt = m_.materials[i];
    auto r = static_cast<std::int64_t>(i);
    MMDKIT_TRY(names(mt.name, mt.name_en, r));
    fvec(mt.diffuse);
    fvec(mt.specular);
    w_.f32(mt.specular_power);
    fvec(mt.ambient);
    w_.u8(mt.flags);
    fvec(mt.edge_color);
    w_.f32(mt.edge_size);
    MMDKIT_TRY(index(mt.texture, ti_, r, "texture"));
    MMDKIT_TRY(index(mt.sphere_texture, ti_, r, "sphere texture"));
    w_.u8(mt.sphere_mode);
    if (mt.shared_toon > 1) return fail(ErrorCode::invalid_argument, "shared_toon must be 0 or 1", r);
    w_.u8(mt.shared_toon);
    if (mt.shared_toon) {
      if (mt.toon < 0 || mt.toon > 255) return fail(ErrorCode::invalid_argument, "shared toon index not 0..255", r);
      w_.u8(static_cast<std::uint8_t>(mt.toon));
    } else {
      MMDKIT_TRY(index(mt.toon, ti_, r, "toon texture"));
    }
    MMDKIT_TRY(text(mt.memo, r, "memo"));
    if (mt.face_index_count > 0x7FFFFFFFu) return fail(ErrorCode::invalid_argument, "face index count too large", r);
    w_.u32(mt.face_index_count);
  }
  return {};
}

Result<void> Writer::bones() {
  section_ = "bones";
  MMDKIT_TRY(count(m_.bones.size(), -1, "bone"));
  for (std::size_t i = 0; i < m_.bones.size(); ++i) {
    const Bone& b = m_.bones[i];
    auto r = static_cast<std::int64_t>(i);
    MMDKIT_TRY(names(b.name, b.name_en, r));
    fvec(b.position);
    MMDKIT_TRY(index(b.parent, bi_, r, "parent bone"));
    w_.i32(b.deform_layer);
    w_.u16(b.flags);
    if (b.has(kTailIsBone)) MMDKIT_TRY(index(b.tail_bone, bi_, r, "tail bone"));
    else fvec(b.tail_offset);
    if (b.flags & (kAppendRotation | kAppendTranslation)) {
      MMDKIT_TRY(index(b.append_parent, bi_, r, "append parent"));
      w_.f32(b.append_ratio);
    }
    if (b.has(kFixedAxis)) fvec(b.fixed_axis);
    if (b.has(kLocalAxes)) {
      fvec(b.local_x);
      fvec(b.local_z);
    }
    if (b.has(kExternalParent)) w_.i32(b.external_parent_key);
    if (b.has(kIk)) {
      MMDKIT_TRY(index(b.ik_target, bi_, r, "IK target"));
      w_.i32(b.ik_iterations);
      w_.f32(b.ik_limit_angle);
      MMDKIT_TRY(count(b.ik_links.size(), r, "IK link"));
      for (const IkLink& l : b.ik_links) {
        MMDKIT_TRY(index(l.bone, bi_, r, "IK link"));
        if (l.has_limits > 1) return fail(ErrorCode::invalid_argument, "IK link has_limits must be 0 or 1", r);
        w_.u8(l.has_limits);
        if (l.has_limits) {
          fvec(l.lower);
          fvec(l.upper);
        }
      }
    }
  }
  return {};
}

Result<void> Writer::morphs() {
  section_ = "morphs";
  MMDKIT_TRY(count(m_.morphs.size(), -1, "morph"));
  for (std::size_t i = 0; i < m_.morphs.size(); ++i) {
    const Morph& m = m_.morphs[i];
    auto r = static_cast<std::int64_t>(i);
    auto t = static_cast<std::uint8_t>(m.type);
    if (t >= kMorphTypeCount) return fail(ErrorCode::invalid_argument, "morph type " + std::to_string(t) + " is not 0..10", r);
    std::size_t others = m.group_offsets.size() + m.vertex_offsets.size() + m.bone_offsets.size() +
                         m.uv_offsets.size() + m.material_offsets.size() + m.flip_offsets.size() +
                         m.impulse_offsets.size() - m.offset_count();
    if (others != 0)
      return fail(ErrorCode::invalid_argument,
                  "morph of type " + std::string(morph_type_name(m.type)) + " has offsets of another type", r);
    MMDKIT_TRY(names(m.name, m.name_en, r));
    w_.u8(m.panel);
    w_.u8(t);
    MMDKIT_TRY(count(m.offset_count(), r, "morph offset"));
    switch (m.type) {
      case MorphType::group:
      case MorphType::flip:
        for (const auto& o : m.type == MorphType::group ? m.group_offsets : m.flip_offsets) {
          MMDKIT_TRY(index(o.morph, morph_i_, r, "morph"));
          w_.f32(o.weight);
        }
        break;
      case MorphType::vertex:
        for (const auto& o : m.vertex_offsets) {
          MMDKIT_TRY(vindex(o.vertex, r, "morph"));
          fvec(o.offset);
        }
        break;
      case MorphType::bone:
        for (const auto& o : m.bone_offsets) {
          MMDKIT_TRY(index(o.bone, bi_, r, "bone"));
          fvec(o.translation);
          fvec(o.rotation);
        }
        break;
      case MorphType::material:
        for (const auto& o : m.material_offsets) {
          MMDKIT_TRY(index(o.material, mi_, r, "material"));
          w_.u8(o.operation);
          fvec(o.diffuse);
          fvec(o.specular);
          w_.f32(o.specular_power);
          fvec(o.ambient);
          fvec(o.edge_color);
          w_.f32(o.edge_size);
          fvec(o.texture_tint);
          fvec(o.sphere_tint);
          fvec(o.toon_tint);
        }
        break;
      case MorphType::impulse:
        for (const auto& o : m.impulse_offsets) {
          MMDKIT_TRY(index(o.rigid_body, ri_, r, "rigid body"));
          w_.u8(o.local);
          fvec(o.velocity);
          fvec(o.torque);
        }
        break;
      default:
        for (const auto& o : m.uv_offsets) {
          MMDKIT_TRY(vindex(o.vertex, r, "morph"));
          fvec(o.offset);
        }
        break;
    }
  }
  return {};
}

Result<void> Writer::display_frames() {
  section_ = "display frames";
  MMDKIT_TRY(count(m_.display_frames.size(), -1, "display frame"));
  for (std::size_t i = 0; i < m_.display_frames.size(); ++i) {
    const DisplayFrame& f = m_.display_frames[i];
    auto r = static_cast<std::int64_t>(i);
    MMDKIT_TRY(names(f.name, f.name_en, r));
    w_.u8(f.special);
    MMDKIT_TRY(count(f.elements.size(), r, "display frame element"));
    for (const auto& e : f.elements) {
      if (e.kind > 1) return fail(ErrorCode::invalid_argument, "display frame element kind must be 0 or 1", r);
      w_.u8(e.kind);
      MMDKIT_TRY(index(e.index, e.kind == 0 ? bi_ : morph_i_, r, e.kind == 0 ? "bone" : "morph"));
    }
  }
  return {};
}

Result<void> Writer::rigid_bodies() {
  section_ = "rigid bodies";
  MMDKIT_TRY(count(m_.rigid_bodies.size(), -1, "rigid body"));
  for (std::size_t i = 0; i < m_.rigid_bodies.size(); ++i) {
    const RigidBody& b = m_.rigid_bodies[i];
    auto r = static_cast<std::int64_t>(i);
    MMDKIT_TRY(names(b.name, b.name_en, r));
    MMDKIT_TRY(index(b.bone, bi_, r, "bone"));
    w_.u8(b.group);
    w_.u16(b.collision_mask);
    w_.u8(b.shape);
    fvec(b.size);
    fvec(b.position);
    fvec(b.rotation);
    w_.f32(b.mass);
    w_.f32(b.linear_damping);
    w_.f32(b.angular_damping);
    w_.f32(b.restitution);
    w_.f32(b.friction);
    w_.u8(b.mode);
  }
  return {};
}

Result<void> Writer::joints() {
  section_ = "joints";
  MMDKIT_TRY(count(m_.joints.size(), -1, "joint"));
  for (std::size_t i = 0; i < m_.joints.size(); ++i) {
    const Joint& j = m_.joints[i];
    auto r = static_cast<std::int64_t>(i);
    MMDKIT_TRY(names(j.name, j.name_en, r));
    w_.u8(j.type);
    MMDKIT_TRY(index(j.rigid_body_a, ri_, r, "rigid body A"));
    MMDKIT_TRY(index(j.rigid_body_b, ri_, r, "rigid body B"));
    fvec(j.position);
    fvec(j.rotation);
    fvec(j.linear_lower);
    fvec(j.linear_upper);
    fvec(j.angular_lower);
    fvec(j.angular_upper);
    fvec(j.linear_spring);
    fvec(j.angular_spring);
  }
  return {};
}

Result<void> Writer::soft_bodies() {
  section_ = "soft bodies";
  MMDKIT_TRY(count(m_.soft_bodies.size(), -1, "soft body"));
  for (std::size_t i = 0; i < m_.soft_bodies.size(); ++i) {
    const SoftBody& s = m_.soft_bodies[i];
    auto r = static_cast<std::int64_t>(i);
    MMDKIT_TRY(names(s.name, s.name_en, r));
    w_.u8(s.shape);
    MMDKIT_TRY(index(s.material, mi_, r, "material"));
    w_.u8(s.group);
    w_.u16(s.collision_mask);
    w_.u8(s.flags);
    w_.i32(s.b_link_distance);
    w_.i32(s.cluster_count);
    w_.f32(s.total_mass);
    w_.f32(s.collision_margin);
    w_.i32(s.aero_model);
    fvec(s.config);
    fvec(s.cluster);
    for (auto v : s.iterations) w_.i32(v);
    fvec(s.material_params);
    MMDKIT_TRY(count(s.anchors.size(), r, "soft body anchor"));
    for (const auto& a : s.anchors) {
      MMDKIT_TRY(index(a.rigid_body, ri_, r, "rigid body"));
      MMDKIT_TRY(vindex(a.vertex, r, "anchor"));
      w_.u8(a.near_mode);
    }
    MMDKIT_TRY(count(s.pinned_vertices.size(), r, "soft body pinned vertex"));
    for (auto v : s.pinned_vertices) MMDKIT_TRY(vindex(v, r, "pinned"));
  }
  return {};
}

Result<std::vector<std::uint8_t>> Writer::run() {
  // Rough size so that most of the output needs no reallocation.
  std::size_t estimate = 1024 + m_.vertices.size() * (32 + 16 * m_.header.additional_uv_count + 1 + 4 * 4 + 16 + 4) +
                         m_.faces.size() * 4;
  out_.reserve(estimate);
  MMDKIT_TRY(header());
  MMDKIT_TRY(vertices());
  MMDKIT_TRY(faces());
  MMDKIT_TRY(materials());
  MMDKIT_TRY(bones());
  MMDKIT_TRY(morphs());
  MMDKIT_TRY(display_frames());
  MMDKIT_TRY(rigid_bodies());
  MMDKIT_TRY(joints());
  if (m_.header.version == Version::v2_1) {
    MMDKIT_TRY(soft_bodies());
  } else if (!m_.soft_bodies.empty()) {
    section_ = "soft bodies";
    return fail(ErrorCode::invalid_argument, "soft bodies need PMX 2.1");
  }
  w_.bytes(m_.trailing);
  return std::move(out_);
}

}  // namespace

Result<std::vector<std::uint8_t>> write(const Model& model) {
  Writer w(model);
  return w.run();
}

void fit_index_sizes(Model& m) noexcept {
  auto vsize = [](std::size_t n) -> std::uint8_t { return n < 256 ? 1 : n < 65536 ? 2 : 4; };
  auto size = [](std::size_t n) -> std::uint8_t { return n < 128 ? 1 : n < 32768 ? 2 : 4; };
  Header& h = m.header;
  h.vertex_index_size = vsize(m.vertices.size());
  h.texture_index_size = size(m.textures.size());
  h.material_index_size = size(m.materials.size());
  h.bone_index_size = size(m.bones.size());
  h.morph_index_size = size(m.morphs.size());
  h.rigid_body_index_size = size(m.rigid_bodies.size());
}

namespace {
Result<void> reencode(Text& t, Encoding enc) {
  if (t.raw.empty() && t.text.empty()) return {};
  MMDKIT_TRY_ASSIGN(auto b, detail::encode(t.text, enc));
  t.raw = std::move(b);
  return {};
}
}  // namespace

Result<void> set_encoding(Model& m, Encoding enc) {
  if (enc != Encoding::utf16le && enc != Encoding::utf8)
    return make_error(ErrorCode::invalid_argument, "PMX text is UTF-16LE or UTF-8");
  std::vector<Text*> all{&m.name, &m.name_en, &m.comment, &m.comment_en};
  for (auto& t : m.textures) all.push_back(&t);
  auto pair = [&](Text& a, Text& b) {
    all.push_back(&a);
    all.push_back(&b);
  };
  for (auto& x : m.materials) pair(x.name, x.name_en), all.push_back(&x.memo);
  for (auto& x : m.bones) pair(x.name, x.name_en);
  for (auto& x : m.morphs) pair(x.name, x.name_en);
  for (auto& x : m.display_frames) pair(x.name, x.name_en);
  for (auto& x : m.rigid_bodies) pair(x.name, x.name_en);
  for (auto& x : m.joints) pair(x.name, x.name_en);
  for (auto& x : m.soft_bodies) pair(x.name, x.name_en);
  for (Text* t : all) MMDKIT_TRY(reencode(*t, enc));
  m.header.encoding = enc;
  return {};
}

}  // namespace mmdkit::pmx

// mmdkit — PMD writer: computes the exact size, then fills one buffer.
#include <algorithm>
#include <cstring>
#include <string>

#include "mmdkit/formats/pmd.hpp"
#include "pmd_internal.hpp"
#include "core/try.hpp"

namespace mmdkit::pmd {
namespace {

class Out {
 public:
  explicit Out(std::uint8_t* p) noexcept : p_(p) {}
  template <class T>
  void put(T v) noexcept {
    std::memcpy(p_, &v, sizeof(T));
    p_ += sizeof(T);
  }
  template <class T, std::size_t K>
  void put(const std::array<T, K>& a) noexcept {
    std::memcpy(p_, a.data(), sizeof(T) * K);
    p_ += sizeof(T) * K;
  }
  void bytes(const void* src, std::size_t n) noexcept {
    if (n) std::memcpy(p_, src, n);
    p_ += n;
  }
  // The buffer is zero-filled: padding is skipping.
  void skip(std::size_t n) noexcept { p_ += n; }
  std::uint8_t* cursor() const noexcept { return p_; }

 private:
  std::uint8_t* p_;
};

// Writes a fixed text field: raw bytes (cut to N) if any, else the encoded text.
template <std::size_t N>
Result<void> put_text(Out& o, const FixedText<N>& t, Encoding enc, const char* section, std::int64_t record,
                      const char* what) {
  if (!t.raw.empty() || t.text.empty()) {
    std::size_t n = std::min(t.raw.size(), N);
    o.bytes(t.raw.data(), n);
    o.skip(N - n);
    return {};
  }
  auto enc_bytes = encode_text(t.text, enc);
  if (!enc_bytes) {
    Error e = enc_bytes.error();
    e.section = section;
    e.record = record;
    e.message = std::string(what) + ": " + e.message;
    return std::unexpected(std::move(e));
  }
  if (enc_bytes->size() > N)
    return make_error(ErrorCode::invalid_argument,
                      std::string(what) + " \"" + t.text + "\" needs " + std::to_string(enc_bytes->size()) + " bytes in " +
                          std::string(encoding_name(enc)) + ", the field holds " + std::to_string(N),
                      section, record);
  o.bytes(enc_bytes->data(), enc_bytes->size());
  o.skip(N - enc_bytes->size());
  return {};
}

// A toon name holds data unless it is all NUL (or unset).
template <std::size_t N>
bool toon_used(const FixedText<N>& t) {
  return !t.text.empty() || std::any_of(t.raw.begin(), t.raw.end(), [](std::uint8_t c) { return c != 0; });
}

std::unexpected<Error> too_many(const char* section, std::size_t n, std::size_t max) {
  return make_error(ErrorCode::invalid_argument,
                    std::to_string(n) + " records, the format's count field holds at most " + std::to_string(max),
                    section);
}

}  // namespace

std::string_view tail_name(Tail t) noexcept {
  switch (t) {
    case Tail::none: return "none";
    case Tail::english: return "english";
    case Tail::toon_textures: return "toon_textures";
    case Tail::rigid_bodies: return "rigid_bodies";
    case Tail::joints: return "joints";
  }
  return "joints";
}

std::optional<Tail> parse_tail_name(std::string_view name) noexcept {
  for (Tail t : {Tail::none, Tail::english, Tail::toon_textures, Tail::rigid_bodies, Tail::joints})
    if (tail_name(t) == name) return t;
  return std::nullopt;
}

TextureParts texture_parts(std::string_view s) {
  TextureParts t;
  auto lower_ext = [](std::string_view f) {
    std::size_t dot = f.rfind('.');
    std::string e = dot == std::string_view::npos ? std::string() : std::string(f.substr(dot));
    for (char& c : e) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return e;
  };
  std::size_t star = s.find('*');
  if (star != std::string_view::npos) {
    t.texture = std::string(s.substr(0, star));
    t.sphere = std::string(s.substr(star + 1));
  } else {
    std::string e = lower_ext(s);
    if (e == ".sph" || e == ".spa")
      t.sphere = std::string(s);
    else
      t.texture = std::string(s);
  }
  if (!t.sphere.empty()) t.sphere_mode = lower_ext(t.sphere) == ".spa" ? 2 : 1;
  return t;
}

namespace {

// Refuses counts the count fields cannot hold.
Result<void> check_counts(const Model& m) {
  if (m.bones.size() > 0xFFFF) return too_many(kSecBones, m.bones.size(), 0xFFFF);
  if (m.ik_chains.size() > 0xFFFF) return too_many(kSecIk, m.ik_chains.size(), 0xFFFF);
  if (m.morphs.size() > 0xFFFF) return too_many(kSecMorphs, m.morphs.size(), 0xFFFF);
  if (m.morph_display.size() > 0xFF) return too_many(kSecMorphDisplay, m.morph_display.size(), 0xFF);
  if (m.bone_frames.size() > 0xFF) return too_many(kSecBoneFrames, m.bone_frames.size(), 0xFF);
  if (m.vertices.size() > 0xFFFFFFFFu) return too_many(kSecVertices, m.vertices.size(), 0xFFFFFFFFu);
  if (m.indices.size() > 0xFFFFFFFFu) return too_many(kSecFaces, m.indices.size(), 0xFFFFFFFFu);
  if (m.materials.size() > 0xFFFFFFFFu) return too_many(kSecMaterials, m.materials.size(), 0xFFFFFFFFu);
  if (m.bone_display.size() > 0xFFFFFFFFu) return too_many(kSecBoneDisplay, m.bone_display.size(), 0xFFFFFFFFu);
  if (m.rigid_bodies.size() > 0xFFFFFFFFu) return too_many(kSecRigidBodies, m.rigid_bodies.size(), 0xFFFFFFFFu);
  if (m.joints.size() > 0xFFFFFFFFu) return too_many(kSecJoints, m.joints.size(), 0xFFFFFFFFu);

  return {};
}

// The tail parts to write: the model's, raised to the last part that has content.
Tail tail_to_write(const Model& m) {
  Tail tail = m.tail;
  auto raise = [&](Tail t) {
    if (static_cast<int>(tail) < static_cast<int>(t)) tail = t;
  };
  if (m.english) raise(Tail::english);
  if (std::any_of(m.toon_textures.begin(), m.toon_textures.end(), [](const ToonName& t) { return toon_used(t); }))
    raise(Tail::toon_textures);
  if (!m.rigid_bodies.empty()) raise(Tail::rigid_bodies);
  if (!m.joints.empty()) raise(Tail::joints);
  return tail;
}

// The English names of a model with any: one per bone, morph but the base, and bone frame.
Result<void> check_english(const Model& m) {
  const std::size_t english_morphs = m.morphs.empty() ? 0 : m.morphs.size() - 1;
  if (m.english) {
    const English& e = *m.english;
    if (e.bone_names.size() != m.bones.size() || e.morph_names.size() != english_morphs ||
        e.frame_names.size() != m.bone_frames.size())
      return make_error(ErrorCode::invalid_argument,
                        "English names: " + std::to_string(e.bone_names.size()) + " bone, " +
                            std::to_string(e.morph_names.size()) + " morph, " + std::to_string(e.frame_names.size()) +
                            " frame names; the model needs " + std::to_string(m.bones.size()) + ", " +
                            std::to_string(english_morphs) + ", " + std::to_string(m.bone_frames.size()),
                        kSecEnglish);
  }
  return {};
}

// The exact byte size of the file; refuses an IK chain of over 255 links, a morph of too many offsets.
Result<std::size_t> exact_size(const Model& m, Tail tail) {
  const std::size_t english_morphs = m.morphs.empty() ? 0 : m.morphs.size() - 1;
  std::size_t size = kHeaderSize + 4 + kVertexSize * m.vertices.size() + 4 + 2 * m.indices.size() + 4 +
                     kMaterialSize * m.materials.size() + 2 + kBoneSize * m.bones.size() + 2;
  for (const IkChain& k : m.ik_chains) {
    if (k.links.size() > 0xFF)
      return make_error(ErrorCode::invalid_argument,
                        std::to_string(k.links.size()) + " IK links, the format holds at most 255", kSecIk,
                        &k - m.ik_chains.data());
    size += kIkChainMinSize + 2 * k.links.size();
  }
  size += 2;
  for (const Morph& x : m.morphs) {
    if (x.offsets.size() > 0xFFFFFFFFu)
      return make_error(ErrorCode::invalid_argument, "too many morph offsets", kSecMorphs, &x - m.morphs.data());
    size += kMorphMinSize + kMorphOffsetSize * x.offsets.size();
  }
  size += 1 + 2 * m.morph_display.size() + 1 + kFrameNameSize * m.bone_frames.size() + 4 +
          kBoneDisplaySize * m.bone_display.size();
  const int tail_n = static_cast<int>(tail);
  if (tail_n >= 1) {
    size += 1;
    if (m.english)
      size += kNameSize + kCommentSize + kNameSize * (m.bones.size() + english_morphs) +
              kFrameNameSize * m.bone_frames.size();
  }
  if (tail_n >= 2) size += kToonCount * kToonNameSize;
  if (tail_n >= 3) size += 4 + kRigidBodySize * m.rigid_bodies.size();
  if (tail_n >= 4) size += 4 + kJointSize * m.joints.size();
  size += m.trailing.size();
  return size;
}

// Writes a fixed text field at o in enc, or returns its error from the enclosing function.
#define MMDKIT_PUT_TEXT(field, section, record, what)                                  \
  do {                                                                                 \
    if (auto r_ = put_text(o, field, enc, section, record, what); !r_) [[unlikely]]    \
      return std::unexpected(std::move(r_.error()));                                   \
  } while (0)


// The header, vertices, faces and materials.
Result<void> write_geometry(Out& o, const Model& m, Encoding enc) {
  // Header.
  o.bytes("Pmd", 3);
  o.put(m.version);
  MMDKIT_PUT_TEXT(m.name, kSecHeader, -1, "model name");
  MMDKIT_PUT_TEXT(m.comment, kSecHeader, -1, "comment");
  // Vertices.
  o.put(static_cast<std::uint32_t>(m.vertices.size()));
  {
    std::uint8_t* p = o.cursor();
    for (const Vertex& v : m.vertices) {
      std::memcpy(p, v.position.data(), 12);
      std::memcpy(p + 12, v.normal.data(), 12);
      std::memcpy(p + 24, v.uv.data(), 8);
      std::memcpy(p + 32, v.bones.data(), 4);
      p[36] = v.weight;
      p[37] = v.edge_off;
      p += kVertexSize;
    }
    o.skip(kVertexSize * m.vertices.size());
  }
  // Faces.
  o.put(static_cast<std::uint32_t>(m.indices.size()));
  o.bytes(m.indices.data(), 2 * m.indices.size());
  // Materials.
  o.put(static_cast<std::uint32_t>(m.materials.size()));
  for (std::size_t i = 0; i < m.materials.size(); ++i) {
    const Material& x = m.materials[i];
    o.put(x.diffuse);
    o.put(x.specular_power);
    o.put(x.specular);
    o.put(x.ambient);
    o.put(x.toon_index);
    o.put(x.edge_flag);
    o.put(x.index_count);
    MMDKIT_PUT_TEXT(x.texture, kSecMaterials, static_cast<std::int64_t>(i), "texture name");
  }
  return {};
}

// Bones, IK chains and morphs.
Result<void> write_skeleton(Out& o, const Model& m, Encoding enc) {
  // Bones.
  o.put(static_cast<std::uint16_t>(m.bones.size()));
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    const Bone& b = m.bones[i];
    MMDKIT_PUT_TEXT(b.name, kSecBones, static_cast<std::int64_t>(i), "bone name");
    o.put(b.parent);
    o.put(b.tail);
    o.put(b.type);
    o.put(b.ik_parent);
    o.put(b.position);
  }
  // IK chains.
  o.put(static_cast<std::uint16_t>(m.ik_chains.size()));
  for (const IkChain& k : m.ik_chains) {
    o.put(k.target);
    o.put(k.effector);
    o.put(static_cast<std::uint8_t>(k.links.size()));
    o.put(k.iterations);
    o.put(k.unit_angle);
    o.bytes(k.links.data(), 2 * k.links.size());
  }
  // Morphs.
  o.put(static_cast<std::uint16_t>(m.morphs.size()));
  for (std::size_t i = 0; i < m.morphs.size(); ++i) {
    const Morph& x = m.morphs[i];
    MMDKIT_PUT_TEXT(x.name, kSecMorphs, static_cast<std::int64_t>(i), "morph name");
    o.put(static_cast<std::uint32_t>(x.offsets.size()));
    o.put(x.type);
    o.bytes(x.offsets.data(), kMorphOffsetSize * x.offsets.size());
  }
  return {};
}

// The morph and bone display lists.
Result<void> write_display(Out& o, const Model& m, Encoding enc) {
  // Display lists.
  o.put(static_cast<std::uint8_t>(m.morph_display.size()));
  o.bytes(m.morph_display.data(), 2 * m.morph_display.size());
  o.put(static_cast<std::uint8_t>(m.bone_frames.size()));
  for (std::size_t i = 0; i < m.bone_frames.size(); ++i)
    MMDKIT_PUT_TEXT(m.bone_frames[i], kSecBoneFrames, static_cast<std::int64_t>(i), "bone frame name");
  o.put(static_cast<std::uint32_t>(m.bone_display.size()));
  for (const BoneDisplay& d : m.bone_display) {
    o.put(d.bone);
    o.put(d.frame);
  }
  return {};
}

// The optional tail up to `tail`: English names, toon textures, rigid bodies, joints.
Result<void> write_tail(Out& o, const Model& m, Encoding enc, Tail tail) {
  const int tail_n = static_cast<int>(tail);
  // Optional tail.
  if (tail_n >= 1) {
    o.put(static_cast<std::uint8_t>(m.english ? 1 : 0));
    if (m.english) {
      const English& e = *m.english;
      MMDKIT_PUT_TEXT(e.name, kSecEnglish, -1, "English model name");
      MMDKIT_PUT_TEXT(e.comment, kSecEnglish, -1, "English comment");
      for (std::size_t i = 0; i < e.bone_names.size(); ++i)
        MMDKIT_PUT_TEXT(e.bone_names[i], kSecEnglish, static_cast<std::int64_t>(i), "English bone name");
      for (std::size_t i = 0; i < e.morph_names.size(); ++i)
        MMDKIT_PUT_TEXT(e.morph_names[i], kSecEnglish, static_cast<std::int64_t>(i), "English morph name");
      for (std::size_t i = 0; i < e.frame_names.size(); ++i)
        MMDKIT_PUT_TEXT(e.frame_names[i], kSecEnglish, static_cast<std::int64_t>(i), "English frame name");
    }
  }
  if (tail_n >= 2)
    for (std::size_t i = 0; i < kToonCount; ++i)
      MMDKIT_PUT_TEXT(m.toon_textures[i], kSecToon, static_cast<std::int64_t>(i), "toon texture name");
  if (tail_n >= 3) {
    o.put(static_cast<std::uint32_t>(m.rigid_bodies.size()));
    for (std::size_t i = 0; i < m.rigid_bodies.size(); ++i) {
      const RigidBody& b = m.rigid_bodies[i];
      MMDKIT_PUT_TEXT(b.name, kSecRigidBodies, static_cast<std::int64_t>(i), "rigid body name");
      o.put(b.bone);
      o.put(b.group);
      o.put(b.collision_mask);
      o.put(b.shape);
      o.put(b.size);
      o.put(b.position);
      o.put(b.rotation);
      o.put(b.mass);
      o.put(b.linear_damping);
      o.put(b.angular_damping);
      o.put(b.restitution);
      o.put(b.friction);
      o.put(b.mode);
    }
  }
  if (tail_n >= 4) {
    o.put(static_cast<std::uint32_t>(m.joints.size()));
    for (std::size_t i = 0; i < m.joints.size(); ++i) {
      const Joint& j = m.joints[i];
      MMDKIT_PUT_TEXT(j.name, kSecJoints, static_cast<std::int64_t>(i), "joint name");
      o.put(j.rigid_a);
      o.put(j.rigid_b);
      o.put(j.position);
      o.put(j.rotation);
      o.put(j.position_min);
      o.put(j.position_max);
      o.put(j.rotation_min);
      o.put(j.rotation_max);
      o.put(j.spring_position);
      o.put(j.spring_rotation);
    }
  }
  return {};
}
#undef MMDKIT_PUT_TEXT

}  // namespace

Result<std::vector<std::uint8_t>> write(const Model& m) {
  MMDKIT_TRY(check_counts(m));
  const Tail tail = tail_to_write(m);
  MMDKIT_TRY(check_english(m));
  MMDKIT_TRY_ASSIGN(const std::size_t size, exact_size(m, tail));
  std::vector<std::uint8_t> buf(size);
  Out o(buf.data());
  MMDKIT_TRY(write_geometry(o, m, m.encoding));
  MMDKIT_TRY(write_skeleton(o, m, m.encoding));
  MMDKIT_TRY(write_display(o, m, m.encoding));
  MMDKIT_TRY(write_tail(o, m, m.encoding, tail));
  o.bytes(m.trailing.data(), m.trailing.size());
  return buf;
}

}  // namespace mmdkit::pmd

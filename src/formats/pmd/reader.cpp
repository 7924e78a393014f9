// mmdkit — PMD reader. Layout: docs/formats/pmd.md.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "pmd_internal.hpp"
#include "core/try.hpp"

namespace mmdkit::pmd {
namespace {

// Fixed-size text: keep all N raw bytes (decoded later, once the encoding is known).
template <std::size_t N>
inline void take_text(ByteReader& r, FixedText<N>& t) {
  const std::uint8_t* p = r.cursor();
  t.raw.assign(p, p + N);
  r.skip(N);
}

template <class T, std::size_t K>
inline void take_array(ByteReader& r, std::array<T, K>& a) {
  std::memcpy(a.data(), r.cursor(), sizeof(T) * K);
  r.skip(sizeof(T) * K);
}

std::unexpected<Error> truncated(const ByteReader& r, std::string_view section, std::int64_t record,
                                 std::string_view what, std::size_t need) {
  return make_error(ErrorCode::truncated,
                    std::string(what) + " needs " + std::to_string(need) + " bytes, " +
                        std::to_string(r.remaining()) + " left",
                    std::string(section), record, static_cast<std::int64_t>(r.offset()));
}

std::unexpected<Error> too_many(const ByteReader& r, std::string_view section, std::int64_t record,
                                std::uint64_t count, std::size_t record_size, std::size_t count_offset) {
  return make_error(ErrorCode::count_too_large,
                    "count " + std::to_string(count) + " of " + std::to_string(record_size) +
                        "-byte records needs at least " + std::to_string(count * record_size) + " bytes, " +
                        std::to_string(r.remaining()) + " left",
                    std::string(section), record, static_cast<std::int64_t>(count_offset));
}

// Reads a count field of type T (u8/u16/u32) and checks that `count` records of at least
// `min_size` bytes fit in what is left.
// `fixed` = the records are exactly min_size bytes (the error then names the first cut record);
// otherwise min_size is a lower bound and the error names the count's offset.
template <class T>
Result<std::size_t> take_count(ByteReader& r, std::string_view section, std::size_t min_size, bool fixed = true) {
  if (r.remaining() < sizeof(T)) return truncated(r, section, -1, "count", sizeof(T));
  std::size_t at = r.offset();
  T n;
  std::memcpy(&n, r.cursor(), sizeof(T));
  r.skip(sizeof(T));
  if (min_size && n > r.remaining() / min_size && !fixed) return too_many(r, section, -1, n, min_size, at);
  if (min_size && n > r.remaining() / min_size) {
    // Name the first record that does not fit, at the offset where it starts.
    std::size_t fit = r.remaining() / min_size;
    return make_error(ErrorCode::count_too_large,
                      "count " + std::to_string(n) + " at byte " + std::to_string(at) + " needs " +
                          std::to_string(std::uint64_t{n} * min_size) + " bytes of " + std::to_string(min_size) +
                          "-byte records, " + std::to_string(r.remaining()) + " left: record " + std::to_string(fit) +
                          " is cut",
                      std::string(section), static_cast<std::int64_t>(fit),
                      static_cast<std::int64_t>(r.offset() + fit * min_size));
  }
  return static_cast<std::size_t>(n);
}

Result<void> read_mandatory(ByteReader& r, Model& m, bool skip_geometry, ReadResult& counts) {
  // Vertices (take_count checked that they fit in the bytes left).
  MMDKIT_TRY_ASSIGN(auto nv, take_count<std::uint32_t>(r, kSecVertices, kVertexSize));
  counts.vertex_count = nv;
  if (skip_geometry) {
    r.skip(nv * kVertexSize);
  } else {
    m.vertices.resize(nv);
    const std::uint8_t* p = r.cursor();
    for (Vertex& v : m.vertices) {
      std::memcpy(v.position.data(), p, 32);  // position, normal, uv: 8 floats
      std::memcpy(v.bones.data(), p + 32, 4);
      v.weight = p[36];
      v.edge_off = p[37];
      p += kVertexSize;
    }
    r.skip(nv * kVertexSize);
  }
  // Face indices.
  auto ni = take_count<std::uint32_t>(r, kSecFaces, 2);
  if (!ni) return std::unexpected(ni.error());
  counts.index_count = *ni;
  if (!skip_geometry) {
    m.indices.resize(*ni);
    if (*ni) std::memcpy(m.indices.data(), r.cursor(), *ni * 2);
  }
  r.skip(*ni * 2);
  // Materials.
  MMDKIT_TRY_ASSIGN(auto nm, take_count<std::uint32_t>(r, kSecMaterials, kMaterialSize));
  m.materials.resize(nm);
  for (Material& x : m.materials) {
    take_array(r, x.diffuse);
    x.specular_power = r.f32();
    take_array(r, x.specular);
    take_array(r, x.ambient);
    x.toon_index = r.u8();
    x.edge_flag = r.u8();
    x.index_count = r.u32();
    take_text(r, x.texture);
  }
  // Bones.
  MMDKIT_TRY_ASSIGN(auto nb, take_count<std::uint16_t>(r, kSecBones, kBoneSize));
  m.bones.resize(nb);
  for (Bone& b : m.bones) {
    take_text(r, b.name);
    b.parent = r.u16();
    b.tail = r.u16();
    b.type = r.u8();
    b.ik_parent = r.u16();
    take_array(r, b.position);
  }
  // IK chains (variable size).
  MMDKIT_TRY_ASSIGN(auto nk, take_count<std::uint16_t>(r, kSecIk, kIkChainMinSize, false));
  m.ik_chains.resize(nk);
  for (std::size_t i = 0; i < nk; ++i) {
    IkChain& k = m.ik_chains[i];
    if (r.remaining() < kIkChainMinSize)
      return truncated(r, kSecIk, static_cast<std::int64_t>(i), "IK chain", kIkChainMinSize);
    k.target = r.u16();
    k.effector = r.u16();
    std::size_t n = r.u8();
    k.iterations = r.u16();
    k.unit_angle = r.f32();
    if (r.remaining() < 2 * n)
      return truncated(r, kSecIk, static_cast<std::int64_t>(i), "IK links (" + std::to_string(n) + ")", 2 * n);
    k.links.resize(n);
    if (n) std::memcpy(k.links.data(), r.cursor(), 2 * n);
    r.skip(2 * n);
  }
  // Morphs (variable size).
  MMDKIT_TRY_ASSIGN(auto nmo, take_count<std::uint16_t>(r, kSecMorphs, kMorphMinSize, false));
  m.morphs.resize(nmo);
  for (std::size_t i = 0; i < nmo; ++i) {
    Morph& x = m.morphs[i];
    if (r.remaining() < kMorphMinSize)
      return truncated(r, kSecMorphs, static_cast<std::int64_t>(i), "morph", kMorphMinSize);
    take_text(r, x.name);
    std::size_t count_at = r.offset();
    std::uint32_t n = r.u32();
    x.type = r.u8();
    if (n > r.remaining() / kMorphOffsetSize)
      return too_many(r, kSecMorphs, static_cast<std::int64_t>(i), n, kMorphOffsetSize, count_at);
    x.offsets.resize(n);
    if (n) std::memcpy(static_cast<void*>(x.offsets.data()), r.cursor(), std::size_t{n} * kMorphOffsetSize);
    r.skip(std::size_t{n} * kMorphOffsetSize);
  }
  // Morph display list.
  auto nd = take_count<std::uint8_t>(r, kSecMorphDisplay, 2);
  if (!nd) return std::unexpected(nd.error());
  m.morph_display.resize(*nd);
  if (*nd) std::memcpy(m.morph_display.data(), r.cursor(), *nd * 2);
  r.skip(*nd * 2);
  // Bone frame names.
  MMDKIT_TRY_ASSIGN(auto nf, take_count<std::uint8_t>(r, kSecBoneFrames, kFrameNameSize));
  m.bone_frames.resize(nf);
  for (FrameName& f : m.bone_frames) take_text(r, f);
  // Bone display list.
  MMDKIT_TRY_ASSIGN(auto nbd, take_count<std::uint32_t>(r, kSecBoneDisplay, kBoneDisplaySize));
  m.bone_display.resize(nbd);
  for (BoneDisplay& d : m.bone_display) {
    d.bone = r.u16();
    d.frame = r.u8();
  }
  return {};
}

void read_rigid_body(ByteReader& r, RigidBody& b) {
  take_text(r, b.name);
  b.bone = r.u16();
  b.group = r.u8();
  b.collision_mask = r.u16();
  b.shape = r.u8();
  take_array(r, b.size);
  take_array(r, b.position);
  take_array(r, b.rotation);
  b.mass = r.f32();
  b.linear_damping = r.f32();
  b.angular_damping = r.f32();
  b.restitution = r.f32();
  b.friction = r.f32();
  b.mode = r.u8();
}

void read_joint(ByteReader& r, Joint& j) {
  take_text(r, j.name);
  j.rigid_a = r.u32();
  j.rigid_b = r.u32();
  take_array(r, j.position);
  take_array(r, j.rotation);
  take_array(r, j.position_min);
  take_array(r, j.position_max);
  take_array(r, j.rotation_min);
  take_array(r, j.rotation_max);
  take_array(r, j.spring_position);
  take_array(r, j.spring_rotation);
}

// The optional tail. Returns a description of why it stopped early ("" = read to a clean end of
// a part, nothing left over), with the stop offset in `stop_at`.
std::string read_tail(ByteReader& r, Model& m) {
  m.tail = Tail::none;
  if (r.at_end()) return {};
  // English block.
  std::uint8_t flag = r.data()[r.offset()];
  if (flag > 1) return "English flag " + std::to_string(flag) + " is neither 0 nor 1";
  if (flag == 1) {
    const std::size_t morphs = m.morphs.empty() ? 0 : m.morphs.size() - 1;
    const std::size_t need =
        1 + kNameSize + kCommentSize + kNameSize * (m.bones.size() + morphs) + kFrameNameSize * m.bone_frames.size();
    if (r.remaining() < need)
      return "English names need " + std::to_string(need) + " bytes, " + std::to_string(r.remaining()) + " left";
    r.skip(1);
    English e;
    take_text(r, e.name);
    take_text(r, e.comment);
    e.bone_names.resize(m.bones.size());
    for (Name& n : e.bone_names) take_text(r, n);
    e.morph_names.resize(morphs);
    for (Name& n : e.morph_names) take_text(r, n);
    e.frame_names.resize(m.bone_frames.size());
    for (FrameName& n : e.frame_names) take_text(r, n);
    m.english = std::move(e);
  } else {
    r.skip(1);
  }
  m.tail = Tail::english;
  if (r.at_end()) return {};
  // Toon texture names.
  if (r.remaining() < kToonCount * kToonNameSize)
    return "toon texture names need " + std::to_string(kToonCount * kToonNameSize) + " bytes, " +
           std::to_string(r.remaining()) + " left";
  for (ToonName& t : m.toon_textures) take_text(r, t);
  m.tail = Tail::toon_textures;
  if (r.at_end()) return {};
  // Rigid bodies.
  auto counted = [&](std::size_t size, const char* what) -> std::string {
    if (r.remaining() < 4)
      return std::string(what) + " count needs 4 bytes, " + std::to_string(r.remaining()) + " left";
    std::uint32_t n = load_le<std::uint32_t>(r.cursor());
    if (n > (r.remaining() - 4) / size)
      return std::string(what) + " count " + std::to_string(n) + " needs " + std::to_string(std::uint64_t{n} * size) +
             " bytes, " + std::to_string(r.remaining() - 4) + " left";
    return {};
  };
  if (std::string why = counted(kRigidBodySize, "rigid body"); !why.empty()) return why;
  m.rigid_bodies.resize(r.u32());
  for (RigidBody& b : m.rigid_bodies) read_rigid_body(r, b);
  m.tail = Tail::rigid_bodies;
  if (r.at_end()) return {};
  // Joints.
  if (std::string why = counted(kJointSize, "joint"); !why.empty()) return why;
  m.joints.resize(r.u32());
  for (Joint& j : m.joints) read_joint(r, j);
  m.tail = Tail::joints;
  if (r.at_end()) return {};
  return "bytes after the joints";
}

const char* tail_section_after(Tail t) {
  switch (t) {
    case Tail::none: return kSecEnglish;
    case Tail::english: return kSecToon;
    case Tail::toon_textures: return kSecRigidBodies;
    case Tail::rigid_bodies: return kSecJoints;
    case Tail::joints: return kSecTrailing;
  }
  return kSecTrailing;
}

template <std::size_t N>
inline void decode(FixedText<N>& t, Encoding enc) {
  t.text = decode_text(until_nul(t.raw), enc);
}

template <class F>
void for_each_legacy_name(const Model& m, F&& f) {
  f(until_nul(m.name.raw));
  f(until_nul(m.comment.raw));
  for (const Bone& b : m.bones) f(until_nul(b.name.raw));
  for (const Morph& x : m.morphs) f(until_nul(x.name.raw));
  for (const FrameName& x : m.bone_frames) f(until_nul(x.raw));
}

}  // namespace

Encoding detect_encoding(const Model& m) {
  std::vector<ByteSpan> names;
  names.reserve(2 + m.bones.size() + m.morphs.size() + m.bone_frames.size());
  for_each_legacy_name(m, [&](ByteSpan s) { names.push_back(s); });
  return detect_legacy_encoding(names);
}

void decode_all_text(Model& m) {
  const Encoding e = m.encoding;
  decode(m.name, e);
  decode(m.comment, e);
  for (Material& x : m.materials) decode(x.texture, e);
  for (Bone& x : m.bones) decode(x.name, e);
  for (Morph& x : m.morphs) decode(x.name, e);
  for (FrameName& x : m.bone_frames) decode(x, e);
  if (m.english) {
    decode(m.english->name, e);
    decode(m.english->comment, e);
    for (Name& x : m.english->bone_names) decode(x, e);
    for (Name& x : m.english->morph_names) decode(x, e);
    for (FrameName& x : m.english->frame_names) decode(x, e);
  }
  for (ToonName& x : m.toon_textures) decode(x, e);
  for (RigidBody& x : m.rigid_bodies) decode(x.name, e);
  for (Joint& x : m.joints) decode(x.name, e);
}

Result<ReadResult> read(ByteSpan bytes, const ReadOptions& options) {
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "file is empty", kSecHeader, -1, 0);
  if (std::memcmp(bytes.data(), "Pmd", std::min<std::size_t>(bytes.size(), 3)) != 0)
    return make_error(ErrorCode::bad_signature, "signature is not \"Pmd\"", kSecHeader, -1, 0);
  ReadResult result;
  Model& m = result.model;
  ByteReader r(bytes);
  if (r.remaining() < kHeaderSize) return truncated(r, kSecHeader, -1, "header", kHeaderSize);
  r.skip(3);
  m.version = r.f32();
  take_text(r, m.name);
  take_text(r, m.comment);
  if (m.version != 1.0f)
    result.warnings.push_back(Error{ErrorCode::invalid_value,
                                    "version " + format_float(m.version) + " is not 1.0 (kept as stored)",
                                    kSecHeader, -1, 3, {}});
  MMDKIT_TRY(read_mandatory(r, m, options.skip_geometry, result));

  std::string why = read_tail(r, m);
  if (!why.empty()) {
    std::size_t at = r.offset();
    std::string section = tail_section_after(m.tail);
    if (options.strict)
      return make_error(ErrorCode::trailing_data,
                        why + "; " + std::to_string(bytes.size() - at) + " bytes after the last complete part",
                        section, -1, static_cast<std::int64_t>(at));
    m.trailing.assign(bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.end());
    m.trailing_offset = static_cast<std::int64_t>(at);
    result.warnings.push_back(Error{ErrorCode::trailing_data,
                                    why + "; kept " + std::to_string(m.trailing.size()) +
                                        " bytes as trailing data, written back unchanged",
                                    section, -1, static_cast<std::int64_t>(at), {}});
  }

  m.encoding = options.encoding ? *options.encoding : detect_encoding(m);
  decode_all_text(m);
  return result;
}

Result<ReadResult> read_file(const std::filesystem::path& path, const ReadOptions& options) {
  return parse_file(path, [&](ByteSpan bytes) { return read(bytes, options); });
}

}  // namespace mmdkit::pmd

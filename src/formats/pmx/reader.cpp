// PMX reader: one pass over the span; every count is checked against the bytes left before any
// allocation; bulk sections (vertices, faces) run in tight loops specialised on index sizes and
// the additional-UV count (vertex_decode.hpp), on arrays hinted to use huge pages.
#include <algorithm>
#include <array>
#include <cmath>
#include <compare>
#include <cstring>
#include <iterator>

#include "core/huge_pages.hpp"
#include "core/try.hpp"
#include "formats/pmx/common.hpp"
#include "formats/pmx/vertex_decode.hpp"
#include "mmdkit/core/file.hpp"


namespace mmdkit::pmx {
namespace {


inline std::int32_t load_index(const std::uint8_t* p, std::size_t size) noexcept {
  switch (size) {
    case 1: return static_cast<std::int8_t>(p[0]);
    case 2: return load_le<std::int16_t>(p);
    default: return load_le<std::int32_t>(p);
  }
}
inline std::uint32_t load_vertex_index(const std::uint8_t* p, std::size_t size) noexcept {
  switch (size) {
    case 1: return p[0];
    case 2: return load_le<std::uint16_t>(p);
    default: return load_le<std::uint32_t>(p);
  }
}
template <std::size_t N>
inline std::array<float, N> vec(const std::uint8_t* p) noexcept {
  std::array<float, N> v;
  std::memcpy(v.data(), p, N * sizeof(float));
  return v;
}

class Reader {
 public:
  Reader(ByteSpan bytes, const ReadOptions& opt) : r_(bytes), opt_(opt) {}

  Result<ReadResult> run();

 private:
  // Error helpers ------------------------------------------------------------------------------
  std::unexpected<Error> fail(ErrorCode code, std::string msg, std::int64_t record = -1,
                              std::int64_t offset = -2) const {
    return make_error(code, std::move(msg), section_, record,
                      offset == -2 ? static_cast<std::int64_t>(r_.offset()) : offset);
  }
  Result<void> need(std::size_t n, std::int64_t record, std::string_view what) const {
    return r_.require(n, section_, record, what);
  }
  // Reads a section count (int32): negative → invalid_value, beyond the bytes → count_too_large.
  Result<std::uint32_t> count(std::size_t min_record, std::string_view what) {
    MMDKIT_TRY(need(4, -1, std::string(what) + " count"));
    std::size_t at = r_.offset();
    std::int32_t c = r_.i32();
    if (c < 0) return fail(ErrorCode::invalid_value, std::string(what) + " count " + std::to_string(c) + " is negative", -1, static_cast<std::int64_t>(at));
    if (auto ok = r_.require_count(static_cast<std::uint64_t>(c), min_record, section_, static_cast<std::int64_t>(at)); !ok) {
      Error e = ok.error();
      e.message = std::string(what) + " " + e.message;
      return std::unexpected(std::move(e));
    }
    return static_cast<std::uint32_t>(c);
  }
  // A nested count inside record `record` (IK links, morph offsets, ...).
  Result<std::uint32_t> inner_count(std::size_t min_record, std::int64_t record, std::string_view what) {
    MMDKIT_TRY(need(4, record, std::string(what) + " count"));
    std::size_t at = r_.offset();
    std::int32_t c = r_.i32();
    if (c < 0) return fail(ErrorCode::invalid_value, std::string(what) + " count " + std::to_string(c) + " is negative", record, static_cast<std::int64_t>(at));
    if (static_cast<std::uint64_t>(c) > r_.remaining() / min_record)
      return fail(ErrorCode::count_too_large,
                  std::string(what) + " count " + std::to_string(c) + " of " + std::to_string(min_record) +
                      "-byte records needs more than the " + std::to_string(r_.remaining()) + " bytes left",
                  record, static_cast<std::int64_t>(at));
    return static_cast<std::uint32_t>(c);
  }
  Result<void> text(Text& t, std::int64_t record, std::string_view what) {
    MMDKIT_TRY(need(4, record, std::string(what) + " length"));
    std::size_t at = r_.offset();
    std::int32_t n = r_.i32();
    if (n < 0) return fail(ErrorCode::invalid_value, std::string(what) + " length " + std::to_string(n) + " is negative", record, static_cast<std::int64_t>(at));
    if (static_cast<std::size_t>(n) > r_.remaining())
      return fail(ErrorCode::truncated,
                  std::string(what) + " of " + std::to_string(n) + " bytes, " + std::to_string(r_.remaining()) + " left",
                  record);
    ByteSpan b = r_.bytes(static_cast<std::size_t>(n));
    t.raw.assign(b.begin(), b.end());
    t.text.clear();
    detail::decode_append(b, enc_, t.text);
    return {};
  }
  Result<void> names(Text& a, Text& b, std::int64_t record) {
    MMDKIT_TRY(text(a, record, "name"));
    return text(b, record, "English name");
  }
  std::int32_t index(std::size_t size) noexcept {
    std::int32_t v = load_index(r_.cursor(), size);
    r_.skip(size);
    return v;
  }
  std::uint32_t vindex() noexcept {
    std::uint32_t v = load_vertex_index(r_.cursor(), vi_);
    r_.skip(vi_);
    return v;
  }
  template <std::size_t N>
  std::array<float, N> fvec() noexcept {
    auto v = vec<N>(r_.cursor());
    r_.skip(N * 4);
    return v;
  }

  Result<void> header();
  template <std::size_t BI, std::size_t AUV, bool Store>
  Result<void> vertices_impl(std::uint32_t n);
  template <std::size_t BI, std::size_t AUV>
  Result<void> vertices_for(std::uint32_t n);
  template <std::size_t BI>
  Result<void> vertices_bi(std::uint32_t n);
  Result<void> vertices();
  Result<void> faces();
  Result<void> textures();
  Result<void> materials();
  Result<void> bones();
  Result<void> morphs();
  Result<void> display_frames();
  Result<void> rigid_bodies();
  Result<void> joints();
  Result<void> soft_bodies();

  ByteReader r_;
  ReadOptions opt_;
  ReadResult out_;
  std::string section_ = "header";
  Encoding enc_ = Encoding::utf16le;
  std::size_t vi_ = 4, ti_ = 1, mi_ = 1, bi_ = 2, morph_i_ = 2, ri_ = 2;
  std::size_t auv_ = 0;
};

Result<void> Reader::header() {
  section_ = "header";
  Header& h = out_.model.header;
  if (r_.size() == 0) return fail(ErrorCode::empty_input, "no bytes", -1, 0);
  if (r_.size() < 4 || std::memcmp(r_.cursor(), kSignature.data(), 4) != 0)
    return fail(ErrorCode::bad_signature, "does not start with \"PMX \"", -1, 0);
  MMDKIT_TRY(need(kHeaderFixedSize, -1, "PMX header"));
  r_.skip(4);
  h.version_value = r_.f32();
  if (std::fabs(h.version_value - 2.0f) < 1e-3f) {
    h.version = Version::v2_0;
  } else if (std::fabs(h.version_value - 2.1f) < 1e-3f) {
    h.version = Version::v2_1;
  } else {
    return fail(ErrorCode::unsupported, "version " + std::to_string(h.version_value) + " is not 2.0 or 2.1", -1, 4);
  }
  std::uint8_t globals = r_.u8();
  if (globals < kKnownGlobals)
    return fail(ErrorCode::invalid_value, "globals count " + std::to_string(globals) + " is below 8", -1, 8);
  MMDKIT_TRY(need(globals, -1, "globals"));
  const std::uint8_t* g = r_.cursor();
  if (g[0] > 1)
    return fail(ErrorCode::invalid_value,
                "text encoding byte " + std::to_string(g[0]) + " is not 0 (UTF-16LE) or 1 (UTF-8)", -1, 9);
  h.encoding = g[0] == 0 ? Encoding::utf16le : Encoding::utf8;
  enc_ = h.encoding;
  if (g[1] > kMaxAdditionalUvs)
    return fail(ErrorCode::invalid_value, "additional UV count " + std::to_string(g[1]) + " is above 4", -1, 10);
  h.additional_uv_count = g[1];
  static constexpr const char* kIndexNames[6] = {"vertex", "texture", "material", "bone", "morph", "rigid body"};
  for (int i = 0; i < 6; ++i) {
    std::uint8_t s = g[2 + i];
    if (s != 1 && s != 2 && s != 4)
      return fail(ErrorCode::invalid_value,
                  std::string(kIndexNames[i]) + " index size " + std::to_string(s) + " is not 1, 2 or 4", -1, 11 + i);
  }
  h.vertex_index_size = g[2];
  h.texture_index_size = g[3];
  h.material_index_size = g[4];
  h.bone_index_size = g[5];
  h.morph_index_size = g[6];
  h.rigid_body_index_size = g[7];
  h.extra_globals.assign(g + kKnownGlobals, g + globals);
  r_.skip(globals);
  vi_ = g[2], ti_ = g[3], mi_ = g[4], bi_ = g[5], morph_i_ = g[6], ri_ = g[7];
  auv_ = g[1];
  Model& m = out_.model;
  MMDKIT_TRY(text(m.name, -1, "model name"));
  MMDKIT_TRY(text(m.name_en, -1, "English model name"));
  MMDKIT_TRY(text(m.comment, -1, "comment"));
  MMDKIT_TRY(text(m.comment_en, -1, "English comment"));
  return {};
}

// Vertices: the records have a size by deform type, so the section's size is only known once it
// is read. Bulk loop: while at least `safe` records of the longest kind (SDEF) fit in the bytes
// left, `safe` records are read with no bounds check (only the deform type is checked); the last
// few records, within one longest record of the end of the input, are checked one by one as
// before and decoded from a zero-padded copy, so errors (record index, byte offset) are the same.
template <std::size_t BI, std::size_t AUV, bool Store>
Result<void> Reader::vertices_impl(std::uint32_t n) {
  using L = detail::VertexLayout<BI, AUV>;
  Model& m = out_.model;
  if constexpr (Store) {
    // reserve + emplace_back: each page is written once (resize would zero it first).
    m.vertices.reserve(n);
    mmdkit::detail::advise_huge_pages(m.vertices);
    if constexpr (AUV > 0) {
      m.additional_uvs.reserve(static_cast<std::size_t>(n) * AUV);
      mmdkit::detail::advise_huge_pages(m.additional_uvs);
    }
  }
  const std::uint8_t* base = r_.data().data();
  std::size_t pos = r_.offset();
  const std::size_t size = r_.size();
  std::uint64_t sdef_count = 0;
  auto bad_type = [&](std::uint8_t type, std::uint32_t i) {
    return fail(ErrorCode::invalid_value, "deform type " + std::to_string(type) + " is not 0..4", i,
                static_cast<std::int64_t>(pos + L::kFixed - 1));
  };
  std::uint32_t i = 0;
  while (i < n) {
    const std::size_t safe = (size - pos) / L::kMaxRecord;
    if (safe == 0) break;
    const std::uint32_t stop = i + static_cast<std::uint32_t>(std::min<std::size_t>(safe, n - i));
    for (; i < stop; ++i) {
      const std::uint8_t* p = base + pos;
      const std::uint8_t type = p[L::kFixed - 1];
      if (type > 4) [[unlikely]]
        return bad_type(type, i);
      if constexpr (Store) detail::decode_vertex<BI, AUV>(p, type, m);
      else sdef_count += type == static_cast<std::uint8_t>(DeformType::sdef);
      pos += L::kRecord[type];
    }
  }
  for (; i < n; ++i) {
    if (size - pos < L::kFixed) {
      r_.seek(pos);
      return std::unexpected(need(L::kFixed, i, "vertex").error());
    }
    const std::uint8_t type = base[pos + L::kFixed - 1];
    if (type > 4) return bad_type(type, i);
    const std::size_t dsize = L::kDeformSize[type];
    if (size - pos < L::kFixed + dsize + 4) {
      r_.seek(pos + L::kFixed);
      return std::unexpected(need(dsize + 4, i, "vertex deform data and edge scale").error());
    }
    if constexpr (Store) {
      std::array<std::uint8_t, L::kMaxRecord> padded{};
      std::memcpy(padded.data(), base + pos, L::kRecord[type]);
      detail::decode_vertex<BI, AUV>(padded.data(), type, m);
    } else {
      sdef_count += type == static_cast<std::uint8_t>(DeformType::sdef);
    }
    pos += L::kRecord[type];
  }
  r_.seek(pos);
  out_.counts.vertices = n;
  out_.counts.sdef_vertices = Store ? m.sdef_params.size() : sdef_count;
  return {};
}

template <std::size_t BI, std::size_t AUV>
Result<void> Reader::vertices_for(std::uint32_t n) {
  return opt_.skip_geometry ? vertices_impl<BI, AUV, false>(n) : vertices_impl<BI, AUV, true>(n);
}

template <std::size_t BI>
Result<void> Reader::vertices_bi(std::uint32_t n) {
  switch (auv_) {
    case 0: return vertices_for<BI, 0>(n);
    case 1: return vertices_for<BI, 1>(n);
    case 2: return vertices_for<BI, 2>(n);
    case 3: return vertices_for<BI, 3>(n);
    default: return vertices_for<BI, 4>(n);
  }
}

Result<void> Reader::vertices() {
  section_ = "vertices";
  const std::size_t min = 32 + 16 * auv_ + 1 + bi_ + 4;
  MMDKIT_TRY_ASSIGN(auto n, count(min, "vertex"));
  switch (bi_) {
    case 1: return vertices_bi<1>(n);
    case 2: return vertices_bi<2>(n);
    default: return vertices_bi<4>(n);
  }
}

// Face indices as a random-access range over the little-endian bytes, so that vector::assign
// sizes the array once and fills it in one loop (no per-element capacity check, no zeroing).
template <class T>
class LeIndexIterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = std::uint32_t;
  using difference_type = std::ptrdiff_t;
  using pointer = void;
  using reference = std::uint32_t;
  explicit LeIndexIterator(const std::uint8_t* p) noexcept : p_(p) {}
  std::uint32_t operator*() const noexcept { return load_le<T>(p_); }
  std::uint32_t operator[](difference_type k) const noexcept { return load_le<T>(p_ + k * sizeof(T)); }
  LeIndexIterator& operator++() noexcept { p_ += sizeof(T); return *this; }
  LeIndexIterator operator++(int) noexcept { auto t = *this; p_ += sizeof(T); return t; }
  LeIndexIterator& operator--() noexcept { p_ -= sizeof(T); return *this; }
  LeIndexIterator operator--(int) noexcept { auto t = *this; p_ -= sizeof(T); return t; }
  LeIndexIterator& operator+=(difference_type k) noexcept { p_ += k * static_cast<difference_type>(sizeof(T)); return *this; }
  LeIndexIterator& operator-=(difference_type k) noexcept { p_ -= k * static_cast<difference_type>(sizeof(T)); return *this; }
  friend LeIndexIterator operator+(LeIndexIterator a, difference_type k) noexcept { return a += k; }
  friend LeIndexIterator operator+(difference_type k, LeIndexIterator a) noexcept { return a += k; }
  friend LeIndexIterator operator-(LeIndexIterator a, difference_type k) noexcept { return a -= k; }
  friend difference_type operator-(LeIndexIterator a, LeIndexIterator b) noexcept {
    return (a.p_ - b.p_) / static_cast<difference_type>(sizeof(T));
  }
  friend bool operator==(LeIndexIterator a, LeIndexIterator b) noexcept { return a.p_ == b.p_; }
  friend auto operator<=>(LeIndexIterator a, LeIndexIterator b) noexcept { return a.p_ <=> b.p_; }

 private:
  const std::uint8_t* p_;
};

Result<void> Reader::faces() {
  section_ = "faces";
  MMDKIT_TRY_ASSIGN(auto n, count(vi_, "face index"));
  out_.counts.faces = n / 3;
  out_.counts.face_indices = n;
  if (n % 3 != 0) {
    out_.warnings.push_back(Warning{ErrorCode::invalid_value,
                                    "face index count " + std::to_string(n) + " is not a multiple of 3",
                                    section_, -1, static_cast<std::int64_t>(r_.offset() - 4), {}});
  }
  const std::uint8_t* p = r_.cursor();
  if (!opt_.skip_geometry) {
    auto& f = out_.model.faces;
    f.reserve(n);
    mmdkit::detail::advise_huge_pages(f);
    switch (vi_) {
      case 1:
        f.assign(p, p + n);
        break;
      case 2:
        f.assign(LeIndexIterator<std::uint16_t>(p), LeIndexIterator<std::uint16_t>(p + 2 * std::size_t{n}));
        break;
      default:
        f.assign(LeIndexIterator<std::uint32_t>(p), LeIndexIterator<std::uint32_t>(p + 4 * std::size_t{n}));
        break;
    }
  }
  r_.skip(static_cast<std::size_t>(n) * vi_);
  return {};
}

Result<void> Reader::textures() {
  section_ = "textures";
  MMDKIT_TRY_ASSIGN(auto n, count(4, "texture"));
  auto& t = out_.model.textures;
  t.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) MMDKIT_TRY(text(t[i], i, "texture path"));
  return {};
}

Result<void> Reader::materials() {
  section_ = "materials";
  const std::size_t fixed1 = 4 * 11 + 1 + 4 * 5;  // diffuse..ambient (11 floats), flags, edge colour + size
  const std::size_t min = 8 + fixed1 + 2 * ti_ + 2 + 1 + 4 + 4;
  MMDKIT_TRY_ASSIGN(auto n, count(min, "material"));
  auto& ms = out_.model.materials;
  ms.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    Material& mt = ms[i];
    MMDKIT_TRY(names(mt.name, mt.name_en, i));
    MMDKIT_TRY(need(fixed1 + 2 * ti_ + 2, i, "material"));
    mt.diffuse = fvec<4>();
    mt.specular = fvec<3>();
    mt.specular_power = r_.f32();
    mt.ambient = fvec<3>();
    mt.flags = r_.u8();
    mt.edge_color = fvec<4>();
    mt.edge_size = r_.f32();
    mt.texture = index(ti_);
    mt.sphere_texture = index(ti_);
    mt.sphere_mode = r_.u8();
    std::size_t at = r_.offset();
    mt.shared_toon = r_.u8();
    if (mt.shared_toon > 1)
      return fail(ErrorCode::invalid_value,
                  "toon reference byte " + std::to_string(mt.shared_toon) + " is not 0 (texture) or 1 (shared)", i,
                  static_cast<std::int64_t>(at));
    std::size_t tsize = mt.shared_toon ? 1 : ti_;
    MMDKIT_TRY(need(tsize, i, "material toon"));
    mt.toon = mt.shared_toon ? static_cast<std::int32_t>(r_.u8()) : index(ti_);
    MMDKIT_TRY(text(mt.memo, i, "material memo"));
    MMDKIT_TRY(need(4, i, "material face index count"));
    at = r_.offset();
    std::int32_t fc = r_.i32();
    if (fc < 0)
      return fail(ErrorCode::invalid_value, "face index count " + std::to_string(fc) + " is negative", i,
                  static_cast<std::int64_t>(at));
    mt.face_index_count = static_cast<std::uint32_t>(fc);
  }
  return {};
}

Result<void> Reader::bones() {
  section_ = "bones";
  const std::size_t min = 8 + 12 + bi_ + 4 + 2 + bi_;
  MMDKIT_TRY_ASSIGN(auto n, count(min, "bone"));
  auto& bs = out_.model.bones;
  bs.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    Bone& b = bs[i];
    MMDKIT_TRY(names(b.name, b.name_en, i));
    MMDKIT_TRY(need(12 + bi_ + 4 + 2, i, "bone"));
    b.position = fvec<3>();
    b.parent = index(bi_);
    b.deform_layer = r_.i32();
    b.flags = r_.u16();
    if (b.has(kTailIsBone)) {
      MMDKIT_TRY(need(bi_, i, "bone tail index"));
      b.tail_bone = index(bi_);
    } else {
      MMDKIT_TRY(need(12, i, "bone tail offset"));
      b.tail_offset = fvec<3>();
    }
    if (b.flags & (kAppendRotation | kAppendTranslation)) {
      MMDKIT_TRY(need(bi_ + 4, i, "bone append"));
      b.append_parent = index(bi_);
      b.append_ratio = r_.f32();
    }
    if (b.has(kFixedAxis)) {
      MMDKIT_TRY(need(12, i, "bone fixed axis"));
      b.fixed_axis = fvec<3>();
    }
    if (b.has(kLocalAxes)) {
      MMDKIT_TRY(need(24, i, "bone local axes"));
      b.local_x = fvec<3>();
      b.local_z = fvec<3>();
    }
    if (b.has(kExternalParent)) {
      MMDKIT_TRY(need(4, i, "bone external parent key"));
      b.external_parent_key = r_.i32();
    }
    if (b.has(kIk)) {
      MMDKIT_TRY(need(bi_ + 8, i, "bone IK"));
      b.ik_target = index(bi_);
      b.ik_iterations = r_.i32();
      b.ik_limit_angle = r_.f32();
      MMDKIT_TRY_ASSIGN(auto links, inner_count(bi_ + 1, i, "IK link"));
      b.ik_links.resize(links);
      for (std::uint32_t k = 0; k < links; ++k) {
        IkLink& l = b.ik_links[k];
        MMDKIT_TRY(need(bi_ + 1, i, "IK link " + std::to_string(k)));
        l.bone = index(bi_);
        std::size_t at = r_.offset();
        l.has_limits = r_.u8();
        if (l.has_limits > 1)
          return fail(ErrorCode::invalid_value,
                      "IK link " + std::to_string(k) + " limit flag " + std::to_string(l.has_limits) + " is not 0 or 1",
                      i, static_cast<std::int64_t>(at));
        if (l.has_limits) {
          MMDKIT_TRY(need(24, i, "IK link " + std::to_string(k) + " limits"));
          l.lower = fvec<3>();
          l.upper = fvec<3>();
        }
      }
    }
  }
  return {};
}

Result<void> Reader::morphs() {
  section_ = "morphs";
  MMDKIT_TRY_ASSIGN(auto n, count(8 + 2 + 4, "morph"));
  auto& ms = out_.model.morphs;
  ms.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    Morph& m = ms[i];
    MMDKIT_TRY(names(m.name, m.name_en, i));
    MMDKIT_TRY(need(2, i, "morph panel and type"));
    m.panel = r_.u8();
    std::size_t at = r_.offset();
    std::uint8_t type = r_.u8();
    if (type >= kMorphTypeCount)
      return fail(ErrorCode::invalid_value, "morph type " + std::to_string(type) + " is not 0..10", i,
                  static_cast<std::int64_t>(at));
    m.type = static_cast<MorphType>(type);
    std::size_t rec = 0;
    switch (m.type) {
      case MorphType::group:
      case MorphType::flip: rec = morph_i_ + 4; break;
      case MorphType::vertex: rec = vi_ + 12; break;
      case MorphType::bone: rec = bi_ + 28; break;
      case MorphType::material: rec = mi_ + detail::kMaterialOffsetSize; break;
      case MorphType::impulse: rec = ri_ + 1 + 24; break;
      default: rec = vi_ + 16; break;
    }
    MMDKIT_TRY_ASSIGN(auto k, inner_count(rec, i, "morph offset"));
    // The count check proved k * rec bytes are there: read without further checks.
    switch (m.type) {
      case MorphType::group:
      case MorphType::flip: {
        auto& v = m.type == MorphType::group ? m.group_offsets : m.flip_offsets;
        v.resize(k);
        for (auto& o : v) {
          o.morph = index(morph_i_);
          o.weight = r_.f32();
        }
        break;
      }
      case MorphType::vertex:
        m.vertex_offsets.resize(k);
        for (auto& o : m.vertex_offsets) {
          o.vertex = vindex();
          o.offset = fvec<3>();
        }
        break;
      case MorphType::bone:
        m.bone_offsets.resize(k);
        for (auto& o : m.bone_offsets) {
          o.bone = index(bi_);
          o.translation = fvec<3>();
          o.rotation = fvec<4>();
        }
        break;
      case MorphType::material:
        m.material_offsets.resize(k);
        for (auto& o : m.material_offsets) {
          o.material = index(mi_);
          o.operation = r_.u8();
          o.diffuse = fvec<4>();
          o.specular = fvec<3>();
          o.specular_power = r_.f32();
          o.ambient = fvec<3>();
          o.edge_color = fvec<4>();
          o.edge_size = r_.f32();
          o.texture_tint = fvec<4>();
          o.sphere_tint = fvec<4>();
          o.toon_tint = fvec<4>();
        }
        break;
      case MorphType::impulse:
        m.impulse_offsets.resize(k);
        for (auto& o : m.impulse_offsets) {
          o.rigid_body = index(ri_);
          o.local = r_.u8();
          o.velocity = fvec<3>();
          o.torque = fvec<3>();
        }
        break;
      default:
        m.uv_offsets.resize(k);
        for (auto& o : m.uv_offsets) {
          o.vertex = vindex();
          o.offset = fvec<4>();
        }
        break;
    }
  }
  return {};
}

Result<void> Reader::display_frames() {
  section_ = "display frames";
  MMDKIT_TRY_ASSIGN(auto n, count(8 + 1 + 4, "display frame"));
  auto& fs = out_.model.display_frames;
  fs.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    DisplayFrame& f = fs[i];
    MMDKIT_TRY(names(f.name, f.name_en, i));
    MMDKIT_TRY(need(1, i, "display frame special flag"));
    f.special = r_.u8();
    MMDKIT_TRY_ASSIGN(auto k, inner_count(1 + std::min(bi_, morph_i_), i, "display frame element"));
    f.elements.resize(k);
    for (std::uint32_t e = 0; e < k; ++e) {
      auto& el = f.elements[e];
      MMDKIT_TRY(need(1, i, "display frame element " + std::to_string(e)));
      std::size_t at = r_.offset();
      el.kind = r_.u8();
      if (el.kind > 1)
        return fail(ErrorCode::invalid_value,
                    "display frame element " + std::to_string(e) + " kind " + std::to_string(el.kind) +
                        " is not 0 (bone) or 1 (morph)",
                    i, static_cast<std::int64_t>(at));
      std::size_t s = el.kind == 0 ? bi_ : morph_i_;
      MMDKIT_TRY(need(s, i, "display frame element " + std::to_string(e) + " index"));
      el.index = index(s);
    }
  }
  return {};
}

Result<void> Reader::rigid_bodies() {
  section_ = "rigid bodies";
  MMDKIT_TRY_ASSIGN(auto n, count(8 + bi_ + detail::kRigidBodyFixedSize, "rigid body"));
  auto& rs = out_.model.rigid_bodies;
  rs.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    RigidBody& b = rs[i];
    MMDKIT_TRY(names(b.name, b.name_en, i));
    MMDKIT_TRY(need(bi_ + detail::kRigidBodyFixedSize, i, "rigid body"));
    b.bone = index(bi_);
    b.group = r_.u8();
    b.collision_mask = r_.u16();
    b.shape = r_.u8();
    b.size = fvec<3>();
    b.position = fvec<3>();
    b.rotation = fvec<3>();
    b.mass = r_.f32();
    b.linear_damping = r_.f32();
    b.angular_damping = r_.f32();
    b.restitution = r_.f32();
    b.friction = r_.f32();
    b.mode = r_.u8();
  }
  return {};
}

Result<void> Reader::joints() {
  section_ = "joints";
  const std::size_t rec = 1 + 2 * ri_ + detail::kJointFixedSize;
  MMDKIT_TRY_ASSIGN(auto n, count(8 + rec, "joint"));
  auto& js = out_.model.joints;
  js.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    Joint& j = js[i];
    MMDKIT_TRY(names(j.name, j.name_en, i));
    MMDKIT_TRY(need(rec, i, "joint"));
    j.type = r_.u8();
    j.rigid_body_a = index(ri_);
    j.rigid_body_b = index(ri_);
    j.position = fvec<3>();
    j.rotation = fvec<3>();
    j.linear_lower = fvec<3>();
    j.linear_upper = fvec<3>();
    j.angular_lower = fvec<3>();
    j.angular_upper = fvec<3>();
    j.linear_spring = fvec<3>();
    j.angular_spring = fvec<3>();
  }
  return {};
}

Result<void> Reader::soft_bodies() {
  section_ = "soft bodies";
  const std::size_t fixed = 1 + mi_ + 1 + 2 + 1 + 4 * 5 + 4 * (12 + 6 + 4 + 3);
  MMDKIT_TRY_ASSIGN(auto n, count(8 + fixed + 8, "soft body"));
  auto& ss = out_.model.soft_bodies;
  ss.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    SoftBody& s = ss[i];
    MMDKIT_TRY(names(s.name, s.name_en, i));
    MMDKIT_TRY(need(fixed, i, "soft body"));
    s.shape = r_.u8();
    s.material = index(mi_);
    s.group = r_.u8();
    s.collision_mask = r_.u16();
    s.flags = r_.u8();
    s.b_link_distance = r_.i32();
    s.cluster_count = r_.i32();
    s.total_mass = r_.f32();
    s.collision_margin = r_.f32();
    s.aero_model = r_.i32();
    for (auto& f : s.config) f = r_.f32();
    for (auto& f : s.cluster) f = r_.f32();
    for (auto& v : s.iterations) v = r_.i32();
    for (auto& f : s.material_params) f = r_.f32();
    MMDKIT_TRY_ASSIGN(auto a, inner_count(ri_ + vi_ + 1, i, "soft body anchor"));
    s.anchors.resize(a);
    for (auto& an : s.anchors) {
      an.rigid_body = index(ri_);
      an.vertex = vindex();
      an.near_mode = r_.u8();
    }
    MMDKIT_TRY_ASSIGN(auto p, inner_count(vi_, i, "soft body pinned vertex"));
    s.pinned_vertices.resize(p);
    for (auto& v : s.pinned_vertices) v = vindex();
  }
  return {};
}

Result<ReadResult> Reader::run() {
  MMDKIT_TRY(header());
  MMDKIT_TRY(vertices());
  MMDKIT_TRY(faces());
  MMDKIT_TRY(textures());
  MMDKIT_TRY(materials());
  MMDKIT_TRY(bones());
  MMDKIT_TRY(morphs());
  MMDKIT_TRY(display_frames());
  MMDKIT_TRY(rigid_bodies());
  MMDKIT_TRY(joints());
  if (out_.model.header.version == Version::v2_1) MMDKIT_TRY(soft_bodies());
  Model& m = out_.model;
  if (!r_.at_end()) {
    section_ = "trailing";
    std::size_t at = r_.offset();
    if (opt_.strict)
      return fail(ErrorCode::trailing_data,
                  std::to_string(r_.remaining()) + " bytes after the last section", -1, static_cast<std::int64_t>(at));
    ByteSpan rest = r_.bytes(r_.remaining());
    m.trailing.assign(rest.begin(), rest.end());
    m.trailing_offset = static_cast<std::int64_t>(at);
    out_.warnings.push_back(Warning{ErrorCode::trailing_data,
                                    std::to_string(rest.size()) + " bytes after the last section kept as trailing data",
                                    "trailing", -1, static_cast<std::int64_t>(at), {}});
  }
  Counts c = counts(m);
  c.vertices = out_.counts.vertices;
  c.faces = out_.counts.faces;
  c.face_indices = out_.counts.face_indices;
  c.sdef_vertices = out_.counts.sdef_vertices;
  out_.counts = c;
  return std::move(out_);
}

}  // namespace

Result<ReadResult> read(ByteSpan bytes, const ReadOptions& options) {
  Reader reader(bytes, options);
  return reader.run();
}

Result<ReadResult> read_file(const std::filesystem::path& path, const ReadOptions& options) {
  return parse_file(path, [&](ByteSpan bytes) { return read(bytes, options); });
}

}  // namespace mmdkit::pmx

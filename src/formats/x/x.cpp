// mmdkit — DirectX .x reader (x.hpp). Rules and sources: docs/formats/x.md.
#include "mmdkit/formats/x.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <array>
#include <map>
#include <set>
#include <span>

#include "core/try.hpp"
#include "formats/x/source.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::x {

using detail::Source;
using detail::Tok;

std::string_view body_format_name(BodyFormat f) noexcept {
  switch (f) {
    case BodyFormat::text: return "txt";
    case BodyFormat::binary: return "bin";
    case BodyFormat::compressed_text: return "tzip";
    case BodyFormat::compressed_binary: return "bzip";
  }
  return "?";
}

bool sniff(ByteSpan bytes) noexcept { return bytes.size() >= 4 && std::memcmp(bytes.data(), kMagic.data(), 4) == 0; }

std::uint64_t index_total(const std::vector<std::uint32_t>& face_sizes) noexcept {
  std::uint64_t n = 0;
  for (std::uint32_t s : face_sizes) n += s;
  return n;
}

namespace {

constexpr Mat4 kIdentity{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// Column-major product a · b.
Mat4 mul(const Mat4& a, const Mat4& b) {
  Mat4 r{};
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 4; ++row) {
      float s = 0;
      for (int k = 0; k < 4; ++k) s += a[k * 4 + row] * b[c * 4 + k];
      r[c * 4 + row] = s;
    }
  return r;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string decode(std::string_view raw) {
  return decode_text(ByteSpan(reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()), Encoding::cp932);
}

// MSZIP: u32 total size (with the 16-byte header), then blocks of u16 uncompressed size, u16
// compressed size (including the "CK" signature), "CK", raw deflate data; each block is inflated
// with the previous block's output as the dictionary (docs/formats/x.md "Compressed").
Result<std::vector<std::uint8_t>> inflate_mszip(ByteSpan in) {
  constexpr std::int64_t kBase = 16;
  if (in.size() < 4) return make_error(ErrorCode::truncated, "the compressed body ends before its size", "header", -1, kBase);
  const std::uint64_t total = load_le<std::uint32_t>(in.data());
  if (total < 16) return make_error(ErrorCode::invalid_value, "the compressed size " + std::to_string(total) + " is below the 16-byte header", "header", -1, kBase);
  const std::uint64_t want = total - 16;
  if (want > kMaxDecompressedBytes)
    return make_error(ErrorCode::limit_exceeded, "the decompressed body would have " + std::to_string(want) +
                                                     " bytes (limit " + std::to_string(kMaxDecompressedBytes) + ")",
                      "header", -1, kBase);
  std::vector<std::uint8_t> out;
  // Deflate expands at most ~1032:1; never reserve more than that of the input.
  out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(want, static_cast<std::uint64_t>(in.size()) * 1032)));
  std::size_t pos = 4;
  std::size_t block = 0;
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return make_error(ErrorCode::invalid_value, "zlib refused to start", "compressed body");
  struct Guard {
    z_stream* z;
    ~Guard() { inflateEnd(z); }
  } guard{&z};
  std::vector<std::uint8_t> buf(32768 + 1024);
  while (pos + 4 <= in.size() && out.size() < want) {
    const std::size_t usize = load_le<std::uint16_t>(in.data() + pos);
    const std::size_t csize = load_le<std::uint16_t>(in.data() + pos + 2);
    const std::int64_t at = kBase + static_cast<std::int64_t>(pos);
    pos += 4;
    if (csize < 2 || csize > in.size() - pos)
      return make_error(ErrorCode::truncated, "compressed block of " + std::to_string(csize) + " bytes goes past the end of the file",
                        "compressed block", static_cast<std::int64_t>(block), at);
    if (in[pos] != 'C' || in[pos + 1] != 'K')
      return make_error(ErrorCode::invalid_value, "compressed block without the MSZIP signature 'CK'", "compressed block",
                        static_cast<std::int64_t>(block), at + 4);
    if (inflateReset(&z) != Z_OK) return make_error(ErrorCode::invalid_value, "zlib reset failed", "compressed block", static_cast<std::int64_t>(block), at);
    if (!out.empty()) {
      const std::size_t dict = std::min<std::size_t>(out.size(), 32768);
      if (inflateSetDictionary(&z, out.data() + out.size() - dict, static_cast<uInt>(dict)) != Z_OK)
        return make_error(ErrorCode::invalid_value, "zlib refused the block dictionary", "compressed block", static_cast<std::int64_t>(block), at);
    }
    z.next_in = const_cast<Bytef*>(in.data() + pos + 2);
    z.avail_in = static_cast<uInt>(csize - 2);
    z.next_out = buf.data();
    z.avail_out = static_cast<uInt>(buf.size());
    const int ret = inflate(&z, Z_SYNC_FLUSH);
    if (ret != Z_OK && ret != Z_STREAM_END && !(ret == Z_BUF_ERROR && z.avail_out < buf.size()))
      return make_error(ErrorCode::invalid_value, std::string("corrupt deflate data (zlib: ") + (z.msg ? z.msg : "error") + ")",
                        "compressed block", static_cast<std::int64_t>(block), at);
    const std::size_t produced = buf.size() - z.avail_out;
    if (produced != usize)
      return make_error(ErrorCode::invalid_value, "block inflates to " + std::to_string(produced) + " bytes, its header says " +
                                                      std::to_string(usize),
                        "compressed block", static_cast<std::int64_t>(block), at);
    if (out.size() + produced > want)
      return make_error(ErrorCode::invalid_value, "the blocks inflate to more than the " + std::to_string(want) + " bytes the header says",
                        "compressed block", static_cast<std::int64_t>(block), at);
    out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(produced));
    pos += csize;
    ++block;
  }
  if (out.size() != want)
    return make_error(ErrorCode::truncated, "the blocks inflate to " + std::to_string(out.size()) + " bytes, the header says " +
                                                std::to_string(want),
                      "compressed body", -1, kBase + static_cast<std::int64_t>(pos));
  return out;
}

struct PendingRef {
  std::size_t mesh, slot;
  std::string name;
  std::int64_t offset;
};

class Parser {
 public:
  Parser(Source& s, Document& d) : s_(s), d_(d) {}

  Result<void> top() {
    for (;;) {
      const Tok t = s_.peek();
      if (t == Tok::end) break;
      if (t == Tok::obrace) {  // a top-level reference: nothing to instantiate
        MMDKIT_TRY(skip_reference("top level"));
        continue;
      }
      MMDKIT_TRY(object(0, -1, "top level"));
    }
    // Resolve material references by name (first Material of that name, anywhere in the file).
    std::map<std::string, std::int32_t> by_name;
    for (std::size_t i = 0; i < d_.materials.size(); ++i)
      if (!d_.materials[i].name.empty()) by_name.emplace(d_.materials[i].name, static_cast<std::int32_t>(i));
    for (const PendingRef& r : refs_) {
      auto it = by_name.find(decode(r.name));
      Mesh& m = d_.meshes[r.mesh];
      if (it != by_name.end()) {
        m.materials[r.slot] = it->second;
      } else {
        m.unresolved.push_back(r.name);
        Warning w{ErrorCode::invalid_value, "material reference '{" + decode(r.name) + "}' names no Material",
                  mesh_section(r.mesh), -1, r.offset, {}};
        d_.warnings.push_back(std::move(w));
      }
    }
    for (auto& [type, n] : skipped_) d_.skipped.emplace_back(decode(type), n);
    // World matrices (after every frame is complete: a FrameTransformMatrix may follow a Mesh):
    // the frame's transform, then its parents' (row vectors: v · M_inner · M_outer).
    for (Mesh& m : d_.meshes) {
      Mat4 w = kIdentity;
      for (std::int32_t f = m.frame; f >= 0; f = d_.frames[static_cast<std::size_t>(f)].parent)
        w = mul(d_.frames[static_cast<std::size_t>(f)].transform, w);
      m.world = w;
    }
    return {};
  }

 private:
  std::string mesh_section(std::size_t i) const {
    const Mesh& m = d_.meshes[i];
    return m.name.empty() ? "Mesh " + std::to_string(i) : "Mesh '" + m.name + "'";
  }

  std::unexpected<Error> fail(Result<void>&& r, const std::string& section) {
    Error e = r.error();
    if (e.section.empty()) e.section = section;
    return std::unexpected(std::move(e));
  }

  void note_skipped(const std::string& type, std::int64_t offset) {
    if (skipped_[type]++ == 0)
      d_.warnings.push_back(Warning{ErrorCode::unsupported, "data objects of type '" + decode(type) + "' are skipped",
                                    type, -1, offset, {}});
  }

  Result<void> skip_reference(const std::string& where) {
    const std::int64_t at = s_.offset();
    MMDKIT_TRY(s_.expect(Tok::obrace, "opening a reference"));
    if (s_.peek() == Tok::word) s_.next();
    if (s_.peek() == Tok::guid) s_.next();
    MMDKIT_TRY(s_.expect(Tok::cbrace, "closing a reference in " + where));
    note_skipped("{reference}", at);
    return {};
  }

  // Header: Type [Name] { [<uuid>]. Returns the name.
  Result<std::string> open(int depth) {
    if (depth > kMaxDepth)
      return std::unexpected(s_.error(ErrorCode::invalid_value, "data objects nested deeper than " + std::to_string(kMaxDepth)));
    std::string name;
    if (s_.peek() == Tok::word) {
      MMDKIT_TRY_ASSIGN(auto n, s_.read_word("an object name"));
      name = n;
    }
    if (s_.peek() == Tok::guid) s_.next();  // a uuid before '{' (binary writers)
    MMDKIT_TRY(s_.expect(Tok::obrace, "after the object name"));
    if (s_.peek() == Tok::guid) s_.next();
    return name;
  }

  Result<void> object(int depth, std::int32_t frame, const std::string& where) {
    const std::int64_t at = s_.offset();
    MMDKIT_TRY_ASSIGN(auto type, s_.read_word("a data object or template"));
    if (type == "template") return parse_template();
    if (iequals(type, "Frame")) return parse_frame(depth, frame);
    if (iequals(type, "Mesh")) return parse_mesh(depth, frame);
    if (iequals(type, "Material")) {
      MMDKIT_TRY(parse_material(depth, where));
      return {};
    }
    MMDKIT_TRY(open(depth));
    note_skipped(type, at);
    return s_.skip_body();
  }

  Result<void> parse_template() {
    Template t;
    MMDKIT_TRY_ASSIGN(auto name, s_.read_word("a template name"));
    t.name = decode(name);
    MMDKIT_TRY(s_.expect(Tok::obrace, "after the template name"));
    if (s_.peek() == Tok::guid) {
      s_.next();
      t.uuid = s_.text();
    }
    // Members "TYPE name;" / "array TYPE name[n];" and restrictions "[...]" / "[Type <uuid>, ...]".
    // A bracket group is the restriction when no ';' follows it before the closing brace (array
    // sizes "[n]" are followed by ';').
    std::string candidate;
    for (;;) {
      const Tok k = s_.next();
      if (k == Tok::end) return std::unexpected(s_.error(ErrorCode::truncated, "the input ends inside template '" + t.name + "'"));
      if (k == Tok::cbrace) {
        t.restriction = candidate;
        break;
      }
      if (k == Tok::obrace) return std::unexpected(s_.error(ErrorCode::invalid_value, "'{' inside template '" + t.name + "'"));
      if (k == Tok::semicolon) {
        ++t.members;
        candidate.clear();
      }
      if (k == Tok::obracket) {
        std::string r;
        int dots = 0;
        for (;;) {
          const Tok q = s_.next();
          if (q == Tok::end) return std::unexpected(s_.error(ErrorCode::truncated, "the input ends inside template '" + t.name + "'"));
          if (q == Tok::cbracket) break;
          if (q == Tok::word && s_.text() == "...") r = "open";
          else if (q == Tok::other && s_.text() == ".") ++dots;
          else if (q == Tok::word && r != "open") r += (r.empty() ? "" : ",") + s_.text();
        }
        candidate = dots == 3 ? std::string("open") : r;
      }
    }
    d_.templates.push_back(std::move(t));
    return {};
  }

  Result<void> parse_frame(int depth, std::int32_t parent) {
    const std::int64_t at = s_.offset();
    MMDKIT_TRY_ASSIGN(auto name, open(depth));
    const auto index = static_cast<std::int32_t>(d_.frames.size());
    Frame f;
    f.name = decode(name);
    f.parent = parent;
    d_.frames.push_back(std::move(f));
    const std::string section = "Frame '" + d_.frames[static_cast<std::size_t>(index)].name + "'";
    (void)at;
    for (;;) {
      const Tok t = s_.peek();
      if (t == Tok::cbrace) {
        s_.next();
        break;
      }
      if (t == Tok::obrace) {
        if (auto r = skip_reference(section); !r) return fail(std::move(r), section);
        continue;
      }
      if (t != Tok::word)
        return std::unexpected(s_.error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                        t == Tok::end ? "the input ends inside the frame" : "expected a data object or '}' in the frame", section));
      // FrameTransformMatrix is handled here; other children through object().
      const std::size_t save_frames = d_.frames.size();
      (void)save_frames;
      if (auto r = frame_child(depth, index, section); !r) return fail(std::move(r), section);
    }
    return {};
  }

  Result<void> frame_child(int depth, std::int32_t frame, const std::string& section) {
    // Peek the type without consuming: read it, then dispatch.
    const std::int64_t at = s_.offset();
    MMDKIT_TRY_ASSIGN(auto type, s_.read_word("a data object"));
    if (iequals(type, "FrameTransformMatrix")) {
      MMDKIT_TRY(open(depth + 1));
      Frame& f = d_.frames[static_cast<std::size_t>(frame)];
      MMDKIT_TRY(read_floats(f.transform, "FrameTransformMatrix element"));
      f.has_transform = true;
      return close("FrameTransformMatrix");
    }
    if (type == "template") return parse_template();
    if (iequals(type, "Frame")) return parse_frame(depth + 1, frame);
    if (iequals(type, "Mesh")) return parse_mesh(depth + 1, frame);
    if (iequals(type, "Material")) {
      MMDKIT_TRY(parse_material(depth + 1, section));
      return {};
    }
    MMDKIT_TRY(open(depth + 1));
    note_skipped(type, at);
    return s_.skip_body();
  }

  // After an object's known members: skip unknown children, then '}'.
  Result<void> close(const std::string& what) {
    for (;;) {
      const Tok t = s_.peek();
      if (t == Tok::cbrace) {
        s_.next();
        return {};
      }
      if (t == Tok::obrace) {
        MMDKIT_TRY(skip_reference(what));
        continue;
      }
      if (t == Tok::word) {
        const std::int64_t at = s_.offset();
        MMDKIT_TRY_ASSIGN(auto type, s_.read_word("a data object"));
        MMDKIT_TRY(open(1));
        note_skipped(type, at);
        MMDKIT_TRY(s_.skip_body());
        continue;
      }
      return std::unexpected(s_.error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                      t == Tok::end ? "the input ends inside " + what + " (a '}' is missing)"
                                                    : "unexpected " + std::string(t == Tok::number ? "number" : "token") +
                                                          " at the end of " + what));
    }
  }

  Result<std::uint32_t> count(std::string_view what, std::uint64_t numbers_each) {
    auto n = s_.read_uint(what);
    if (!n) return n;
    if (static_cast<std::uint64_t>(*n) * numbers_each > s_.numbers_left())
      return std::unexpected(s_.error(ErrorCode::count_too_large, std::string(what) + " " + std::to_string(*n) +
                                                                      " is more than the rest of the input can hold"));
    return n;
  }

  // out.size() floats in a row (a vector's components, a matrix's elements).
  Result<void> read_floats(std::span<float> out, std::string_view what) {
    for (float& c : out) {
      MMDKIT_TRY_ASSIGN(auto f, s_.read_float(what));
      c = f;
    }
    return {};
  }

  template <std::size_t N>
  Result<void> read_vectors(std::vector<std::array<float, N>>& out, std::uint32_t n, std::string_view what) {
    out.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      std::array<float, N> v{};
      MMDKIT_TRY(read_floats(v, what));
      out.push_back(v);
    }
    return {};
  }

  Result<void> read_vec3s(std::vector<Vec3>& out, std::uint32_t n, std::string_view what) {
    return read_vectors(out, n, what);
  }

  Result<void> read_faces(std::vector<std::uint32_t>& sizes, std::vector<std::uint32_t>& indices, std::string_view what) {
    MMDKIT_TRY_ASSIGN(auto nf, count(std::string(what) + " count", 1));
    sizes.reserve(nf);
    for (std::uint32_t f = 0; f < nf; ++f) {
      MMDKIT_TRY_ASSIGN(auto k, count("index count of face " + std::to_string(f), 1));
      sizes.push_back(k);
      for (std::uint32_t j = 0; j < k; ++j) {
        MMDKIT_TRY_ASSIGN(auto i, s_.read_uint("face index"));
        indices.push_back(i);
      }
    }
    return {};
  }

  Result<void> parse_mesh(int depth, std::int32_t frame) {
    MMDKIT_TRY_ASSIGN(auto name, open(depth));
    const std::size_t mi = d_.meshes.size();
    {
      Mesh m;
      m.name = decode(name);
      m.frame = frame;
      m.offset = s_.offset();
      d_.meshes.push_back(std::move(m));
    }
    const std::string section = mesh_section(mi);
    auto wrap = [&](Result<void> r) -> Result<void> {
      if (!r) return fail(std::move(r), section);
      return {};
    };
    {
      Mesh& m = d_.meshes[mi];
      auto nv = count("vertex count", 3);
      if (!nv) return wrap(std::unexpected(nv.error()));
      MMDKIT_TRY(wrap(read_vec3s(m.positions, *nv, "vertex position")));
      MMDKIT_TRY(wrap(read_faces(m.face_sizes, m.face_indices, "face")));
    }
    for (;;) {
      const Tok t = s_.peek();
      if (t == Tok::cbrace) {
        s_.next();
        break;
      }
      if (t == Tok::obrace) {
        MMDKIT_TRY(wrap(skip_reference(section)));
        continue;
      }
      if (t != Tok::word)
        return wrap(std::unexpected(s_.error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                             t == Tok::end ? "the input ends inside the mesh (a '}' is missing)"
                                                           : "expected a data object or '}' after the faces")));
      const std::int64_t at = s_.offset();
      auto type = s_.read_word("a data object");
      if (!type) return wrap(std::unexpected(type.error()));
      if (iequals(*type, "MeshNormals")) {
        MMDKIT_TRY(wrap(mesh_normals(mi, depth + 1)));
      } else if (iequals(*type, "MeshTextureCoords")) {
        MMDKIT_TRY(wrap(mesh_uvs(mi, depth + 1)));
      } else if (iequals(*type, "MeshVertexColors")) {
        MMDKIT_TRY(wrap(mesh_colors(mi, depth + 1)));
      } else if (iequals(*type, "MeshMaterialList")) {
        MMDKIT_TRY(wrap(mesh_materials(mi, depth + 1)));
      } else {
        auto n = open(depth + 1);
        if (!n) return wrap(std::unexpected(n.error()));
        note_skipped(*type, at);
        MMDKIT_TRY(wrap(s_.skip_body()));
      }
    }
    return {};
  }

  Result<void> mesh_normals(std::size_t mi, int depth) {
    MMDKIT_TRY(open(depth));
    Mesh& m = d_.meshes[mi];
    if (m.has_normals) {
      m.normals.clear();
      m.normal_face_sizes.clear();
      m.normal_face_indices.clear();
    }
    m.has_normals = true;
    MMDKIT_TRY_ASSIGN(auto n, count("normal count", 3));
    MMDKIT_TRY(read_vec3s(m.normals, n, "normal"));
    MMDKIT_TRY(read_faces(m.normal_face_sizes, m.normal_face_indices, "normal face"));
    return close("MeshNormals");
  }

  Result<void> mesh_uvs(std::size_t mi, int depth) {
    MMDKIT_TRY(open(depth));
    Mesh& m = d_.meshes[mi];
    m.uvs.clear();
    MMDKIT_TRY_ASSIGN(auto n, count("texture coordinate count", 2));
    MMDKIT_TRY(read_vectors(m.uvs, n, "texture coordinate"));
    return close("MeshTextureCoords");
  }

  Result<void> mesh_colors(std::size_t mi, int depth) {
    MMDKIT_TRY(open(depth));
    Mesh& m = d_.meshes[mi];
    m.vertex_colors.clear();
    MMDKIT_TRY_ASSIGN(auto n, count("vertex colour count", 5));
    m.vertex_colors.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      Mesh::VertexColor c;
      MMDKIT_TRY_ASSIGN(auto v, s_.read_uint("vertex colour index"));
      c.vertex = v;
      MMDKIT_TRY(read_floats(c.color, "vertex colour"));
      m.vertex_colors.push_back(c);
    }
    return close("MeshVertexColors");
  }

  Result<void> mesh_materials(std::size_t mi, int depth) {
    MMDKIT_TRY(open(depth));
    {
      Mesh& m = d_.meshes[mi];
      m.has_material_list = true;
      m.materials.clear();
      m.face_materials.clear();
      MMDKIT_TRY_ASSIGN(auto nm, s_.read_uint("material count"));
      m.material_count = nm;
      MMDKIT_TRY_ASSIGN(auto nf, count("face material count", 1));
      m.face_materials.reserve(nf);
      for (std::uint32_t i = 0; i < nf; ++i) {
        MMDKIT_TRY_ASSIGN(auto v, s_.read_uint("face material index"));
        m.face_materials.push_back(v);
      }
    }
    for (;;) {
      const Tok t = s_.peek();
      if (t == Tok::cbrace) {
        s_.next();
        return {};
      }
      if (t == Tok::obrace) {
        const std::int64_t at = s_.offset();
        s_.next();
        MMDKIT_TRY_ASSIGN(auto ref, s_.read_word("a material name"));
        if (s_.peek() == Tok::guid) s_.next();
        MMDKIT_TRY(s_.expect(Tok::cbrace, "closing the material reference"));
        Mesh& m = d_.meshes[mi];
        refs_.push_back(PendingRef{mi, m.materials.size(), ref, at});
        m.materials.push_back(-1);
        continue;
      }
      if (t != Tok::word)
        return std::unexpected(s_.error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                        t == Tok::end ? "the input ends inside MeshMaterialList" : "expected a Material, a reference or '}' in MeshMaterialList",
                                        "MeshMaterialList of " + mesh_section(mi)));
      const std::int64_t at = s_.offset();
      MMDKIT_TRY_ASSIGN(auto type, s_.read_word("a data object"));
      if (iequals(type, "Material")) {
        MMDKIT_TRY_ASSIGN(auto idx, parse_material(depth + 1, mesh_section(mi)));
        d_.meshes[mi].materials.push_back(idx);
      } else {
        MMDKIT_TRY(open(depth + 1));
        note_skipped(type, at);
        MMDKIT_TRY(s_.skip_body());
      }
    }
  }

  Result<std::int32_t> parse_material(int depth, const std::string& where) {
    const std::int64_t at = s_.offset();
    MMDKIT_TRY_ASSIGN(auto name, open(depth));
    Material mat;
    mat.name = decode(name);
    mat.offset = at;
    const std::string section = mat.name.empty() ? "Material in " + where : "Material '" + mat.name + "'";
    auto num = [&](float& out, std::string_view what) -> Result<void> {
      auto f = s_.read_float(what);
      if (!f) {
        Error e = f.error();
        e.section = section;
        return std::unexpected(std::move(e));
      }
      out = *f;
      return {};
    };
    for (float& c : mat.face_color) MMDKIT_TRY(num(c, "faceColor"));
    MMDKIT_TRY(num(mat.power, "power"));
    for (float& c : mat.specular) MMDKIT_TRY(num(c, "specularColor"));
    for (float& c : mat.emissive) MMDKIT_TRY(num(c, "emissiveColor"));
    for (;;) {
      const Tok t = s_.peek();
      if (t == Tok::cbrace) {
        s_.next();
        break;
      }
      if (t == Tok::obrace) {
        MMDKIT_TRY(skip_reference(section));
        continue;
      }
      if (t != Tok::word)
        return std::unexpected(s_.error(t == Tok::end ? ErrorCode::truncated : ErrorCode::invalid_value,
                                        t == Tok::end ? "the input ends inside the material" : "expected TextureFilename or '}' in the material",
                                        section));
      const std::int64_t cat = s_.offset();
      MMDKIT_TRY_ASSIGN(auto type, s_.read_word("a data object"));
      MMDKIT_TRY(open(depth + 1));
      if (iequals(type, "TextureFilename") || iequals(type, "TextureFileName")) {
        auto str = s_.read_string("TextureFilename");
        if (!str) {
          Error e = str.error();
          e.section = section;
          return std::unexpected(std::move(e));
        }
        mat.texture_filename_raw.assign(str->begin(), str->end());
        mat.texture_filename = decode(*str);
        MMDKIT_TRY(close("TextureFilename"));
      } else {
        note_skipped(type, cat);
        MMDKIT_TRY(s_.skip_body());
      }
    }
    d_.materials.push_back(std::move(mat));
    return static_cast<std::int32_t>(d_.materials.size() - 1);
  }

  Source& s_;
  Document& d_;
  std::vector<PendingRef> refs_;
  std::map<std::string, std::uint32_t> skipped_;
};

Result<Header> read_header(ByteSpan bytes) {
  if (bytes.empty()) return make_error(ErrorCode::empty_input, "empty input", "header", -1, 0);
  if (!sniff(bytes)) return make_error(ErrorCode::bad_signature, "not a DirectX .x file (does not start with \"xof \")", "header", -1, 0);
  if (bytes.size() < 16) return make_error(ErrorCode::truncated, "the input ends inside the 16-byte header", "header", -1, static_cast<std::int64_t>(bytes.size()));
  auto text = [&](std::size_t at) { return std::string(reinterpret_cast<const char*>(bytes.data() + at), 4); };
  Header h;
  const std::string version = text(4), format = text(8), floats = text(12);
  if (version != "0302" && version != "0303" && version != "0301")
    return make_error(ErrorCode::unsupported, "version '" + version + "' (read: 0301, 0302, 0303)", "header", -1, 4);
  h.major = 3;
  h.minor = version[3] - '0';
  if (format == "txt ") h.format = BodyFormat::text;
  else if (format == "bin ") h.format = BodyFormat::binary;
  else if (format == "tzip") h.format = BodyFormat::compressed_text;
  else if (format == "bzip") h.format = BodyFormat::compressed_binary;
  else return make_error(ErrorCode::unsupported, "body format '" + format + "' (read: 'txt ', 'bin ', 'tzip', 'bzip')", "header", -1, 8);
  if (floats == "0032") h.float_bits = 32;
  else if (floats == "0064") h.float_bits = 64;
  else return make_error(ErrorCode::unsupported, "float size '" + floats + "' (read: 0032, 0064)", "header", -1, 12);
  return h;
}

}  // namespace

Result<Document> read(ByteSpan bytes) {
  MMDKIT_TRY_ASSIGN(auto h, read_header(bytes));
  Document d;
  d.header = h;
  ByteSpan body = bytes.subspan(16);
  std::vector<std::uint8_t> inflated;
  const bool compressed = h.format == BodyFormat::compressed_text || h.format == BodyFormat::compressed_binary;
  if (compressed) {
    MMDKIT_TRY_ASSIGN(auto z, inflate_mszip(body));
    inflated = std::move(z);
    body = ByteSpan(inflated.data(), inflated.size());
  }
  const bool binary = h.format == BodyFormat::binary || h.format == BodyFormat::compressed_binary;
  // Offsets: in the file for uncompressed bodies, in the decompressed body (counting the header)
  // for compressed ones.
  Source src(body, binary, h.float_bits, 16);
  Parser p(src, d);
  if (auto r = p.top(); !r) {
    Error e = r.error();
    if (compressed) e.message += " (offset in the decompressed body)";
    return std::unexpected(std::move(e));
  }
  return d;
}

Result<Document> read_file(const std::filesystem::path& path) {
  MMDKIT_TRY_ASSIGN(auto bytes, mmdkit::read_file(path));
  auto d = read(bytes);
  if (!d) {
    Error e = d.error();
    e.file = path.string();
    return std::unexpected(std::move(e));
  }
  return d;
}

}  // namespace mmdkit::x

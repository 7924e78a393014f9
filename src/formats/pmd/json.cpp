// mmdkit — PMD ⇄ lossless JSON. RapidJSON stays in this file.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <cstring>
#include <string>

#include "core/json.hpp"
#include "core/json_writer.hpp"
#include "core/try.hpp"
#include "mmdkit/core/number.hpp"
#include "mmdkit/formats/pmd_json.hpp"
#include "pmd_internal.hpp"

namespace mmdkit::pmd {
namespace {

// ---------------------------------------------------------------------------------------------
// Writing

// True when writing `text` (encoded, NUL-padded) would not give the stored raw field.
template <std::size_t N>
bool raw_needed(const FixedText<N>& t, Encoding enc) {
  if (t.raw.empty()) return false;  // built in code: the writer encodes the text
  auto e = encode_text(t.text, enc);
  if (!e || e->size() > N) return true;
  std::size_t n = std::min(t.raw.size(), N);
  for (std::size_t i = 0; i < N; ++i) {
    std::uint8_t want = i < n ? t.raw[i] : 0;
    std::uint8_t got = i < e->size() ? (*e)[i] : 0;
    if (want != got) return true;
  }
  return false;
}

class W : public json::Writer {
 public:
  explicit W(Encoding enc) : enc_(enc) {}

  // "key": "text" or {"text": ..., "raw": "hex"} (json::append_name)
  template <std::size_t N>
  void text(const char* k, const FixedText<N>& t) {
    key(k);
    name(t.text, raw_needed(t, enc_) ? std::optional(ByteSpan(t.raw.data(), t.raw.size())) : std::nullopt);
  }

 private:
  Encoding enc_;
};

template <class T, class F>
void list(W& w, const char* k, const std::vector<T>& v, F&& item, bool last = false) {
  w.out += "  ";
  w.key(k);
  if (v.empty()) {
    w.out += last ? "[]\n" : "[],\n";
    return;
  }
  w.out += "[\n";
  for (std::size_t i = 0; i < v.size(); ++i) {
    w.out += "    ";
    item(v[i]);
    w.out += i + 1 < v.size() ? ",\n" : "\n";
  }
  w.out += last ? "  ]\n" : "  ],\n";
}

template <std::size_t N>
void name_obj(W& w, const FixedText<N>& t) {
  w.out.push_back('{');
  w.text("name", t);
  w.out.push_back('}');
}

}  // namespace

std::string to_json(const Model& m) {
  W w(m.encoding);
  std::string& o = w.out;
  o.reserve(m.vertices.size() * 120 + m.indices.size() * 8 + 4096);
  o += "{\"format\": \"pmd\",\n  \"version\": ";
  w.number(m.version);
  o += ",\n  \"encoding\": \"";
  o += encoding_name(m.encoding);
  o += "\",\n  ";
  w.text("name", m.name);
  o += ",\n  ";
  w.text("comment", m.comment);
  o += ",\n  \"tail\": \"";
  o += tail_name(m.tail);
  o += "\",\n";
  list(w, "vertices", m.vertices, [&](const Vertex& v) {
    o.push_back('[');
    for (float x : v.position) w.number(x), o += ", ";
    for (float x : v.normal) w.number(x), o += ", ";
    for (float x : v.uv) w.number(x), o += ", ";
    w.integer(v.bones[0]);
    o += ", ";
    w.integer(v.bones[1]);
    o += ", ";
    w.integer(v.weight);
    o += ", ";
    w.integer(v.edge_off);
    o.push_back(']');
  });
  // Face indices: 3 per line.
  o += "  \"indices\": [";
  for (std::size_t i = 0; i < m.indices.size(); ++i) {
    o += i % 3 == 0 ? (i ? ",\n    " : "\n    ") : ", ";
    w.integer(m.indices[i]);
  }
  o += m.indices.empty() ? "],\n" : "\n  ],\n";
  list(w, "materials", m.materials, [&](const Material& x) {
    o += "{\"diffuse\": ";
    w.numbers(x.diffuse);
    o += ", \"specular_power\": ";
    w.number(x.specular_power);
    o += ", \"specular\": ";
    w.numbers(x.specular);
    o += ", \"ambient\": ";
    w.numbers(x.ambient);
    o += ", \"toon_index\": ";
    w.integer(x.toon_index);
    o += ", \"edge_flag\": ";
    w.integer(x.edge_flag);
    o += ", \"index_count\": ";
    w.integer(x.index_count);
    o += ", ";
    w.text("texture", x.texture);
    o.push_back('}');
  });
  list(w, "bones", m.bones, [&](const Bone& b) {
    o.push_back('{');
    w.text("name", b.name);
    o += ", \"parent\": ";
    w.integer(b.parent);
    o += ", \"tail\": ";
    w.integer(b.tail);
    o += ", \"type\": ";
    w.integer(b.type);
    o += ", \"ik_parent\": ";
    w.integer(b.ik_parent);
    o += ", \"position\": ";
    w.numbers(b.position);
    o.push_back('}');
  });
  list(w, "ik_chains", m.ik_chains, [&](const IkChain& k) {
    o += "{\"target\": ";
    w.integer(k.target);
    o += ", \"effector\": ";
    w.integer(k.effector);
    o += ", \"iterations\": ";
    w.integer(k.iterations);
    o += ", \"unit_angle\": ";
    w.number(k.unit_angle);
    o += ", \"links\": [";
    for (std::size_t i = 0; i < k.links.size(); ++i) {
      if (i) o += ", ";
      w.integer(k.links[i]);
    }
    o += "]}";
  });
  list(w, "morphs", m.morphs, [&](const Morph& x) {
    o.push_back('{');
    w.text("name", x.name);
    o += ", \"type\": ";
    w.integer(x.type);
    o += ", \"offsets\": [";
    for (std::size_t i = 0; i < x.offsets.size(); ++i) {
      o += i ? ",\n      [" : "\n      [";
      w.integer(x.offsets[i].vertex);
      for (float f : x.offsets[i].offset) o += ", ", w.number(f);
      o.push_back(']');
    }
    o += x.offsets.empty() ? "]}" : "\n    ]}";
  });
  o += "  \"morph_display\": [";
  for (std::size_t i = 0; i < m.morph_display.size(); ++i) {
    if (i) o += ", ";
    w.integer(m.morph_display[i]);
  }
  o += "],\n";
  list(w, "bone_frames", m.bone_frames, [&](const FrameName& f) { name_obj(w, f); });
  list(w, "bone_display", m.bone_display, [&](const BoneDisplay& d) {
    o.push_back('[');
    w.integer(d.bone);
    o += ", ";
    w.integer(d.frame);
    o.push_back(']');
  });
  o += "  \"english\": ";
  if (!m.english) {
    o += "null,\n";
  } else {
    const English& e = *m.english;
    o += "{\n  ";
    w.text("name", e.name);
    o += ",\n  ";
    w.text("comment", e.comment);
    o += ",\n";
    list(w, "bone_names", e.bone_names, [&](const Name& n) { name_obj(w, n); });
    list(w, "morph_names", e.morph_names, [&](const Name& n) { name_obj(w, n); });
    list(w, "frame_names", e.frame_names, [&](const FrameName& n) { name_obj(w, n); }, true);
    o += "  },\n";
  }
  o += "  \"toon_textures\": [\n";
  for (std::size_t i = 0; i < kToonCount; ++i) {
    o += "    ";
    name_obj(w, m.toon_textures[i]);
    o += i + 1 < kToonCount ? ",\n" : "\n";
  }
  o += "  ],\n";
  list(w, "rigid_bodies", m.rigid_bodies, [&](const RigidBody& b) {
    o.push_back('{');
    w.text("name", b.name);
    o += ", \"bone\": ";
    w.integer(b.bone);
    o += ", \"group\": ";
    w.integer(b.group);
    o += ", \"collision_mask\": ";
    w.integer(b.collision_mask);
    o += ", \"shape\": ";
    w.integer(b.shape);
    o += ", \"size\": ";
    w.numbers(b.size);
    o += ", \"position\": ";
    w.numbers(b.position);
    o += ", \"rotation\": ";
    w.numbers(b.rotation);
    o += ", \"mass\": ";
    w.number(b.mass);
    o += ", \"linear_damping\": ";
    w.number(b.linear_damping);
    o += ", \"angular_damping\": ";
    w.number(b.angular_damping);
    o += ", \"restitution\": ";
    w.number(b.restitution);
    o += ", \"friction\": ";
    w.number(b.friction);
    o += ", \"mode\": ";
    w.integer(b.mode);
    o.push_back('}');
  });
  list(w, "joints", m.joints, [&](const Joint& j) {
    o.push_back('{');
    w.text("name", j.name);
    o += ", \"rigid_a\": ";
    w.integer(j.rigid_a);
    o += ", \"rigid_b\": ";
    w.integer(j.rigid_b);
    o += ", \"position\": ";
    w.numbers(j.position);
    o += ", \"rotation\": ";
    w.numbers(j.rotation);
    o += ", \"position_min\": ";
    w.numbers(j.position_min);
    o += ", \"position_max\": ";
    w.numbers(j.position_max);
    o += ", \"rotation_min\": ";
    w.numbers(j.rotation_min);
    o += ", \"rotation_max\": ";
    w.numbers(j.rotation_max);
    o += ", \"spring_position\": ";
    w.numbers(j.spring_position);
    o += ", \"spring_rotation\": ";
    w.numbers(j.spring_rotation);
    o.push_back('}');
  });
  o += "  \"trailing\": \"";
  o += to_hex(m.trailing);
  o += "\"\n}\n";
  return o;
}

// ---------------------------------------------------------------------------------------------
// Reading

namespace {

using Value = rapidjson::Value;

std::unexpected<Error> schema(const std::string& path, std::string msg) {
  return make_error(ErrorCode::json_schema, std::move(msg), path);
}


std::string at(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }
std::string dot(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }

Result<const Value*> member(const Value& obj, const char* key, const std::string& path, bool required = true) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd()) {
    if (!required) return nullptr;
    return schema(dot(path, key), "missing member \"" + std::string(key) + "\"");
  }
  return &it->value;
}

template <class T>
Result<void> get_uint(const Value& v, const std::string& path, T& out) {
  if (!v.IsString()) return schema(path, "expected an integer");
  std::string_view s(v.GetString(), v.GetStringLength());
  std::uint64_t x = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty())
    return schema(path, "expected an unsigned integer, got \"" + std::string(s) + "\"");
  if (x > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
    return schema(path, "value " + std::string(s) + " is out of range (max " +
                            std::to_string(static_cast<std::uint64_t>(std::numeric_limits<T>::max())) + ")");
  out = static_cast<T>(x);
  return {};
}

Result<void> get_float(const Value& v, const std::string& path, float& out) {
  if (!v.IsString()) return schema(path, "expected a number");
  std::string_view s(v.GetString(), v.GetStringLength());
  auto f = parse_float(s);
  if (!f) return schema(path, "expected a number, got \"" + std::string(s) + "\"");
  out = *f;
  return {};
}

template <std::size_t K>
Result<void> get_floats(const Value& v, const std::string& path, std::array<float, K>& out) {
  if (!v.IsArray() || v.Size() != K) return schema(path, "expected an array of " + std::to_string(K) + " numbers");
  for (std::size_t i = 0; i < K; ++i) MMDKIT_TRY(get_float(v[static_cast<rapidjson::SizeType>(i)], at(path, i), out[i]));
  return {};
}

template <class T>
Result<void> uint_member(const Value& obj, const char* key, const std::string& path, T& out) {
  MMDKIT_TRY_ASSIGN(auto v, member(obj, key, path));
  return get_uint(*v, dot(path, key), out);
}
Result<void> float_member(const Value& obj, const char* key, const std::string& path, float& out) {
  MMDKIT_TRY_ASSIGN(auto v, member(obj, key, path));
  return get_float(*v, dot(path, key), out);
}
template <std::size_t K>
Result<void> floats_member(const Value& obj, const char* key, const std::string& path, std::array<float, K>& out) {
  MMDKIT_TRY_ASSIGN(auto v, member(obj, key, path));
  return get_floats(*v, dot(path, key), out);
}

template <std::size_t N>
Result<void> text_member(const Value& obj, const char* key, const std::string& path, Encoding enc,
                         FixedText<N>& out) {
  if (!obj.IsObject()) return schema(path, "expected an object");
  MMDKIT_TRY_ASSIGN(auto v, member(obj, key, path));
  // The one form: a string, or {"text": ..., "raw": "hex"}; files dumped before it was the one
  // form give the raw bytes in a sibling "<key>_raw" (still read).
  const Value* text_value = v;
  const Value* raw_value = nullptr;
  std::string raw_path;
  if ((v)->IsObject()) {
    text_value = nullptr;
    for (auto it = (v)->MemberBegin(); it != (v)->MemberEnd(); ++it) {
      const std::string_view name(it->name.GetString(), it->name.GetStringLength());
      if (name == "text") text_value = &it->value;
      else if (name == "raw") raw_value = &it->value;
      else return schema(dot(path, key), "unknown member \"" + std::string(name) + "\" (expected \"text\", \"raw\")");
    }
    if (!text_value || !raw_value) return schema(dot(path, key), "expected {\"text\", \"raw\"}");
    raw_path = dot(dot(path, key), "raw");
  } else {
    const std::string raw_key = std::string(key) + "_raw";
    MMDKIT_TRY_ASSIGN(auto raw, member(obj, raw_key.c_str(), path, false));
    raw_value = raw;
    raw_path = dot(path, raw_key.c_str());
  }
  if (!text_value->IsString()) return schema(dot(path, key), "expected a string or {\"text\", \"raw\"}");
  std::string text(text_value->GetString(), text_value->GetStringLength());
  if (raw_value) {
    if (!raw_value->IsString()) return schema(raw_path, "expected a hex string");
    auto bytes = from_hex(std::string_view(raw_value->GetString(), raw_value->GetStringLength()));
    if (!bytes) return schema(raw_path, "not a hex string");
    if (bytes->size() > N)
      return schema(raw_path,
                    std::to_string(bytes->size()) + " bytes, the field holds " + std::to_string(N));
    // The raw bytes win only while the text is what the reader decodes them to; an edited text
    // wins (encoded and NUL-padded below), see docs/formats/pmd.md.
    if (decode_text(until_nul(ByteSpan(bytes->data(), bytes->size())), enc) == text) {
      out.raw = std::move(*bytes);
      out.text = std::move(text);
      return {};
    }
  }
  if (auto r = set_text(out, text, enc); !r) {
    Error e = r.error();
    e.section = dot(path, key);
    return std::unexpected(std::move(e));
  }
  return {};
}

Result<const Value*> array_member(const Value& obj, const char* key, const std::string& path) {
  auto v = member(obj, key, path);
  if (!v) return v;
  if (!(*v)->IsArray()) return schema(dot(path, key), "expected an array");
  return v;
}

// Reads the array `key` of objects into `out` with `item(value, path, element)`.
template <class T, class F>
Result<void> objects(const Value& obj, const char* key, const std::string& path, std::vector<T>& out, F&& item,
                     std::size_t max = std::numeric_limits<std::uint32_t>::max()) {
  MMDKIT_TRY_ASSIGN(auto a, array_member(obj, key, path));
  const Value& arr = *a;
  std::string p = dot(path, key);
  if (arr.Size() > max)
    return schema(p, std::to_string(arr.Size()) + " entries, the format holds at most " + std::to_string(max));
  out.resize(arr.Size());
  for (rapidjson::SizeType i = 0; i < arr.Size(); ++i) MMDKIT_TRY(item(arr[i], at(p, i), out[i]));
  return {};
}

Result<Model> parse_model(const Value& d) {
  Model m;
  const std::string root;
  if (!d.IsObject()) return schema("", "the document is not a JSON object");
  MMDKIT_TRY_ASSIGN(auto fmt, member(d, "format", root));
  if (!(fmt)->IsString() || std::string_view((fmt)->GetString()) != "pmd")
    return schema("format", "expected \"pmd\"");
  MMDKIT_TRY(float_member(d, "version", root, m.version));
  auto enc = member(d, "encoding", root, false);
  if (!enc) return std::unexpected(enc.error());
  if (*enc) {
    if (!(*enc)->IsString()) return schema("encoding", "expected a string");
    auto e = parse_encoding_name((*enc)->GetString());
    // Normally cp932 or gbk; any encoding a read can be forced to is accepted so that output round-trips.
    if (!e) return schema("encoding", "expected \"cp932\" or \"gbk\"");
    m.encoding = *e;
  }
  const Encoding E = m.encoding;
  MMDKIT_TRY(text_member(d, "name", root, E, m.name));
  MMDKIT_TRY(text_member(d, "comment", root, E, m.comment));
  auto tail = member(d, "tail", root, false);
  if (!tail) return std::unexpected(tail.error());
  if (*tail) {
    std::optional<Tail> t;
    if ((*tail)->IsString()) t = parse_tail_name((*tail)->GetString());
    if (!t) return schema("tail", "expected one of none, english, toon_textures, rigid_bodies, joints");
    m.tail = *t;
  }

  MMDKIT_TRY(objects(d, "vertices", root, m.vertices, [](const Value& v, const std::string& p, Vertex& x) -> Result<void> {
    if (!v.IsArray() || v.Size() != 12) return schema(p, "expected [px, py, pz, nx, ny, nz, u, v, bone0, bone1, weight, edge_off]");
    for (rapidjson::SizeType i = 0; i < 3; ++i) MMDKIT_TRY(get_float(v[i], at(p, i), x.position[i]));
    for (rapidjson::SizeType i = 0; i < 3; ++i) MMDKIT_TRY(get_float(v[3 + i], at(p, 3 + i), x.normal[i]));
    for (rapidjson::SizeType i = 0; i < 2; ++i) MMDKIT_TRY(get_float(v[6 + i], at(p, 6 + i), x.uv[i]));
    MMDKIT_TRY(get_uint(v[8], at(p, 8), x.bones[0]));
    MMDKIT_TRY(get_uint(v[9], at(p, 9), x.bones[1]));
    MMDKIT_TRY(get_uint(v[10], at(p, 10), x.weight));
    return get_uint(v[11], at(p, 11), x.edge_off);
  }));
  MMDKIT_TRY(objects(d, "indices", root, m.indices,
                     [](const Value& v, const std::string& p, std::uint16_t& x) { return get_uint(v, p, x); }));
  MMDKIT_TRY(objects(d, "materials", root, m.materials, [&](const Value& v, const std::string& p, Material& x) -> Result<void> {
    if (!v.IsObject()) return schema(p, "expected an object");
    MMDKIT_TRY(floats_member(v, "diffuse", p, x.diffuse));
    MMDKIT_TRY(float_member(v, "specular_power", p, x.specular_power));
    MMDKIT_TRY(floats_member(v, "specular", p, x.specular));
    MMDKIT_TRY(floats_member(v, "ambient", p, x.ambient));
    MMDKIT_TRY(uint_member(v, "toon_index", p, x.toon_index));
    MMDKIT_TRY(uint_member(v, "edge_flag", p, x.edge_flag));
    MMDKIT_TRY(uint_member(v, "index_count", p, x.index_count));
    return text_member(v, "texture", p, E, x.texture);
  }));
  MMDKIT_TRY(objects(d, "bones", root, m.bones, [&](const Value& v, const std::string& p, Bone& x) -> Result<void> {
    MMDKIT_TRY(text_member(v, "name", p, E, x.name));
    MMDKIT_TRY(uint_member(v, "parent", p, x.parent));
    MMDKIT_TRY(uint_member(v, "tail", p, x.tail));
    MMDKIT_TRY(uint_member(v, "type", p, x.type));
    MMDKIT_TRY(uint_member(v, "ik_parent", p, x.ik_parent));
    return floats_member(v, "position", p, x.position);
  }, 0xFFFF));
  MMDKIT_TRY(objects(d, "ik_chains", root, m.ik_chains, [&](const Value& v, const std::string& p, IkChain& x) -> Result<void> {
    if (!v.IsObject()) return schema(p, "expected an object");
    MMDKIT_TRY(uint_member(v, "target", p, x.target));
    MMDKIT_TRY(uint_member(v, "effector", p, x.effector));
    MMDKIT_TRY(uint_member(v, "iterations", p, x.iterations));
    MMDKIT_TRY(float_member(v, "unit_angle", p, x.unit_angle));
    return objects(v, "links", p, x.links,
                   [](const Value& l, const std::string& lp, std::uint16_t& y) { return get_uint(l, lp, y); }, 0xFF);
  }, 0xFFFF));
  MMDKIT_TRY(objects(d, "morphs", root, m.morphs, [&](const Value& v, const std::string& p, Morph& x) -> Result<void> {
    MMDKIT_TRY(text_member(v, "name", p, E, x.name));
    MMDKIT_TRY(uint_member(v, "type", p, x.type));
    return objects(v, "offsets", p, x.offsets, [](const Value& o, const std::string& op, MorphOffset& y) -> Result<void> {
      if (!o.IsArray() || o.Size() != 4) return schema(op, "expected [vertex, x, y, z]");
      MMDKIT_TRY(get_uint(o[0], at(op, 0), y.vertex));
      for (rapidjson::SizeType i = 0; i < 3; ++i) MMDKIT_TRY(get_float(o[1 + i], at(op, 1 + i), y.offset[i]));
      return {};
    });
  }, 0xFFFF));
  MMDKIT_TRY(objects(d, "morph_display", root, m.morph_display,
                     [](const Value& v, const std::string& p, std::uint16_t& x) { return get_uint(v, p, x); }, 0xFF));
  MMDKIT_TRY(objects(d, "bone_frames", root, m.bone_frames,
                     [&](const Value& v, const std::string& p, FrameName& x) { return text_member(v, "name", p, E, x); },
                     0xFF));
  MMDKIT_TRY(objects(d, "bone_display", root, m.bone_display, [](const Value& v, const std::string& p, BoneDisplay& x) -> Result<void> {
    if (!v.IsArray() || v.Size() != 2) return schema(p, "expected [bone, frame]");
    MMDKIT_TRY(get_uint(v[0], at(p, 0), x.bone));
    return get_uint(v[1], at(p, 1), x.frame);
  }));
  MMDKIT_TRY_ASSIGN(auto eng, member(d, "english", root, false));
  if (eng && !(eng)->IsNull()) {
    const Value& e = *eng;
    if (!e.IsObject()) return schema("english", "expected an object or null");
    English x;
    const std::string p = "english";
    MMDKIT_TRY(text_member(e, "name", p, E, x.name));
    MMDKIT_TRY(text_member(e, "comment", p, E, x.comment));
    MMDKIT_TRY(objects(e, "bone_names", p, x.bone_names,
                       [&](const Value& v, const std::string& q, Name& y) { return text_member(v, "name", q, E, y); }));
    MMDKIT_TRY(objects(e, "morph_names", p, x.morph_names,
                       [&](const Value& v, const std::string& q, Name& y) { return text_member(v, "name", q, E, y); }));
    MMDKIT_TRY(objects(e, "frame_names", p, x.frame_names,
                       [&](const Value& v, const std::string& q, FrameName& y) { return text_member(v, "name", q, E, y); }));
    const std::size_t morphs = m.morphs.empty() ? 0 : m.morphs.size() - 1;
    if (x.bone_names.size() != m.bones.size())
      return schema("english.bone_names", "expected " + std::to_string(m.bones.size()) + " names (one per bone)");
    if (x.morph_names.size() != morphs)
      return schema("english.morph_names", "expected " + std::to_string(morphs) + " names (one per morph but the base)");
    if (x.frame_names.size() != m.bone_frames.size())
      return schema("english.frame_names", "expected " + std::to_string(m.bone_frames.size()) + " names (one per bone frame)");
    m.english = std::move(x);
  }
  auto toon = member(d, "toon_textures", root, false);
  if (!toon) return std::unexpected(toon.error());
  if (*toon) {
    const Value& t = **toon;
    if (!t.IsArray() || t.Size() != kToonCount) return schema("toon_textures", "expected an array of 10 objects");
    for (rapidjson::SizeType i = 0; i < kToonCount; ++i)
      MMDKIT_TRY(text_member(t[i], "name", at("toon_textures", i), E, m.toon_textures[i]));
  }
  if (d.HasMember("rigid_bodies"))
    MMDKIT_TRY(objects(d, "rigid_bodies", root, m.rigid_bodies, [&](const Value& v, const std::string& p, RigidBody& x) -> Result<void> {
      MMDKIT_TRY(text_member(v, "name", p, E, x.name));
      MMDKIT_TRY(uint_member(v, "bone", p, x.bone));
      MMDKIT_TRY(uint_member(v, "group", p, x.group));
      MMDKIT_TRY(uint_member(v, "collision_mask", p, x.collision_mask));
      MMDKIT_TRY(uint_member(v, "shape", p, x.shape));
      MMDKIT_TRY(floats_member(v, "size", p, x.size));
      MMDKIT_TRY(floats_member(v, "position", p, x.position));
      MMDKIT_TRY(floats_member(v, "rotation", p, x.rotation));
      MMDKIT_TRY(float_member(v, "mass", p, x.mass));
      MMDKIT_TRY(float_member(v, "linear_damping", p, x.linear_damping));
      MMDKIT_TRY(float_member(v, "angular_damping", p, x.angular_damping));
      MMDKIT_TRY(float_member(v, "restitution", p, x.restitution));
      MMDKIT_TRY(float_member(v, "friction", p, x.friction));
      return uint_member(v, "mode", p, x.mode);
    }));
  if (d.HasMember("joints"))
    MMDKIT_TRY(objects(d, "joints", root, m.joints, [&](const Value& v, const std::string& p, Joint& x) -> Result<void> {
      MMDKIT_TRY(text_member(v, "name", p, E, x.name));
      MMDKIT_TRY(uint_member(v, "rigid_a", p, x.rigid_a));
      MMDKIT_TRY(uint_member(v, "rigid_b", p, x.rigid_b));
      MMDKIT_TRY(floats_member(v, "position", p, x.position));
      MMDKIT_TRY(floats_member(v, "rotation", p, x.rotation));
      MMDKIT_TRY(floats_member(v, "position_min", p, x.position_min));
      MMDKIT_TRY(floats_member(v, "position_max", p, x.position_max));
      MMDKIT_TRY(floats_member(v, "rotation_min", p, x.rotation_min));
      MMDKIT_TRY(floats_member(v, "rotation_max", p, x.rotation_max));
      MMDKIT_TRY(floats_member(v, "spring_position", p, x.spring_position));
      return floats_member(v, "spring_rotation", p, x.spring_rotation);
    }));
  auto trailing = member(d, "trailing", root, false);
  if (!trailing) return std::unexpected(trailing.error());
  if (*trailing) {
    if (!(*trailing)->IsString()) return schema("trailing", "expected a hex string");
    auto b = from_hex(std::string_view((*trailing)->GetString(), (*trailing)->GetStringLength()));
    if (!b) return schema("trailing", "not a hex string");
    m.trailing = std::move(*b);
  }
  return m;
}

}  // namespace

Result<Model> from_json(std::string_view text) {
  rapidjson::Document d;
  d.Parse<rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (d.HasParseError())
    return json::syntax_error(text, d.GetErrorOffset(), rapidjson::GetParseError_En(d.GetParseError()));
  return parse_model(d);
}

}  // namespace mmdkit::pmd

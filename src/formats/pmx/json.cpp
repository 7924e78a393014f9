// Lossless PMX <-> JSON. RapidJSON reads numbers as text (kParseNumbersAsStringsFlag) so floats
// go through mmdkit::parse_float directly as binary32, never through double.
#include "mmdkit/formats/pmx_json.hpp"

#include <cmath>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <charconv>
#include <cstdio>
#include <optional>

#include "core/json.hpp"
#include "core/json_writer.hpp"
#include "formats/pmx/common.hpp"
#include "mmdkit/core/number.hpp"

namespace mmdkit::pmx {
namespace {

// ---- Writing ----------------------------------------------------------------------------------

class Out : public json::Writer {
 public:
  explicit Out(Encoding enc) : enc_(enc) {}

  void str(std::string_view x) { string(x); }
  void text(const Text& t) {
    bool stored = false;  // the raw bytes are needed: encoding the text would not give them
    if (!t.raw.empty()) {
      auto e = detail::encode(t.text, enc_);
      stored = !e || *e != t.raw;
    }
    name(t.text, stored ? std::optional(ByteSpan(t.raw.data(), t.raw.size())) : std::nullopt);
  }
  void key(std::string_view k, bool first = false) {
    if (!first) out += ", ";
    json::Writer::key(k);
  }
  void names(const Text& a, const Text& b) {
    key("name", true);
    text(a);
    key("name_en");
    text(b);
  }

 private:
  Encoding enc_;
};

std::string_view index_key(int i) {
  static constexpr std::string_view k[6] = {"vertex", "texture", "material", "bone", "morph", "rigid_body"};
  return k[i];
}

void write_vertex(Out& o, const Model& m, std::size_t i) {
  const Vertex& v = m.vertices[i];
  o.raw("{\"position\": ");
  o.numbers(v.position);
  o.raw(", \"normal\": ");
  o.numbers(v.normal);
  o.raw(", \"uv\": ");
  o.numbers(v.uv);
  for (std::size_t k = 0; k < m.header.additional_uv_count; ++k) {
    o.raw(k == 0 ? ", \"additional_uvs\": [" : ", ");
    o.numbers(m.additional_uv(i, k));
    if (k + 1 == m.header.additional_uv_count) o.raw("]");
  }
  o.raw(", \"deform\": \"");
  o.raw(deform_name(v.deform));
  o.raw("\", \"bones\": [");
  int nb = v.deform == DeformType::bdef1 ? 1 : (v.deform == DeformType::bdef4 || v.deform == DeformType::qdef) ? 4 : 2;
  for (int k = 0; k < nb; ++k) {
    if (k) o.raw(", ");
    o.integer(v.bones[static_cast<std::size_t>(k)]);
  }
  o.raw("]");
  if (v.deform != DeformType::bdef1) {
    o.raw(", \"weights\": [");
    int nw = nb == 4 ? 4 : 1;
    for (int k = 0; k < nw; ++k) {
      if (k) o.raw(", ");
      o.number(v.weights[static_cast<std::size_t>(k)]);
    }
    o.raw("]");
  }
  if (v.deform == DeformType::sdef && v.sdef < m.sdef_params.size()) {
    const SdefParams& s = m.sdef_params[v.sdef];
    o.raw(", \"sdef_c\": ");
    o.numbers(s.c);
    o.raw(", \"sdef_r0\": ");
    o.numbers(s.r0);
    o.raw(", \"sdef_r1\": ");
    o.numbers(s.r1);
  }
  o.raw(", \"edge_scale\": ");
  o.number(v.edge_scale);
  o.raw("}");
}

void write_material(Out& o, const Material& m) {
  o.raw("{");
  o.names(m.name, m.name_en);
  o.key("diffuse"), o.numbers(m.diffuse);
  o.key("specular"), o.numbers(m.specular);
  o.key("specular_power"), o.number(m.specular_power);
  o.key("ambient"), o.numbers(m.ambient);
  o.key("flags"), o.integer(m.flags);
  o.key("edge_color"), o.numbers(m.edge_color);
  o.key("edge_size"), o.number(m.edge_size);
  o.key("texture"), o.integer(m.texture);
  o.key("sphere_texture"), o.integer(m.sphere_texture);
  o.key("sphere_mode"), o.integer(m.sphere_mode);
  o.key("shared_toon"), o.integer(m.shared_toon);
  o.key("toon"), o.integer(m.toon);
  o.key("memo"), o.text(m.memo);
  o.key("face_index_count"), o.integer(m.face_index_count);
  o.raw("}");
}

void write_bone(Out& o, const Bone& b) {
  o.raw("{");
  o.names(b.name, b.name_en);
  o.key("position"), o.numbers(b.position);
  o.key("parent"), o.integer(b.parent);
  o.key("deform_layer"), o.integer(b.deform_layer);
  o.key("flags"), o.integer(b.flags);
  if (b.has(kTailIsBone)) o.key("tail_bone"), o.integer(b.tail_bone);
  else o.key("tail_offset"), o.numbers(b.tail_offset);
  if (b.flags & (kAppendRotation | kAppendTranslation)) {
    o.key("append_parent"), o.integer(b.append_parent);
    o.key("append_ratio"), o.number(b.append_ratio);
  }
  if (b.has(kFixedAxis)) o.key("fixed_axis"), o.numbers(b.fixed_axis);
  if (b.has(kLocalAxes)) {
    o.key("local_x"), o.numbers(b.local_x);
    o.key("local_z"), o.numbers(b.local_z);
  }
  if (b.has(kExternalParent)) o.key("external_parent_key"), o.integer(b.external_parent_key);
  if (b.has(kIk)) {
    o.key("ik_target"), o.integer(b.ik_target);
    o.key("ik_iterations"), o.integer(b.ik_iterations);
    o.key("ik_limit_angle"), o.number(b.ik_limit_angle);
    o.key("ik_links"), o.raw("[");
    for (std::size_t k = 0; k < b.ik_links.size(); ++k) {
      const IkLink& l = b.ik_links[k];
      if (k) o.raw(", ");
      o.raw("{\"bone\": "), o.integer(l.bone);
      if (l.has_limits) {
        o.raw(", \"lower\": "), o.numbers(l.lower);
        o.raw(", \"upper\": "), o.numbers(l.upper);
      }
      o.raw("}");
    }
    o.raw("]");
  }
  o.raw("}");
}

void write_morph(Out& o, const Morph& m) {
  o.raw("{");
  o.names(m.name, m.name_en);
  o.key("panel"), o.integer(m.panel);
  o.key("type"), o.raw("\""), o.raw(morph_type_name(m.type)), o.raw("\"");
  o.key("offsets"), o.raw("[");
  bool first = true;
  auto sep = [&] {
    if (!first) o.raw(", ");
    first = false;
  };
  switch (m.type) {
    case MorphType::group:
    case MorphType::flip:
      for (const auto& x : m.type == MorphType::group ? m.group_offsets : m.flip_offsets) {
        sep();
        o.raw("{\"morph\": "), o.integer(x.morph), o.raw(", \"weight\": "), o.number(x.weight), o.raw("}");
      }
      break;
    case MorphType::vertex:
      for (const auto& x : m.vertex_offsets) {
        sep();
        o.raw("{\"vertex\": "), o.integer(x.vertex), o.raw(", \"offset\": "), o.numbers(x.offset), o.raw("}");
      }
      break;
    case MorphType::bone:
      for (const auto& x : m.bone_offsets) {
        sep();
        o.raw("{\"bone\": "), o.integer(x.bone), o.raw(", \"translation\": "), o.numbers(x.translation);
        o.raw(", \"rotation\": "), o.numbers(x.rotation), o.raw("}");
      }
      break;
    case MorphType::material:
      for (const auto& x : m.material_offsets) {
        sep();
        o.raw("{\"material\": "), o.integer(x.material), o.raw(", \"operation\": "), o.integer(x.operation);
        o.raw(", \"diffuse\": "), o.numbers(x.diffuse), o.raw(", \"specular\": "), o.numbers(x.specular);
        o.raw(", \"specular_power\": "), o.number(x.specular_power), o.raw(", \"ambient\": "), o.numbers(x.ambient);
        o.raw(", \"edge_color\": "), o.numbers(x.edge_color), o.raw(", \"edge_size\": "), o.number(x.edge_size);
        o.raw(", \"texture_tint\": "), o.numbers(x.texture_tint), o.raw(", \"sphere_tint\": "), o.numbers(x.sphere_tint);
        o.raw(", \"toon_tint\": "), o.numbers(x.toon_tint), o.raw("}");
      }
      break;
    case MorphType::impulse:
      for (const auto& x : m.impulse_offsets) {
        sep();
        o.raw("{\"rigid_body\": "), o.integer(x.rigid_body), o.raw(", \"local\": "), o.integer(x.local);
        o.raw(", \"velocity\": "), o.numbers(x.velocity), o.raw(", \"torque\": "), o.numbers(x.torque), o.raw("}");
      }
      break;
    default:
      for (const auto& x : m.uv_offsets) {
        sep();
        o.raw("{\"vertex\": "), o.integer(x.vertex), o.raw(", \"offset\": "), o.numbers(x.offset), o.raw("}");
      }
      break;
  }
  o.raw("]}");
}

void write_frame(Out& o, const DisplayFrame& f) {
  o.raw("{");
  o.names(f.name, f.name_en);
  o.key("special"), o.integer(f.special);
  o.key("elements"), o.raw("[");
  for (std::size_t k = 0; k < f.elements.size(); ++k) {
    if (k) o.raw(", ");
    o.raw(f.elements[k].kind == 0 ? "{\"bone\": " : "{\"morph\": ");
    o.integer(f.elements[k].index);
    o.raw("}");
  }
  o.raw("]}");
}

void write_body(Out& o, const RigidBody& b) {
  o.raw("{");
  o.names(b.name, b.name_en);
  o.key("bone"), o.integer(b.bone);
  o.key("group"), o.integer(b.group);
  o.key("non_collision_mask"), o.integer(b.collision_mask);
  o.key("shape"), o.integer(b.shape);
  o.key("size"), o.numbers(b.size);
  o.key("position"), o.numbers(b.position);
  o.key("rotation"), o.numbers(b.rotation);
  o.key("mass"), o.number(b.mass);
  o.key("linear_damping"), o.number(b.linear_damping);
  o.key("angular_damping"), o.number(b.angular_damping);
  o.key("restitution"), o.number(b.restitution);
  o.key("friction"), o.number(b.friction);
  o.key("mode"), o.integer(b.mode);
  o.raw("}");
}

void write_joint(Out& o, const Joint& j) {
  o.raw("{");
  o.names(j.name, j.name_en);
  o.key("type"), o.integer(j.type);
  o.key("rigid_body_a"), o.integer(j.rigid_body_a);
  o.key("rigid_body_b"), o.integer(j.rigid_body_b);
  o.key("position"), o.numbers(j.position);
  o.key("rotation"), o.numbers(j.rotation);
  o.key("linear_lower"), o.numbers(j.linear_lower);
  o.key("linear_upper"), o.numbers(j.linear_upper);
  o.key("angular_lower"), o.numbers(j.angular_lower);
  o.key("angular_upper"), o.numbers(j.angular_upper);
  o.key("linear_spring"), o.numbers(j.linear_spring);
  o.key("angular_spring"), o.numbers(j.angular_spring);
  o.raw("}");
}

void write_soft(Out& o, const SoftBody& s) {
  o.raw("{");
  o.names(s.name, s.name_en);
  o.key("shape"), o.integer(s.shape);
  o.key("material"), o.integer(s.material);
  o.key("group"), o.integer(s.group);
  o.key("non_collision_mask"), o.integer(s.collision_mask);
  o.key("flags"), o.integer(s.flags);
  o.key("b_link_distance"), o.integer(s.b_link_distance);
  o.key("cluster_count"), o.integer(s.cluster_count);
  o.key("total_mass"), o.number(s.total_mass);
  o.key("collision_margin"), o.number(s.collision_margin);
  o.key("aero_model"), o.integer(s.aero_model);
  o.key("config"), o.numbers(s.config);
  o.key("cluster"), o.numbers(s.cluster);
  o.key("iterations"), o.raw("[");
  for (std::size_t k = 0; k < 4; ++k) {
    if (k) o.raw(", ");
    o.integer(s.iterations[k]);
  }
  o.raw("]");
  o.key("material_params"), o.numbers(s.material_params);
  o.key("anchors"), o.raw("[");
  for (std::size_t k = 0; k < s.anchors.size(); ++k) {
    if (k) o.raw(", ");
    o.raw("{\"rigid_body\": "), o.integer(s.anchors[k].rigid_body), o.raw(", \"vertex\": "), o.integer(s.anchors[k].vertex);
    o.raw(", \"near_mode\": "), o.integer(s.anchors[k].near_mode), o.raw("}");
  }
  o.raw("]");
  o.key("pinned_vertices"), o.raw("[");
  for (std::size_t k = 0; k < s.pinned_vertices.size(); ++k) {
    if (k) o.raw(", ");
    o.integer(s.pinned_vertices[k]);
  }
  o.raw("]}");
}

template <class T, class F>
void write_list(Out& o, std::string_view key, const std::vector<T>& items, F each) {
  o.raw(",\n  \"");
  o.raw(key);
  o.raw("\": [");
  for (std::size_t i = 0; i < items.size(); ++i) {
    o.raw(i ? ",\n    " : "\n    ");
    each(i);
  }
  o.raw(items.empty() ? "]" : "\n  ]");
}

// ---- Reading ----------------------------------------------------------------------------------

using Value = rapidjson::Value;

// Where a value is, turned into a path string only on error: section[index].key[sub].
struct Loc {
  std::string_view section;
  std::int64_t index = -1;
  std::string_view key = {};
  std::int64_t sub = -1;
  std::string str() const {
    std::string s(section);
    if (index >= 0) s += "[" + std::to_string(index) + "]";
    if (!key.empty()) s += (s.empty() ? "" : ".") + std::string(key);
    if (sub >= 0) s += "[" + std::to_string(sub) + "]";
    return s;
  }
  Loc at(std::string_view k) const { return Loc{section, index, k, -1}; }
};

class In {
 public:
  std::optional<Error> err;
  Encoding enc = Encoding::utf16le;

  bool fail(const Loc& l, std::string msg) {
    if (!err) err = Error{ErrorCode::json_schema, std::move(msg), l.str(), l.index, -1, {}};
    return false;
  }
  static const Value* get(const Value& obj, std::string_view key) {
    auto it = obj.FindMember(Value(rapidjson::StringRef(key.data(), key.size())));
    return it == obj.MemberEnd() ? nullptr : &it->value;
  }
  bool num_f(const Value& v, float& out, const Loc& l) {
    if (v.IsString()) {
      if (auto x = parse_float(std::string_view(v.GetString(), v.GetStringLength()))) {
        out = *x;
        return true;
      }
    }
    return fail(l, "expected a number");
  }
  template <class T>
  bool num_i(const Value& v, T& out, const Loc& l, std::int64_t lo, std::int64_t hi) {
    if (v.IsString()) {
      std::int64_t x = 0;
      const char* b = v.GetString();
      const char* e = b + v.GetStringLength();
      auto [p, ec] = std::from_chars(b, e, x);
      if (ec == std::errc() && p == e) {
        if (x < lo || x > hi)
          return fail(l, "value " + std::to_string(x) + " outside " + std::to_string(lo) + ".." + std::to_string(hi));
        out = static_cast<T>(x);
        return true;
      }
    }
    return fail(l, "expected an integer");
  }
  bool f(const Value& obj, std::string_view key, float& out, const Loc& l, bool required = false) {
    const Value* v = get(obj, key);
    if (!v) return !required || fail(l.at(key), "missing");
    return num_f(*v, out, l.at(key));
  }
  template <class T>
  bool i(const Value& obj, std::string_view key, T& out, const Loc& l, bool required = false) {
    const Value* v = get(obj, key);
    if (!v) return !required || fail(l.at(key), "missing");
    return num_i(*v, out, l.at(key), static_cast<std::int64_t>(std::numeric_limits<T>::min()),
                 static_cast<std::int64_t>(std::numeric_limits<T>::max()));
  }
  template <std::size_t N>
  bool vec(const Value& obj, std::string_view key, std::array<float, N>& out, const Loc& l, bool required = false) {
    const Value* v = get(obj, key);
    if (!v) return !required || fail(l.at(key), "missing");
    return vec_value(*v, out, l.at(key));
  }
  template <std::size_t N>
  bool vec_value(const Value& v, std::array<float, N>& out, const Loc& l) {
    if (!v.IsArray() || v.Size() != N) return fail(l, "expected an array of " + std::to_string(N) + " numbers");
    for (rapidjson::SizeType k = 0; k < N; ++k)
      if (!num_f(v[k], out[k], Loc{l.section, l.index, l.key, static_cast<std::int64_t>(k)})) return false;
    return true;
  }
  bool text_value(const Value& v, Text& out, const Loc& l) {
    if (v.IsString()) {
      out.text.assign(v.GetString(), v.GetStringLength());
      auto e = detail::encode(out.text, enc);
      if (!e) {
        err = e.error();
        err->section = l.str();
        return false;
      }
      out.raw = std::move(*e);
      return true;
    }
    if (v.IsObject()) {
      const Value* t = get(v, "text");
      const Value* r = get(v, "raw");
      if (!r || !r->IsString()) return fail(l, "text object needs \"raw\" (hex)");
      auto bytes = from_hex(std::string_view(r->GetString(), r->GetStringLength()));
      if (!bytes) return fail(l.at("raw"), "invalid hex");
      out.raw = std::move(*bytes);
      out.text = decode(out.raw, enc);
      // An edited "text" (not what the reader decodes "raw" to) wins: it is encoded like a plain
      // string, see docs/formats/pmx.md.
      if (t && t->IsString() && std::string_view(t->GetString(), t->GetStringLength()) != out.text)
        return text_value(*t, out, l.at("text"));
      return true;
    }
    return fail(l, "expected a string or {\"text\", \"raw\"}");
  }
  bool text(const Value& obj, std::string_view key, Text& out, const Loc& l) {
    const Value* v = get(obj, key);
    if (!v) return true;
    return text_value(*v, out, l.at(key));
  }
  bool names(const Value& obj, Text& a, Text& b, const Loc& l) {
    return text(obj, "name", a, l) && text(obj, "name_en", b, l);
  }
  const Value* array(const Value& obj, std::string_view key, const Loc& l) {
    const Value* v = get(obj, key);
    if (!v) return nullptr;
    if (!v->IsArray()) {
      fail(l.at(key), "expected an array");
      return nullptr;
    }
    return v;
  }
  bool object(const Value& v, const Loc& l) { return v.IsObject() || fail(l, "expected an object"); }
};

bool read_vertex(In& in, const Value& v, Model& m, std::size_t idx) {
  Loc l{"vertices", static_cast<std::int64_t>(idx)};
  if (!in.object(v, l)) return false;
  Vertex& x = m.vertices[idx];
  if (!in.vec(v, "position", x.position, l, true) || !in.vec(v, "normal", x.normal, l) || !in.vec(v, "uv", x.uv, l))
    return false;
  const std::size_t auv = m.header.additional_uv_count;
  if (auv) {
    const Value* a = in.array(v, "additional_uvs", l);
    if (in.err) return false;
    if (!a || a->Size() != auv)
      return in.fail(l.at("additional_uvs"), "expected " + std::to_string(auv) + " additional UVs");
    for (rapidjson::SizeType k = 0; k < auv; ++k)
      if (!in.vec_value((*a)[k], m.additional_uvs[idx * auv + k], Loc{"vertices", l.index, "additional_uvs", k}))
        return false;
  }
  const Value* d = In::get(v, "deform");
  if (!d || !d->IsString()) return in.fail(l.at("deform"), "missing deform type name");
  std::string_view dn(d->GetString(), d->GetStringLength());
  int t = -1;
  for (int k = 0; k < 5; ++k)
    if (deform_name(static_cast<DeformType>(k)) == dn) t = k;
  if (t < 0) return in.fail(l.at("deform"), "unknown deform type '" + std::string(dn) + "' (BDEF1, BDEF2, BDEF4, SDEF, QDEF)");
  x.deform = static_cast<DeformType>(t);
  const std::size_t nb = t == 0 ? 1 : (t == 2 || t == 4) ? 4 : 2;
  const Value* b = in.array(v, "bones", l);
  if (in.err) return false;
  if (!b || b->Size() != nb) return in.fail(l.at("bones"), "expected " + std::to_string(nb) + " bone indices");
  for (rapidjson::SizeType k = 0; k < nb; ++k)
    if (!in.num_i((*b)[k], x.bones[k], Loc{"vertices", l.index, "bones", k}, INT32_MIN, INT32_MAX)) return false;
  if (t != 0) {
    const std::size_t nw = nb == 4 ? 4 : 1;
    const Value* w = in.array(v, "weights", l);
    if (in.err) return false;
    if (!w || w->Size() != nw) return in.fail(l.at("weights"), "expected " + std::to_string(nw) + " weights");
    for (rapidjson::SizeType k = 0; k < nw; ++k)
      if (!in.num_f((*w)[k], x.weights[k], Loc{"vertices", l.index, "weights", k})) return false;
  }
  if (x.deform == DeformType::sdef) {
    SdefParams s;
    if (!in.vec(v, "sdef_c", s.c, l, true) || !in.vec(v, "sdef_r0", s.r0, l, true) ||
        !in.vec(v, "sdef_r1", s.r1, l, true))
      return false;
    x.sdef = static_cast<std::uint32_t>(m.sdef_params.size());
    m.sdef_params.push_back(s);
  }
  return in.f(v, "edge_scale", x.edge_scale, l);
}

bool read_material(In& in, const Value& v, Material& x, const Loc& l) {
  return in.object(v, l) && in.names(v, x.name, x.name_en, l) && in.vec(v, "diffuse", x.diffuse, l) &&
         in.vec(v, "specular", x.specular, l) && in.f(v, "specular_power", x.specular_power, l) &&
         in.vec(v, "ambient", x.ambient, l) && in.i(v, "flags", x.flags, l) && in.vec(v, "edge_color", x.edge_color, l) &&
         in.f(v, "edge_size", x.edge_size, l) && in.i(v, "texture", x.texture, l) &&
         in.i(v, "sphere_texture", x.sphere_texture, l) && in.i(v, "sphere_mode", x.sphere_mode, l) &&
         in.i(v, "shared_toon", x.shared_toon, l) && in.i(v, "toon", x.toon, l) && in.text(v, "memo", x.memo, l) &&
         in.i(v, "face_index_count", x.face_index_count, l);
}

bool read_bone(In& in, const Value& v, Bone& x, const Loc& l) {
  if (!(in.object(v, l) && in.names(v, x.name, x.name_en, l) && in.vec(v, "position", x.position, l) &&
        in.i(v, "parent", x.parent, l) && in.i(v, "deform_layer", x.deform_layer, l) && in.i(v, "flags", x.flags, l) &&
        in.i(v, "tail_bone", x.tail_bone, l) && in.vec(v, "tail_offset", x.tail_offset, l) &&
        in.i(v, "append_parent", x.append_parent, l) && in.f(v, "append_ratio", x.append_ratio, l) &&
        in.vec(v, "fixed_axis", x.fixed_axis, l) && in.vec(v, "local_x", x.local_x, l) &&
        in.vec(v, "local_z", x.local_z, l) && in.i(v, "external_parent_key", x.external_parent_key, l) &&
        in.i(v, "ik_target", x.ik_target, l) && in.i(v, "ik_iterations", x.ik_iterations, l) &&
        in.f(v, "ik_limit_angle", x.ik_limit_angle, l)))
    return false;
  const Value* links = in.array(v, "ik_links", l);
  if (in.err) return false;
  if (links) {
    x.ik_links.resize(links->Size());
    for (rapidjson::SizeType k = 0; k < links->Size(); ++k) {
      const Value& lv = (*links)[k];
      Loc ll{"bones", l.index, "ik_links", k};
      IkLink& lk = x.ik_links[k];
      if (!in.object(lv, ll) || !in.i(lv, "bone", lk.bone, ll, true)) return false;
      bool lo = In::get(lv, "lower") != nullptr, up = In::get(lv, "upper") != nullptr;
      if (lo != up) return in.fail(ll, "IK link limits need both \"lower\" and \"upper\"");
      lk.has_limits = lo ? 1 : 0;
      if (lo && (!in.vec(lv, "lower", lk.lower, ll) || !in.vec(lv, "upper", lk.upper, ll))) return false;
    }
  }
  return true;
}

bool read_morph(In& in, const Value& v, Morph& x, const Loc& l) {
  if (!in.object(v, l) || !in.names(v, x.name, x.name_en, l) || !in.i(v, "panel", x.panel, l)) return false;
  const Value* t = In::get(v, "type");
  if (!t || !t->IsString()) return in.fail(l.at("type"), "missing morph type name");
  std::string_view tn(t->GetString(), t->GetStringLength());
  int type = -1;
  for (int k = 0; k < kMorphTypeCount; ++k)
    if (morph_type_name(static_cast<MorphType>(k)) == tn) type = k;
  if (type < 0) return in.fail(l.at("type"), "unknown morph type '" + std::string(tn) + "'");
  x.type = static_cast<MorphType>(type);
  const Value* offs = in.array(v, "offsets", l);
  if (in.err) return false;
  if (!offs) return true;
  const auto n = offs->Size();
  for (rapidjson::SizeType k = 0; k < n; ++k) {
    const Value& o = (*offs)[k];
    Loc ol{"morphs", l.index, "offsets", k};
    if (!in.object(o, ol)) return false;
    bool ok = true;
    switch (x.type) {
      case MorphType::group:
      case MorphType::flip: {
        GroupOffset g;
        ok = in.i(o, "morph", g.morph, ol, true) && in.f(o, "weight", g.weight, ol);
        (x.type == MorphType::group ? x.group_offsets : x.flip_offsets).push_back(g);
        break;
      }
      case MorphType::vertex: {
        VertexOffset g;
        ok = in.i(o, "vertex", g.vertex, ol, true) && in.vec(o, "offset", g.offset, ol);
        x.vertex_offsets.push_back(g);
        break;
      }
      case MorphType::bone: {
        BoneOffset g;
        ok = in.i(o, "bone", g.bone, ol, true) && in.vec(o, "translation", g.translation, ol) &&
             in.vec(o, "rotation", g.rotation, ol);
        x.bone_offsets.push_back(g);
        break;
      }
      case MorphType::material: {
        MaterialOffset g;
        ok = in.i(o, "material", g.material, ol, true) && in.i(o, "operation", g.operation, ol) &&
             in.vec(o, "diffuse", g.diffuse, ol) && in.vec(o, "specular", g.specular, ol) &&
             in.f(o, "specular_power", g.specular_power, ol) && in.vec(o, "ambient", g.ambient, ol) &&
             in.vec(o, "edge_color", g.edge_color, ol) && in.f(o, "edge_size", g.edge_size, ol) &&
             in.vec(o, "texture_tint", g.texture_tint, ol) && in.vec(o, "sphere_tint", g.sphere_tint, ol) &&
             in.vec(o, "toon_tint", g.toon_tint, ol);
        x.material_offsets.push_back(g);
        break;
      }
      case MorphType::impulse: {
        ImpulseOffset g;
        ok = in.i(o, "rigid_body", g.rigid_body, ol, true) && in.i(o, "local", g.local, ol) &&
             in.vec(o, "velocity", g.velocity, ol) && in.vec(o, "torque", g.torque, ol);
        x.impulse_offsets.push_back(g);
        break;
      }
      default: {
        UvOffset g;
        ok = in.i(o, "vertex", g.vertex, ol, true) && in.vec(o, "offset", g.offset, ol);
        x.uv_offsets.push_back(g);
        break;
      }
    }
    if (!ok) return false;
  }
  return true;
}

bool read_frame(In& in, const Value& v, DisplayFrame& x, const Loc& l) {
  if (!in.object(v, l) || !in.names(v, x.name, x.name_en, l) || !in.i(v, "special", x.special, l)) return false;
  const Value* els = in.array(v, "elements", l);
  if (in.err) return false;
  if (!els) return true;
  x.elements.resize(els->Size());
  for (rapidjson::SizeType k = 0; k < els->Size(); ++k) {
    const Value& e = (*els)[k];
    Loc el{"display_frames", l.index, "elements", k};
    if (!in.object(e, el)) return false;
    if (In::get(e, "bone")) {
      x.elements[k].kind = 0;
      if (!in.i(e, "bone", x.elements[k].index, el)) return false;
    } else if (In::get(e, "morph")) {
      x.elements[k].kind = 1;
      if (!in.i(e, "morph", x.elements[k].index, el)) return false;
    } else {
      return in.fail(el, "element needs \"bone\" or \"morph\"");
    }
  }
  return true;
}

bool read_body(In& in, const Value& v, RigidBody& x, const Loc& l) {
  return in.object(v, l) && in.names(v, x.name, x.name_en, l) && in.i(v, "bone", x.bone, l) &&
         in.i(v, "group", x.group, l) && in.i(v, "non_collision_mask", x.collision_mask, l) &&
         in.i(v, "shape", x.shape, l) && in.vec(v, "size", x.size, l) && in.vec(v, "position", x.position, l) &&
         in.vec(v, "rotation", x.rotation, l) && in.f(v, "mass", x.mass, l) &&
         in.f(v, "linear_damping", x.linear_damping, l) && in.f(v, "angular_damping", x.angular_damping, l) &&
         in.f(v, "restitution", x.restitution, l) && in.f(v, "friction", x.friction, l) && in.i(v, "mode", x.mode, l);
}

bool read_joint(In& in, const Value& v, Joint& x, const Loc& l) {
  return in.object(v, l) && in.names(v, x.name, x.name_en, l) && in.i(v, "type", x.type, l) &&
         in.i(v, "rigid_body_a", x.rigid_body_a, l) && in.i(v, "rigid_body_b", x.rigid_body_b, l) &&
         in.vec(v, "position", x.position, l) && in.vec(v, "rotation", x.rotation, l) &&
         in.vec(v, "linear_lower", x.linear_lower, l) && in.vec(v, "linear_upper", x.linear_upper, l) &&
         in.vec(v, "angular_lower", x.angular_lower, l) && in.vec(v, "angular_upper", x.angular_upper, l) &&
         in.vec(v, "linear_spring", x.linear_spring, l) && in.vec(v, "angular_spring", x.angular_spring, l);
}

bool read_soft(In& in, const Value& v, SoftBody& x, const Loc& l) {
  if (!(in.object(v, l) && in.names(v, x.name, x.name_en, l) && in.i(v, "shape", x.shape, l) &&
        in.i(v, "material", x.material, l) && in.i(v, "group", x.group, l) &&
        in.i(v, "non_collision_mask", x.collision_mask, l) && in.i(v, "flags", x.flags, l) &&
        in.i(v, "b_link_distance", x.b_link_distance, l) && in.i(v, "cluster_count", x.cluster_count, l) &&
        in.f(v, "total_mass", x.total_mass, l) && in.f(v, "collision_margin", x.collision_margin, l) &&
        in.i(v, "aero_model", x.aero_model, l) && in.vec(v, "config", x.config, l) &&
        in.vec(v, "cluster", x.cluster, l) && in.vec(v, "material_params", x.material_params, l)))
    return false;
  if (const Value* it = in.array(v, "iterations", l)) {
    if (it->Size() != 4) return in.fail(l.at("iterations"), "expected 4 integers");
    for (rapidjson::SizeType k = 0; k < 4; ++k)
      if (!in.num_i((*it)[k], x.iterations[k], Loc{"soft_bodies", l.index, "iterations", k}, INT32_MIN, INT32_MAX))
        return false;
  }
  if (in.err) return false;
  if (const Value* a = in.array(v, "anchors", l)) {
    x.anchors.resize(a->Size());
    for (rapidjson::SizeType k = 0; k < a->Size(); ++k) {
      Loc al{"soft_bodies", l.index, "anchors", k};
      const Value& e = (*a)[k];
      if (!in.object(e, al) || !in.i(e, "rigid_body", x.anchors[k].rigid_body, al) ||
          !in.i(e, "vertex", x.anchors[k].vertex, al) || !in.i(e, "near_mode", x.anchors[k].near_mode, al))
        return false;
    }
  }
  if (in.err) return false;
  if (const Value* p = in.array(v, "pinned_vertices", l)) {
    x.pinned_vertices.resize(p->Size());
    for (rapidjson::SizeType k = 0; k < p->Size(); ++k)
      if (!in.num_i((*p)[k], x.pinned_vertices[k], Loc{"soft_bodies", l.index, "pinned_vertices", k}, 0, UINT32_MAX))
        return false;
  }
  return !in.err;
}

template <class T, class F>
bool read_list(In& in, const Value& doc, std::string_view key, std::vector<T>& out, F each) {
  const Value* a = in.array(doc, key, Loc{key});
  if (in.err) return false;
  if (!a) return true;
  out.resize(a->Size());
  for (rapidjson::SizeType k = 0; k < a->Size(); ++k)
    if (!each((*a)[k], out[k], Loc{key, static_cast<std::int64_t>(k)})) return false;
  return true;
}

}  // namespace

std::string to_json(const Model& m) {
  const Header& h = m.header;
  Out o(h.encoding);
  o.out.reserve(256 + m.vertices.size() * 180 + m.faces.size() * 8);
  o.raw("{\"format\": \"pmx\",\n  \"version\": \"");
  o.raw(version_name(h.version));
  o.raw("\",\n  \"version_value\": ");
  o.number(h.version_value);
  o.raw(",\n  \"encoding\": \"");
  o.raw(encoding_name(h.encoding));
  o.raw("\",\n  \"additional_uv_count\": ");
  o.integer(h.additional_uv_count);
  o.raw(",\n  \"index_sizes\": {");
  const std::uint8_t sizes[6] = {h.vertex_index_size, h.texture_index_size, h.material_index_size,
                                 h.bone_index_size, h.morph_index_size, h.rigid_body_index_size};
  for (int k = 0; k < 6; ++k) {
    o.key(index_key(k), k == 0);
    o.integer(sizes[k]);
  }
  o.raw("}");
  if (!h.extra_globals.empty()) o.raw(",\n  \"extra_globals\": \"" + to_hex(h.extra_globals) + "\"");
  o.raw(",\n  \"name\": "), o.text(m.name);
  o.raw(",\n  \"name_en\": "), o.text(m.name_en);
  o.raw(",\n  \"comment\": "), o.text(m.comment);
  o.raw(",\n  \"comment_en\": "), o.text(m.comment_en);
  write_list(o, "vertices", m.vertices, [&](std::size_t i) { write_vertex(o, m, i); });
  o.raw(",\n  \"faces\": [");
  for (std::size_t i = 0; i < m.faces.size(); ++i) {
    if (i) o.raw(i % 30 == 0 ? ",\n    " : ", ");
    else o.raw("\n    ");
    o.integer(m.faces[i]);
  }
  o.raw(m.faces.empty() ? "]" : "\n  ]");
  write_list(o, "textures", m.textures, [&](std::size_t i) { o.text(m.textures[i]); });
  write_list(o, "materials", m.materials, [&](std::size_t i) { write_material(o, m.materials[i]); });
  write_list(o, "bones", m.bones, [&](std::size_t i) { write_bone(o, m.bones[i]); });
  write_list(o, "morphs", m.morphs, [&](std::size_t i) { write_morph(o, m.morphs[i]); });
  write_list(o, "display_frames", m.display_frames, [&](std::size_t i) { write_frame(o, m.display_frames[i]); });
  write_list(o, "rigid_bodies", m.rigid_bodies, [&](std::size_t i) { write_body(o, m.rigid_bodies[i]); });
  write_list(o, "joints", m.joints, [&](std::size_t i) { write_joint(o, m.joints[i]); });
  if (h.version == Version::v2_1 || !m.soft_bodies.empty())
    write_list(o, "soft_bodies", m.soft_bodies, [&](std::size_t i) { write_soft(o, m.soft_bodies[i]); });
  if (!m.trailing.empty()) {
    o.raw(",\n  \"trailing\": \"" + to_hex(m.trailing) + "\"");
    o.raw(",\n  \"trailing_offset\": "), o.integer(m.trailing_offset);
  }
  o.raw("\n}\n");
  return std::move(o.out);
}

Result<Model> from_json(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseStopWhenDoneFlag | rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (doc.HasParseError())
    return json::syntax_error(text, doc.GetErrorOffset(), rapidjson::GetParseError_En(doc.GetParseError()));
  In in;
  Model m;
  Header& h = m.header;
  auto fail = [&]() -> Result<Model> { return std::unexpected(*in.err); };
  if (!doc.IsObject()) return make_error(ErrorCode::json_schema, "the document is not an object", "$");
  const Value* fmt = In::get(doc, "format");
  if (!fmt || !fmt->IsString() || std::string_view(fmt->GetString()) != "pmx")
    return make_error(ErrorCode::json_schema, "\"format\" is not \"pmx\"", "format");
  const Value* ver = In::get(doc, "version");
  std::string_view vs = ver && ver->IsString() ? std::string_view(ver->GetString()) : std::string_view("2.0");
  if (vs == "2.0") {
    h.version = Version::v2_0, h.version_value = 2.0f;
  } else if (vs == "2.1") {
    h.version = Version::v2_1, h.version_value = 2.1f;
  } else {
    return make_error(ErrorCode::json_schema, "version must be \"2.0\" or \"2.1\"", "version");
  }
  if (!in.f(doc, "version_value", h.version_value, Loc{""})) return fail();
  {
    // The stored float decides what a reader makes of the file (2.0 or 2.1 within 1e-3), so it
    // must agree with "version" (fuzz findings: 0.1 / 1.1 accepted; "version" missing with 2.1).
    const bool near20 = std::fabs(h.version_value - 2.0f) < 1e-3f;
    const bool near21 = std::fabs(h.version_value - 2.1f) < 1e-3f;
    if (!near20 && !near21)
      return make_error(ErrorCode::json_schema, "version_value must be 2.0 or 2.1 (within 0.001)", "version_value");
    if (!ver) {
      h.version = near21 ? Version::v2_1 : Version::v2_0;
    } else if ((h.version == Version::v2_1) != near21) {
      return make_error(ErrorCode::json_schema, "version_value does not agree with \"version\"", "version_value");
    }
  }
  if (const Value* e = In::get(doc, "encoding")) {
    auto enc = e->IsString() ? parse_encoding_name(e->GetString()) : std::nullopt;
    if (!enc || (*enc != Encoding::utf16le && *enc != Encoding::utf8))
      return make_error(ErrorCode::json_schema, "encoding must be \"utf-16le\" or \"utf-8\"", "encoding");
    h.encoding = *enc;
  }
  in.enc = h.encoding;
  if (!in.i(doc, "additional_uv_count", h.additional_uv_count, Loc{""})) return fail();
  if (h.additional_uv_count > kMaxAdditionalUvs)
    return make_error(ErrorCode::json_schema, "additional_uv_count above 4", "additional_uv_count");
  if (const Value* is = In::get(doc, "index_sizes")) {
    if (!is->IsObject()) return make_error(ErrorCode::json_schema, "expected an object", "index_sizes");
    std::uint8_t* sizes[6] = {&h.vertex_index_size, &h.texture_index_size, &h.material_index_size,
                              &h.bone_index_size, &h.morph_index_size, &h.rigid_body_index_size};
    for (int k = 0; k < 6; ++k) {
      Loc l{"index_sizes", -1, index_key(k)};
      if (!in.i(*is, index_key(k), *sizes[k], Loc{"index_sizes"})) return fail();
      if (*sizes[k] != 1 && *sizes[k] != 2 && *sizes[k] != 4)
        return make_error(ErrorCode::json_schema, "index size must be 1, 2 or 4", l.str());
    }
  }
  if (const Value* g = In::get(doc, "extra_globals")) {
    auto b = g->IsString() ? from_hex(g->GetString()) : std::nullopt;
    if (!b) return make_error(ErrorCode::json_schema, "expected hex", "extra_globals");
    h.extra_globals = std::move(*b);
  }
  Loc top{""};
  if (!in.text(doc, "name", m.name, top) || !in.text(doc, "name_en", m.name_en, top) ||
      !in.text(doc, "comment", m.comment, top) || !in.text(doc, "comment_en", m.comment_en, top))
    return fail();
  if (const Value* vs_ = in.array(doc, "vertices", Loc{"vertices"})) {
    m.vertices.resize(vs_->Size());
    m.additional_uvs.resize(static_cast<std::size_t>(vs_->Size()) * h.additional_uv_count);
    for (rapidjson::SizeType k = 0; k < vs_->Size(); ++k)
      if (!read_vertex(in, (*vs_)[k], m, k)) return fail();
  }
  if (in.err) return fail();
  if (const Value* fs = in.array(doc, "faces", Loc{"faces"})) {
    m.faces.resize(fs->Size());
    for (rapidjson::SizeType k = 0; k < fs->Size(); ++k)
      if (!in.num_i((*fs)[k], m.faces[k], Loc{"faces", k}, 0, UINT32_MAX)) return fail();
  }
  if (in.err) return fail();
  if (!read_list(in, doc, "textures", m.textures,
                 [&](const Value& v, Text& t, const Loc& l) { return in.text_value(v, t, l); }) ||
      !read_list(in, doc, "materials", m.materials,
                 [&](const Value& v, Material& x, const Loc& l) { return read_material(in, v, x, l); }) ||
      !read_list(in, doc, "bones", m.bones, [&](const Value& v, Bone& x, const Loc& l) { return read_bone(in, v, x, l); }) ||
      !read_list(in, doc, "morphs", m.morphs,
                 [&](const Value& v, Morph& x, const Loc& l) { return read_morph(in, v, x, l); }) ||
      !read_list(in, doc, "display_frames", m.display_frames,
                 [&](const Value& v, DisplayFrame& x, const Loc& l) { return read_frame(in, v, x, l); }) ||
      !read_list(in, doc, "rigid_bodies", m.rigid_bodies,
                 [&](const Value& v, RigidBody& x, const Loc& l) { return read_body(in, v, x, l); }) ||
      !read_list(in, doc, "joints", m.joints,
                 [&](const Value& v, Joint& x, const Loc& l) { return read_joint(in, v, x, l); }) ||
      !read_list(in, doc, "soft_bodies", m.soft_bodies,
                 [&](const Value& v, SoftBody& x, const Loc& l) { return read_soft(in, v, x, l); }))
    return fail();
  if (!m.soft_bodies.empty() && h.version != Version::v2_1)
    return make_error(ErrorCode::json_schema, "soft bodies need version 2.1", "soft_bodies");
  if (const Value* t = In::get(doc, "trailing")) {
    auto b = t->IsString() ? from_hex(t->GetString()) : std::nullopt;
    if (!b) return make_error(ErrorCode::json_schema, "expected hex", "trailing");
    m.trailing = std::move(*b);
    if (!in.i(doc, "trailing_offset", m.trailing_offset, top)) return fail();
  }
  return m;
}

}  // namespace mmdkit::pmx

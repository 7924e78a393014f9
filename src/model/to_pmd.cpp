// mmdkit — model view → PMD, for models that fit PMD (convert.hpp, docs/MODEL.md "PMX → PMD").
#include <algorithm>
#include <array>
#include <utility>
#include <cmath>
#include <map>
#include <numbers>
#include <set>

#include "build_internal.hpp"
#include "stored_fields.hpp"
#include "mmdkit/model/convert.hpp"
#include "mmdkit/model/textures.hpp"
#include "core/try.hpp"

namespace mmdkit::model {
namespace {

// What does not fit, by kind: a count and the first few records.
class Misfits {
 public:
  void add(const std::string& kind, std::size_t record) {
    auto& e = kinds_[order(kind)];
    if (e.records.size() < 3) e.records.push_back(record);
    ++e.count;
  }
  void add_once(const std::string& kind) { kinds_[order(kind)].count = 1; }
  bool empty() const { return kinds_.empty(); }
  std::string text() const {
    std::string s;
    for (const auto& [k, e] : kinds_) {
      s += (s.empty() ? "" : "; ") + names_[k];
      if (!e.records.empty()) {
        s += " (" + std::to_string(e.count) + ": ";
        for (std::size_t i = 0; i < e.records.size(); ++i) s += (i ? ", " : "") + std::to_string(e.records[i]);
        s += e.count > e.records.size() ? ", ...)" : ")";
      }
    }
    return s;
  }

 private:
  struct Entry {
    std::size_t count = 0;
    std::vector<std::size_t> records;
  };
  std::size_t order(const std::string& kind) {
    for (std::size_t i = 0; i < names_.size(); ++i)
      if (names_[i] == kind) return i;
    names_.push_back(kind);
    return names_.size() - 1;
  }
  std::vector<std::string> names_;
  std::map<std::size_t, Entry> kinds_;
};

// Encodes `text` in CP932 into a field of N bytes; false when it has no CP932 form or is longer.
template <std::size_t N>
bool put(pmd::FixedText<N>& field, const std::string& text) {
  auto e = encode_text(text, Encoding::cp932);
  if (!e || e->size() > N) return false;
  field.raw = std::move(*e);
  field.text = text;
  return true;
}

std::string lower_ext(const std::string& ref) {
  const std::size_t dot = ref.rfind('.');
  std::string e = dot == std::string::npos ? std::string() : ref.substr(dot);
  for (char& c : e) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return e;
}

// The two largest weights of a 4-bone vertex, renormalised (ToPmdOptions::lossy): bones and the
// first bone's weight in 0..1. A tie keeps the lower slot; weights of 0 or less count as 0.
std::pair<std::array<std::int32_t, 2>, float> two_largest(const Vertex& s) {
  std::array<std::size_t, 4> slot{0, 1, 2, 3};
  std::stable_sort(slot.begin(), slot.end(), [&](std::size_t a, std::size_t b) {
    return std::max(s.weights[a], 0.0f) > std::max(s.weights[b], 0.0f);
  });
  const float w0 = std::max(s.weights[slot[0]], 0.0f), w1 = std::max(s.weights[slot[1]], 0.0f);
  const float sum = w0 + w1;
  return {{s.bones[slot[0]], s.bones[slot[1]]}, sum > 0 ? w0 / sum : 1.0f};
}

// One conversion in steps, in the order the records are checked: the view, the PMD model being
// filled, what PMD cannot hold (refused) and the warnings.
struct ToPmd {
  const Model& v;
  std::vector<Warning>* warnings;
  const ToPmdOptions& options;
  Misfits no;  // what PMD cannot hold: refused
  pmd::Model p;

  // Adds a warning of kind unsupported (when the caller asked for warnings).
  void warn(std::string message, const char* section = "", std::int64_t record = -1) {
    if (warnings) warnings->push_back(Error{ErrorCode::unsupported, std::move(message), section, record, -1, {}});
  }

  // The header: CP932, joints tail, model name and comment.
  void header() {
    p.encoding = Encoding::cp932;
    p.tail = pmd::Tail::joints;
    if (!put(p.name, v.name)) no.add_once("model name longer than 20 bytes in CP932 (or not CP932)");
    if (!put(p.comment, v.comment)) no.add_once("comment longer than 256 bytes in CP932 (or not CP932)");
  }

  // Vertices: at most 65535, two bones each (BDEF1 / BDEF2), edge on or off.
  void vertices() {
    if (v.vertices.size() > 65535) no.add_once(std::to_string(v.vertices.size()) + " vertices (PMD holds 65535)");
    Misfits changed;  // what --lossy converted: warnings
    if (v.additional_uv_count) {
      const std::string kind = "additional UVs (" + std::to_string(v.additional_uv_count) + " per vertex)";
      options.lossy ? changed.add_once(kind + " dropped") : no.add_once(kind);
    }
    p.vertices.resize(v.vertices.size());
    std::size_t rounded = 0;
    for (std::size_t i = 0; i < v.vertices.size(); ++i) {
      const Vertex& s = v.vertices[i];
      pmd::Vertex& d = p.vertices[i];
      d.position = s.position;
      d.normal = s.normal;
      d.uv = s.uv;
      if (s.edge_scale == 0.0f) {
        d.edge_off = 1;
      } else if (s.edge_scale != 1.0f) {
        if (options.lossy) {
          d.edge_off = s.edge_scale < 0.5f ? 1 : 0;
          changed.add("vertices with an edge scale other than 0 or 1 rounded (below 0.5: edge off)", i);
        } else {
          no.add("vertices with an edge scale other than 0 or 1", i);
        }
      }
      auto bone = [&](std::int32_t b) { return static_cast<std::uint16_t>(b < 0 ? 0 : b); };
      if (s.deform == DeformType::bdef1) {
        d.bones = {bone(s.bones[0]), bone(s.bones[0])};
        d.weight = 100;
      } else if (s.deform == DeformType::bdef2) {
        d.bones = {bone(s.bones[0]), bone(s.bones[1])};
        const float pct = std::clamp(s.weights[0], 0.0f, 1.0f) * 100.0f;
        d.weight = static_cast<std::uint8_t>(std::lround(pct));
        if (std::fabs(pct - static_cast<float>(d.weight)) > 0.05f) ++rounded;
      } else if (options.lossy && s.deform == DeformType::sdef) {
        d.bones = {bone(s.bones[0]), bone(s.bones[1])};
        d.weight = static_cast<std::uint8_t>(std::lround(std::clamp(s.weights[0], 0.0f, 1.0f) * 100.0f));
        changed.add("SDEF vertices converted to BDEF2 (same bones and weight, linear blending)", i);
      } else if (options.lossy) {
        const auto [b, w] = two_largest(s);
        d.bones = {bone(b[0]), bone(b[1])};
        d.weight = static_cast<std::uint8_t>(std::lround(std::clamp(w, 0.0f, 1.0f) * 100.0f));
        changed.add(std::string(s.deform == DeformType::bdef4 ? "BDEF4" : "QDEF") +
                        " vertices converted to BDEF2 (the two largest weights, renormalised)",
                    i);
      } else {
        no.add(s.deform == DeformType::sdef ? "SDEF vertices" : s.deform == DeformType::bdef4 ? "BDEF4 vertices" : "QDEF vertices", i);
      }
    }
    if (!changed.empty()) warn("--lossy: " + changed.text(), "vertices");
    if (rounded)
      warn(std::to_string(rounded) + " BDEF2 weight(s) rounded to whole percent (PMD stores the weight as 0..100)",
           "vertices");
    p.indices.resize(v.faces.size());
    for (std::size_t i = 0; i < v.faces.size(); ++i) p.indices[i] = static_cast<std::uint16_t>(v.faces[i]);
  }

  // Materials: "texture*sphere" in 20 bytes, the sphere mode by its extension (.spa add, other
  // multiply), toons shared or in one of the 10 toon slots.
  void materials() {
    for (std::size_t t = 0; t < pmd::kToonCount; ++t) put(p.toon_textures[t], shared_toon_name(static_cast<int>(t)));
    std::vector<std::uint8_t> slot_used(pmd::kToonCount, 0);
    for (const Material& m : v.materials)
      if (m.shared_toon >= 0 && m.shared_toon < 10) slot_used[static_cast<std::size_t>(m.shared_toon)] = 1;
    std::map<std::string, std::uint8_t> custom_toon;
    p.materials.resize(v.materials.size());
    std::size_t flags_lost = 0, edge_lost = 0;
    for (std::size_t i = 0; i < v.materials.size(); ++i) {
      const Material& s = v.materials[i];
      pmd::Material& d = p.materials[i];
      d.diffuse = s.diffuse;
      d.specular = s.specular;
      d.specular_power = s.specular_power;
      d.ambient = s.ambient;
      d.edge_flag = (s.flags & kDrawEdge) ? 1 : 0;
      d.index_count = s.index_count;
      std::string field = s.texture;
      if (!s.sphere.empty() && s.sphere_mode != SphereMode::off) {
        const bool spa = lower_ext(s.sphere) == ".spa";
        if (s.sphere_mode == SphereMode::subtexture)
          no.add("sub-texture sphere maps (mode 3)", i);
        else if (spa != (s.sphere_mode == SphereMode::add))
          no.add("sphere maps whose extension does not give their mode (PMD: .spa adds, others multiply)", i);
        field += (field.empty() ? "" : "*") + s.sphere;
      }
      if (!put(d.texture, field)) no.add("texture fields (texture*sphere) longer than 20 bytes in CP932", i);
      if (s.shared_toon >= 0) {
        d.toon_index = static_cast<std::uint8_t>(s.shared_toon);
      } else if (!s.toon.empty()) {
        auto it = custom_toon.find(s.toon);
        if (it == custom_toon.end()) {
          auto free = std::find(slot_used.begin(), slot_used.end(), 0);
          if (free == slot_used.end()) {
            no.add("model toon textures beyond the 10 toon slots", i);
          } else {
            *free = 1;
            const auto slot = static_cast<std::uint8_t>(free - slot_used.begin());
            if (!put(p.toon_textures[slot], s.toon)) no.add("toon texture names longer than 100 bytes in CP932", i);
            it = custom_toon.emplace(s.toon, slot).first;
          }
        }
        if (it != custom_toon.end()) d.toon_index = it->second;
      }
      // What PMD derives from the colour and the edge flag (from_pmd): other flags are lost.
      std::uint8_t derived = 0;
      if (d.edge_flag) derived |= kDrawEdge | kGroundShadow;
      if (s.diffuse[3] != 0.98f) derived |= kDrawShadowMap | kReceiveShadow;
      if (s.diffuse[3] < 1.0f) derived |= kDoubleSided;
      if ((s.flags & 0x1F) != derived) ++flags_lost;
      if (d.edge_flag && (s.edge_size != 1.0f || s.edge_color != Vec4{0, 0, 0, 1})) ++edge_lost;
    }
    if (flags_lost)
      warn(std::to_string(flags_lost) +
               " material(s) with drawing flags PMD derives otherwise (double-sided when alpha < 1, shadows unless "
               "alpha is 0.98, ground shadow with the edge)",
           "materials");
    if (edge_lost) warn(std::to_string(edge_lost) + " material(s) with an edge colour or size (PMD: black, 1)", "materials");
  }

  // Bones: PMD types from the flags.
  void bones() {
    if (v.bones.size() > 65535) no.add_once(std::to_string(v.bones.size()) + " bones (PMD holds 65535)");
    std::set<std::int32_t> effectors;
    for (const IkChain& c : v.ik_chains) effectors.insert(c.effector);
    p.bones.resize(v.bones.size());
    for (std::size_t i = 0; i < v.bones.size(); ++i) {
      const Bone& s = v.bones[i];
      pmd::Bone& d = p.bones[i];
      if (!put(d.name, s.name)) no.add("bone names longer than 20 bytes in CP932", i);
      d.position = s.position;
      d.parent = s.parent < 0 ? pmd::kNoBone : static_cast<std::uint16_t>(s.parent);
      d.tail = s.tail_bone < 0 ? 0 : static_cast<std::uint16_t>(s.tail_bone);
      pmd::BoneType type = s.movable ? pmd::BoneType::rotate_move : pmd::BoneType::rotate;
      if (s.append_translation || s.append_local) no.add("bones with a translation or local append", i);
      if (s.has_external_parent) no.add("bones with an external parent", i);
      if (s.after_physics) no.add("bones transformed after physics", i);
      if (s.is_ik) {
        type = pmd::BoneType::ik;
      } else if (s.append_rotation) {
        const float pct = s.append_ratio * 100.0f;
        if (s.append_ratio == 1.0f && s.visible) {
          type = pmd::BoneType::rotation_affected;
          d.ik_parent = static_cast<std::uint16_t>(s.append_parent);
        } else if (pct >= 0 && pct <= 65535 && std::fabs(pct - std::round(pct)) < 1e-3f) {
          type = pmd::BoneType::rotation_follow;  // the tail slot names the bone followed
          d.tail = static_cast<std::uint16_t>(s.append_parent);
          d.ik_parent = static_cast<std::uint16_t>(std::lround(pct));
        } else {
          no.add("bones appending a rotation ratio that is not a whole percent >= 0", i);
        }
      } else if (s.has_fixed_axis) {
        // PMD's twist bone turns about the direction to its tail bone.
        bool fits = s.tail_bone >= 0;
        if (fits) {
          const Vec3& t = v.bones[static_cast<std::size_t>(s.tail_bone)].position;
          Vec3 a{t[0] - s.position[0], t[1] - s.position[1], t[2] - s.position[2]};
          const float len = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
          fits = len > 0 && std::fabs(a[0] / len - s.fixed_axis[0]) < 1e-3f &&
                 std::fabs(a[1] / len - s.fixed_axis[1]) < 1e-3f && std::fabs(a[2] / len - s.fixed_axis[2]) < 1e-3f;
        }
        if (fits)
          type = pmd::BoneType::twist;
        else
          no.add("bones with a fixed axis that is not the direction to their tail bone", i);
      } else if (!s.visible && !s.operable) {
        type = effectors.count(static_cast<std::int32_t>(i)) ? pmd::BoneType::ik_effector : pmd::BoneType::invisible;
      }
      d.type = static_cast<std::uint8_t>(type);
    }
  }

  // IK: unit angle / 4 (PMD units); link limits only on the knees (PMD gives them by name).
  void ik_chains() {
    for (std::size_t c = 0; c < v.ik_chains.size(); ++c) {
      const IkChain& s = v.ik_chains[c];
      pmd::IkChain d;
      d.target = static_cast<std::uint16_t>(s.ik_bone);
      d.effector = static_cast<std::uint16_t>(s.effector);
      d.iterations = static_cast<std::uint16_t>(std::min<std::uint32_t>(s.iterations, 65535));
      d.unit_angle = s.unit_angle / 4.0f;
      if (s.links.size() > 255) no.add("IK chains with more than 255 links", static_cast<std::size_t>(s.source_index));
      for (const IkLink& l : s.links) {
        d.links.push_back(static_cast<std::uint16_t>(l.bone));
        const std::string& name = v.bones[static_cast<std::size_t>(l.bone)].name;
        const bool knee = name == "左ひざ" || name == "右ひざ";
        if (l.has_limits && !knee)
          no.add("IK links with angle limits (PMD limits only the knees)", static_cast<std::size_t>(s.source_index));
        else if (knee && !l.has_limits)
          warn("knee link " + name + " without limits gets PMD's knee limits", "bones", s.ik_bone);
      }
      p.ik_chains.push_back(std::move(d));
    }
  }

  // The PMD order rule (IK bones after the others, follow bones last) against the model's: a warning.
  void check_bone_order() {
    // The PMD order rule (IK bones after the others, follow bones last) against the model's.
    std::vector<std::int32_t> order(v.bones.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int32_t>(i);
    const std::vector<std::int32_t> layer = detail::pmd_layers(v);
    std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
      return layer[static_cast<std::size_t>(a)] < layer[static_cast<std::size_t>(b)];
    });
    if (!v.bone_order.empty() && order != v.bone_order)
      warn("bones are transformed in PMD's order (IK bones after the others, follow bones last), not the model's "
           "deform layers: poses may differ",
           "bones");
  }

  // Morphs: vertex morphs only, over one base morph of every vertex they move.
  void morphs() {
    std::set<std::uint32_t> moved;
    for (std::size_t i = 0; i < v.morphs.size(); ++i) {
      const Morph& m = v.morphs[i];
      if (m.type != MorphType::vertex) {
        static const char* kKinds[] = {"group", "vertex", "bone", "UV", "additional UV", "additional UV", "additional UV",
                                       "additional UV", "material", "flip", "impulse"};
        const auto t = static_cast<std::size_t>(m.type);
        no.add(std::string(t < std::size(kKinds) ? kKinds[t] : "unknown") + " morphs (PMD has vertex morphs only)", i);
        continue;
      }
      for (const auto& o : m.vertex_offsets) moved.insert(o.vertex);
    }
    if (v.morphs.size() + 1 > 65535) no.add_once("more than 65534 morphs");
    std::map<std::uint32_t, std::uint32_t> base_entry;
    if (!v.morphs.empty()) {
      pmd::Morph base;
      put(base.name, "base");
      base.type = 0;
      for (std::uint32_t vx : moved) {
        base_entry[vx] = static_cast<std::uint32_t>(base.offsets.size());
        base.offsets.push_back({vx, v.vertices[vx].position});
      }
      p.morphs.push_back(std::move(base));
    }
    for (std::size_t i = 0; i < v.morphs.size(); ++i) {
      const Morph& m = v.morphs[i];
      pmd::Morph d;
      if (!put(d.name, m.name)) no.add("morph names longer than 20 bytes in CP932", i);
      d.type = static_cast<std::uint8_t>(m.panel >= 1 && m.panel <= 4 ? m.panel : 4);
      for (const auto& o : m.vertex_offsets) d.offsets.push_back({base_entry[o.vertex], o.offset});
      p.morphs.push_back(std::move(d));
    }
  }

  // Display: the 表情 frame → the morph list; other frames of bones → bone frames.
  void display_frames() {
    std::size_t dropped = 0;
    for (const DisplayFrame& f : v.display_frames) {
      if (f.special && f.name == "Root") continue;  // PMD has no Root frame (bone 0 shows anyway)
      if (f.special) {
        for (const auto& e : f.elements)
          if (e.morph && e.index + 1 <= 65535)
            p.morph_display.push_back(static_cast<std::uint16_t>(e.index + 1));
          else
            ++dropped;
        continue;
      }
      if (p.bone_frames.size() == 255) {
        ++dropped;
        continue;
      }
      pmd::FrameName name;
      if (!put(name, f.name + "\n")) no.add("display frame names longer than 49 bytes in CP932", p.bone_frames.size());
      p.bone_frames.push_back(std::move(name));
      for (const auto& e : f.elements) {
        if (e.morph) {
          ++dropped;
          continue;
        }
        p.bone_display.push_back({static_cast<std::uint16_t>(e.index), static_cast<std::uint8_t>(p.bone_frames.size())});
      }
    }
    if (dropped) warn(std::to_string(dropped) + " display element(s) PMD cannot show where they are (dropped)", "display frames");
  }

  // English names when the model has any.
  void english() {
    bool english = !v.name_en.empty() || !v.comment_en.empty();
    for (const Bone& b : v.bones) english = english || !b.name_en.empty();
    if (english) {
      pmd::English e;
      if (!put(e.name, v.name_en)) no.add_once("English model name longer than 20 bytes");
      if (!put(e.comment, v.comment_en)) no.add_once("English comment longer than 256 bytes");
      for (std::size_t i = 0; i < v.bones.size(); ++i) {
        e.bone_names.emplace_back();
        if (!put(e.bone_names.back(), v.bones[i].name_en)) no.add("English bone names longer than 20 bytes", i);
      }
      for (std::size_t i = 0; i < v.morphs.size(); ++i) {
        e.morph_names.emplace_back();
        if (!put(e.morph_names.back(), v.morphs[i].name_en)) no.add("English morph names longer than 20 bytes", i);
      }
      for (const DisplayFrame& f : v.display_frames) {
        if (f.special) continue;
        e.frame_names.emplace_back();
        put(e.frame_names.back(), f.name_en);
      }
      e.frame_names.resize(p.bone_frames.size());
      p.english = std::move(e);
    }
  }

  // Rigid bodies: positions relative to the related bone; joints: 6-DOF springs only.
  void physics() {
    p.rigid_bodies.resize(v.rigid_bodies.size());
    for (std::size_t i = 0; i < v.rigid_bodies.size(); ++i) {
      const RigidBody& s = v.rigid_bodies[i];
      pmd::RigidBody& d = p.rigid_bodies[i];
      if (!put(d.name, s.name)) no.add("rigid body names longer than 20 bytes in CP932", i);
      d.bone = s.bone < 0 ? pmd::kNoBone : static_cast<std::uint16_t>(s.bone);
      detail::copy_rigid_body_values(d, s);
      if (s.bone >= 0) {
        const Vec3& bp = v.bones[static_cast<std::size_t>(s.bone)].position;
        for (std::size_t k = 0; k < 3; ++k) d.position[k] -= bp[k];
      }
    }
    p.joints.resize(v.joints.size());
    for (std::size_t i = 0; i < v.joints.size(); ++i) {
      const Joint& s = v.joints[i];
      pmd::Joint& d = p.joints[i];
      if (s.type != JointType::spring_6dof) no.add("joints other than 6-DOF springs", i);
      if (!put(d.name, s.name)) no.add("joint names longer than 20 bytes in CP932", i);
      d.rigid_a = s.rigid_body_a < 0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(s.rigid_body_a);
      d.rigid_b = s.rigid_body_b < 0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(s.rigid_body_b);
      detail::copy_joint_values(d, s);
    }
  }

  // The error naming what does not fit (and what --lossy would take), or nothing.
  Result<void> check_fits() const {
    if (no.empty()) return {};
    // Say when --lossy would take some of it (and that it would not take the rest).
    const std::string text = no.text();
    const bool convertible = text.find("SDEF vertices") != std::string::npos ||
                             text.find("BDEF4 vertices") != std::string::npos ||
                             text.find("QDEF vertices") != std::string::npos ||
                             text.find("additional UVs") != std::string::npos ||
                             text.find("edge scale other than") != std::string::npos;
    return make_error(ErrorCode::unsupported,
                      "the model does not fit PMD: " + text +
                          (convertible && !options.lossy
                               ? " (--lossy converts the weights, additional UVs and edge scales; not the rest)"
                               : ""));
  }
};

}  // namespace

Result<pmd::Model> to_pmd(const Model& v, std::vector<Warning>* warnings, const ToPmdOptions& options) {
  if (!v.has_geometry) return make_error(ErrorCode::invalid_argument, "to_pmd needs a view with geometry");
  ToPmd c{v, warnings, options, {}, {}};
  c.header();
  c.vertices();
  c.materials();
  c.bones();
  c.ik_chains();
  c.check_bone_order();
  c.morphs();
  c.display_frames();
  c.english();
  c.physics();
  MMDKIT_TRY(c.check_fits());
  return std::move(c.p);
}

Result<pmd::Model> pmx_to_pmd(const pmx::Model& pmx, std::vector<Warning>* warnings, const ToPmdOptions& options) {
  if (!pmx.soft_bodies.empty())
    return make_error(ErrorCode::unsupported, "the model does not fit PMD: soft bodies (" +
                                                  std::to_string(pmx.soft_bodies.size()) + ", PMX 2.1)");
  MMDKIT_TRY_ASSIGN(auto view, from_pmx(pmx));
  return to_pmd(view, warnings, options);
}

}  // namespace mmdkit::model

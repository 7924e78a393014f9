// mmdkit — check: the view builder's findings plus value checks on the view.
#include "mmdkit/model/check.hpp"

#include <cmath>
#include <set>
#include <span>

#include "build_internal.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/model/textures.hpp"

namespace mmdkit::model {
namespace {

using detail::add;

// First non-finite value among named float groups of one record.
class FiniteScan {
 public:
  FiniteScan(std::vector<Finding>& out, const char* section, std::int64_t record)
      : out_(out), section_(section), record_(record) {}
  template <std::size_t N>
  FiniteScan& operator()(const char* field, const std::array<float, N>& v) {
    for (std::size_t i = 0; i < N && !done_; ++i)
      if (!std::isfinite(v[i])) report(field, v[i]);
    return *this;
  }
  FiniteScan& operator()(const char* field, float v) {
    if (!done_ && !std::isfinite(v)) report(field, v);
    return *this;
  }

 private:
  void report(const char* field, float v) {
    done_ = true;
    add(out_, FindingKind::non_finite, section_, record_, field,
        std::string(std::isnan(v) ? "NaN" : "infinity") + " in a float field");
  }
  std::vector<Finding>& out_;
  const char* section_;
  std::int64_t record_;
  bool done_ = false;
};

void check_finite(const Model& m, std::vector<Finding>& out) {
  const bool pmd = m.source == SourceFormat::pmd;
  for (std::size_t i = 0; i < m.vertices.size(); ++i) {
    const Vertex& v = m.vertices[i];
    FiniteScan s(out, "vertices", static_cast<std::int64_t>(i));
    s("position", v.position)("normal", v.normal)("uv", v.uv)("weights", v.weights)("edge_scale", v.edge_scale);
    if (v.deform == DeformType::sdef) s("sdef_c", v.sdef_c)("sdef_r0", v.sdef_r0)("sdef_r1", v.sdef_r1);
    for (std::size_t k = 0; k < m.additional_uv_count; ++k)
      s("additional_uv", m.additional_uvs[i * m.additional_uv_count + k]);
  }
  for (std::size_t i = 0; i < m.materials.size(); ++i) {
    const Material& x = m.materials[i];
    FiniteScan(out, "materials", static_cast<std::int64_t>(i))("diffuse", x.diffuse)("specular", x.specular)(
        "specular_power", x.specular_power)("ambient", x.ambient)("edge_color", x.edge_color)("edge_size", x.edge_size);
  }
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    const Bone& b = m.bones[i];
    FiniteScan s(out, "bones", static_cast<std::int64_t>(i));
    s("position", b.position)("tail_offset", b.tail_offset)("append_ratio", b.append_ratio);
    if (b.has_fixed_axis) s("fixed_axis", b.fixed_axis);
    if (b.has_local_axes) s("local_x", b.local_x)("local_z", b.local_z);
  }
  for (const IkChain& c : m.ik_chains) {
    FiniteScan s(out, pmd ? "ik chains" : "bones", c.source_index);
    s(pmd ? "unit_angle" : "ik_limit_angle", c.unit_angle);
    for (const IkLink& l : c.links)
      if (l.has_limits) s("ik_links.lower", l.lower)("ik_links.upper", l.upper);
  }
  for (std::size_t i = 0; i < m.morphs.size(); ++i) {
    const Morph& x = m.morphs[i];
    FiniteScan s(out, "morphs", static_cast<std::int64_t>(i) + (m.pmd_base_morph ? 1 : 0));
    for (const auto& o : x.vertex_offsets) s("offsets.offset", o.offset);
    for (const auto& o : x.uv_offsets) s("offsets.offset", o.offset);
    for (const auto& o : x.bone_offsets) s("offsets.translation", o.translation)("offsets.rotation", o.rotation);
    for (const auto& o : x.group_offsets) s("offsets.weight", o.weight);
    for (const auto& o : x.flip_offsets) s("flip_offsets.weight", o.weight);
    for (const auto& o : x.material_offsets)
      s("offsets.diffuse", o.diffuse)("offsets.specular", o.specular)("offsets.specular_power", o.specular_power)(
          "offsets.ambient", o.ambient)("offsets.edge_color", o.edge_color)("offsets.edge_size", o.edge_size)(
          "offsets.texture_tint", o.texture_tint)("offsets.sphere_tint", o.sphere_tint)("offsets.toon_tint", o.toon_tint);
    for (const auto& o : x.impulse_offsets) s("offsets.velocity", o.velocity)("offsets.torque", o.torque);
  }
  for (std::size_t i = 0; i < m.rigid_bodies.size(); ++i) {
    const RigidBody& r = m.rigid_bodies[i];
    FiniteScan(out, "rigid bodies", static_cast<std::int64_t>(i))("size", r.size)("position", r.position)(
        "rotation", r.rotation)("mass", r.mass)("linear_damping", r.linear_damping)(
        "angular_damping", r.angular_damping)("restitution", r.restitution)("friction", r.friction);
  }
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& j = m.joints[i];
    FiniteScan(out, "joints", static_cast<std::int64_t>(i))("position", j.position)("rotation", j.rotation)(
        "linear_lower", j.linear_lower)("linear_upper", j.linear_upper)("angular_lower", j.angular_lower)(
        "angular_upper", j.angular_upper)("linear_spring", j.linear_spring)("angular_spring", j.angular_spring);
  }
}

// What physics repairs or ignores in the rigid bodies and joints, in the words of its warnings
// (physics/describe.cpp, which applies the repairs; docs/PHYSICS.md "Bad input"). Non-finite
// values and indices out of range are reported elsewhere (non_finite, index_out_of_range).
void check_physics(const Model& m, std::vector<Finding>& out) {
  auto warn = [&](const char* section, std::size_t i, const char* field, std::string message) {
    add(out, FindingKind::physics_record, section, static_cast<std::int64_t>(i), field, std::move(message),
        Severity::warning);
  };
  const char* axis[3] = {"x", "y", "z"};
  for (std::size_t i = 0; i < m.rigid_bodies.size(); ++i) {
    const RigidBody& r = m.rigid_bodies[i];
    if (static_cast<unsigned>(r.shape) > 2) continue;  // physics uses a sphere (the view reports the shape)
    const int used = r.shape == RigidBodyShape::sphere ? 1 : r.shape == RigidBodyShape::capsule ? 2 : 3;
    bool finite = true, zero = false;
    for (int k = 0; k < used; ++k) {
      const float v = r.size[static_cast<std::size_t>(k)];
      finite = finite && std::isfinite(v);
      if (std::isfinite(v) && v < 0.0f)
        warn("rigid bodies", i, "size", std::string("size.") + axis[k] + " is negative; physics uses its magnitude");
      if (!(std::fabs(v) > 1e-4f)) zero = true;
    }
    if (r.shape == RigidBodyShape::capsule && std::fabs(r.size[0]) > 1e-4f) zero = false;  // height 0: a sphere
    if (finite && zero) warn("rigid bodies", i, "size", "zero-size shape; physics simulates it with size 0.01 and no contact response");
    if (r.mode != RigidBodyMode::follow_bone && std::isfinite(r.mass) && !(r.mass > 0.0f))
      warn("rigid bodies", i, "mass",
           std::string("mass is ") + (r.mass < 0.0f ? "negative" : "zero") + " on a simulated body; physics uses 1");
  }
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& j = m.joints[i];
    if (j.rigid_body_a >= 0 && j.rigid_body_a == j.rigid_body_b)
      warn("joints", i, "rigid_body_b",
           "joins rigid body " + std::to_string(j.rigid_body_a) + " to itself; physics ignores the joint");
    for (std::size_t k = 0; k < 3; ++k) {
      if (j.linear_lower[k] > j.linear_upper[k])
        warn("joints", i, "linear_lower",
             std::string("linear limit ") + axis[k] + " is inverted (lower > upper): physics leaves the axis free (Bullet's rule)");
      if (j.angular_lower[k] > j.angular_upper[k])
        warn("joints", i, "angular_lower",
             std::string("angular limit ") + axis[k] + " is inverted (lower > upper): physics leaves the axis free (Bullet's rule)");
    }
  }
}

void check_weights(const Model& m, const CheckOptions& o, std::vector<Finding>& out) {
  for (std::size_t i = 0; i < m.vertices.size(); ++i) {
    const Vertex& v = m.vertices[i];
    switch (v.deform) {
      case DeformType::bdef1: break;
      case DeformType::bdef2:
      case DeformType::sdef:
        if (!(v.weights[0] >= 0.0f && v.weights[0] <= 1.0f) && std::isfinite(v.weights[0]))
          add(out, FindingKind::weights_not_normalized, "vertices", static_cast<std::int64_t>(i),
              m.source == SourceFormat::pmd ? "weight" : "weights[0]",
              "weight of the first bone is " + std::to_string(v.weights[0]) + ", outside 0..1", Severity::warning);
        break;
      case DeformType::bdef4:
      case DeformType::qdef: {
        float sum = v.weights[0] + v.weights[1] + v.weights[2] + v.weights[3];
        if (std::isfinite(sum) && std::fabs(sum - 1.0f) > o.weight_tolerance)
          add(out, FindingKind::weights_not_normalized, "vertices", static_cast<std::int64_t>(i), "weights",
              "weights sum to " + std::to_string(sum) + ", not 1", Severity::warning);
        break;
      }
    }
  }
}

void check_textures(const Model& m, const std::filesystem::path& folder, std::vector<Finding>& out) {
  std::set<std::string> seen;
  auto one = [&](std::size_t mat, const char* field, const std::string& ref) {
    if (ref.empty()) return;
    std::string key = normalize_texture_path(ref);
    for (char& c : key) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (!seen.insert(key).second) return;
    TextureLookup t = resolve_texture(folder, ref);
    if (t.status == TextureStatus::missing)
      add(out, FindingKind::texture_missing, "materials", static_cast<std::int64_t>(mat), field, t.message,
          Severity::warning);
    else if (t.status == TextureStatus::escapes)
      add(out, FindingKind::texture_escapes, "materials", static_cast<std::int64_t>(mat), field, t.message,
          Severity::warning);
  };
  for (std::size_t i = 0; i < m.materials.size(); ++i) {
    const Material& x = m.materials[i];
    one(i, "texture", x.texture);
    one(i, m.source == SourceFormat::pmd ? "texture" : "sphere_texture", x.sphere);
    // A toon named toon01..10.bmp that the folder lacks is taken from MMD's Data folder.
    if (x.shared_toon < 0 && shared_toon_index(x.toon) < 0)
      one(i, m.source == SourceFormat::pmd ? "toon_index" : "toon", x.toon);
  }
}

}  // namespace

std::vector<Finding> check_view(const Model& m, const CheckOptions& options) {
  std::vector<Finding> out;
  check_finite(m, out);
  check_weights(m, options, out);
  check_physics(m, out);
  detail::check_ik_ancestry(m, out, m.source == SourceFormat::pmd);
  if (options.folder) check_textures(m, *options.folder, out);
  return out;
}

namespace {
std::vector<Finding> combine(Result<Model> view, const CheckOptions& options) {
  if (!view) {
    std::vector<Finding> out;
    add(out, FindingKind::index_out_of_range, view.error().section, view.error().record, "", view.error().message);
    return out;
  }
  std::vector<Finding> out = std::move(view->findings);
  std::vector<Finding> more = check_view(*view, options);
  out.insert(out.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  return out;
}
}  // namespace

std::vector<Finding> check(const pmx::Model& model, const CheckOptions& options) {
  return combine(from_pmx(model), options);
}

std::vector<Finding> check(const pmd::Model& model, const CheckOptions& options) {
  return combine(from_pmd(model), options);
}

std::size_t count(const std::vector<Finding>& findings, Severity severity) noexcept {
  std::size_t n = 0;
  for (const Finding& f : findings) n += f.severity == severity;
  return n;
}

}  // namespace mmdkit::model

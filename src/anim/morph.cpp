// mmdkit — morph evaluation (morph.hpp). Rules and sources: docs/EVALUATION-MORPH-SKIN.md.
#include "mmdkit/anim/morph.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <string>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::anim {

namespace {

MaterialValues values_of(const model::Material& m) {
  MaterialValues v;
  v.diffuse = m.diffuse;
  v.specular = m.specular;
  v.specular_power = m.specular_power;
  v.ambient = m.ambient;
  v.edge_color = m.edge_color;
  v.edge_size = m.edge_size;
  return v;
}

MaterialValues ones() {
  MaterialValues v;
  v.diffuse = {1, 1, 1, 1};
  v.specular = {1, 1, 1};
  v.specular_power = 1;
  v.ambient = {1, 1, 1};
  v.edge_color = {1, 1, 1, 1};
  v.edge_size = 1;
  return v;
}

MaterialValues zeros() {
  MaterialValues v;
  v.texture_mul = v.sphere_mul = v.toon_mul = {0, 0, 0, 0};
  return v;
}

}  // namespace

Result<MorphData> MorphData::create(const model::Model& model) {
  static std::atomic<std::uint64_t> next_id{1};
  MorphData d;
  d.id_ = next_id.fetch_add(1, std::memory_order_relaxed);
  d.vertex_count_ = model.vertices.size();
  d.bone_count_ = model.bones.size();
  d.additional_uv_count_ = model.additional_uv_count;
  std::size_t total = 0;
  for (const model::Morph& m : model.morphs)
    total += m.group_offsets.size() + m.flip_offsets.size() + m.vertex_offsets.size() + m.uv_offsets.size() +
             m.bone_offsets.size() + m.material_offsets.size() + m.impulse_offsets.size();
  if (total > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) ||
      model.morphs.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    return make_error(ErrorCode::limit_exceeded, "more than 2^31 - 1 morph offsets", "morphs", -1, -1);
  d.morphs_.reserve(model.morphs.size());
  const std::size_t nmorph = model.morphs.size();
  for (const model::Morph& m : model.morphs) {
    Morph r;
    r.type = static_cast<std::uint8_t>(m.type);
    auto children = [&](const std::vector<model::GroupOffset>& list) {
      r.begin = static_cast<std::uint32_t>(d.children_.size());
      for (const auto& g : list)
        if (g.morph >= 0 && static_cast<std::size_t>(g.morph) < nmorph)
          d.children_.push_back({static_cast<std::uint32_t>(g.morph), g.weight});
      r.end = static_cast<std::uint32_t>(d.children_.size());
    };
    switch (m.type) {
      case model::MorphType::group:
        children(m.group_offsets);
        break;
      case model::MorphType::flip:
        children(m.flip_offsets);
        break;
      case model::MorphType::vertex:
        r.begin = static_cast<std::uint32_t>(d.vertex_.size());
        for (const auto& o : m.vertex_offsets)
          if (o.vertex < d.vertex_count_) d.vertex_.push_back({o.vertex, o.offset});
        r.end = static_cast<std::uint32_t>(d.vertex_.size());
        break;
      case model::MorphType::bone:
        r.begin = static_cast<std::uint32_t>(d.bone_.size());
        for (const auto& o : m.bone_offsets)
          if (o.bone >= 0 && static_cast<std::size_t>(o.bone) < d.bone_count_)
            d.bone_.push_back({static_cast<std::uint32_t>(o.bone), o.translation, quat_normalize(o.rotation)});
        r.end = static_cast<std::uint32_t>(d.bone_.size());
        break;
      case model::MorphType::uv:
      case model::MorphType::additional_uv1:
      case model::MorphType::additional_uv2:
      case model::MorphType::additional_uv3:
      case model::MorphType::additional_uv4: {
        const std::size_t k = static_cast<std::size_t>(m.type) - static_cast<std::size_t>(model::MorphType::uv);
        r.begin = static_cast<std::uint32_t>(d.uv_.size());
        if (k == 0 || k <= d.additional_uv_count_)
          for (const auto& o : m.uv_offsets)
            if (o.vertex < d.vertex_count_) d.uv_.push_back({o.vertex, o.offset});
        r.end = static_cast<std::uint32_t>(d.uv_.size());
        break;
      }
      case model::MorphType::material:
        r.begin = static_cast<std::uint32_t>(d.material_.size());
        for (const auto& o : m.material_offsets) {
          if (o.material >= 0 && static_cast<std::size_t>(o.material) >= model.materials.size()) continue;
          MaterialOff x;
          x.material = o.material;
          x.operation = o.operation == 0 ? 0 : 1;
          x.v.diffuse = o.diffuse;
          x.v.specular = o.specular;
          x.v.specular_power = o.specular_power;
          x.v.ambient = o.ambient;
          x.v.edge_color = o.edge_color;
          x.v.edge_size = o.edge_size;
          x.v.texture_mul = o.texture_tint;
          x.v.sphere_mul = o.sphere_tint;
          x.v.toon_mul = o.toon_tint;
          d.material_.push_back(x);
        }
        r.end = static_cast<std::uint32_t>(d.material_.size());
        break;
      case model::MorphType::impulse:
        r.begin = static_cast<std::uint32_t>(d.impulse_.size());
        for (const auto& o : m.impulse_offsets)
          if (o.rigid_body >= 0) d.impulse_.push_back({o.rigid_body, o.local, o.velocity, o.torque});
        r.end = static_cast<std::uint32_t>(d.impulse_.size());
        break;
    }
    d.morphs_.push_back(r);
  }
  // Capacity of the impulse list: every impulse offset reachable from every morph along the
  // paths apply_morphs follows (same depth limit and loop cut), counted by a dry walk per morph
  // (flips counted with all children: an upper bound). Capped; beyond it impulses are dropped.
  std::size_t bound = 0;
  for (std::size_t m = 0; m < d.morphs_.size(); ++m) {
    // Dry walk (iterative DFS with an explicit path of at most kMaxMorphDepth + 1 entries).
    struct Frame {
      std::uint32_t morph;
      std::uint32_t next;
    };
    Frame stack[kMaxMorphDepth + 1];
    std::size_t depth = 0;
    stack[0] = {static_cast<std::uint32_t>(m), 0};
    std::size_t count = 0, steps = 0;
    for (;;) {
      if (++steps > (std::size_t{1} << 22)) break;  // pathological nesting: stop counting
      Frame& f = stack[depth];
      const Morph& r = d.morphs_[f.morph];
      const bool composite = r.type == 0 || r.type == 9;
      if (!composite) {
        if (r.type == 10) count += r.end - r.begin;
      } else if (f.next < r.end - r.begin && depth < kMaxMorphDepth) {
        const std::uint32_t child = d.children_[r.begin + f.next].morph;
        ++f.next;
        bool on_path = false;
        for (std::size_t i = 0; i <= depth; ++i) on_path = on_path || stack[i].morph == child;
        if (!on_path) stack[++depth] = {child, 0};
        continue;
      }
      if (depth == 0) break;
      --depth;
    }
    bound += count;
    if (bound > (std::size_t{1} << 26)) {
      bound = std::size_t{1} << 26;
      break;
    }
  }
  d.max_impulse_events_ = bound;
  d.base_materials_.reserve(model.materials.size());
  for (const auto& mat : model.materials) d.base_materials_.push_back(values_of(mat));
  return d;
}

void MorphWorkspace::reset(const MorphData& data) {
  vertex_.assign(data.vertex_count(), Vec3{0, 0, 0});
  uv_.assign(data.vertex_count(), Vec4{0, 0, 0, 0});
  auv_count_ = data.additional_uv_count();
  auv_.assign(data.vertex_count() * auv_count_, Vec4{0, 0, 0, 0});
  bone_.assign(data.bone_count(), BoneMorphOffset{});
  materials_.assign(data.base_materials().begin(), data.base_materials().end());
  mul_.assign(data.material_count(), ones());
  add_.assign(data.material_count(), zeros());
  impulses_.assign(data.max_impulse_events_, ImpulseEvent{});
  impulse_count_ = 0;
  touched_v_.clear();
  touched_v_.reserve(data.vertex_count());
  touched_uv_.clear();
  touched_uv_.reserve(data.vertex_count());
  touched_b_.clear();
  touched_b_.reserve(data.bone_count());
  touched_m_.clear();
  touched_m_.reserve(data.material_count());
  mark_v_.assign(data.vertex_count(), 0);
  mark_uv_.assign(data.vertex_count(), 0);
  mark_b_.assign(data.bone_count(), 0);
  mark_m_.assign(data.material_count(), 0);
  data_id_ = data.id();
  ready_ = true;
}

Result<void> validate(const MorphData& data, const MorphWorkspace& ws) {
  if (!ws.ready_)
    return make_error(ErrorCode::invalid_argument, "morph workspace was never sized (MorphWorkspace::reset)",
                      "morph workspace");
  if (ws.data_id() != data.id())
    return make_error(ErrorCode::invalid_argument,
                      "morph workspace was sized for other morph data (id " + std::to_string(ws.data_id()) +
                          ", this data has id " + std::to_string(data.id()) + ")",
                      "morph workspace");
  if (ws.vertex_offsets().size() != data.vertex_count() || ws.bone_offsets().size() != data.bone_count() ||
      ws.materials().size() != data.material_count() ||
      ws.additional_uv_offsets().size() != data.vertex_count() * data.additional_uv_count())
    return make_error(ErrorCode::invalid_argument, "morph workspace buffers do not match the morph data's sizes",
                      "morph workspace");
  return {};
}

struct MorphApplier {
  const MorphData& d;
  MorphWorkspace& ws;
  std::uint32_t path[kMaxMorphDepth + 1];

  void reset() noexcept {
    for (std::uint32_t v : ws.touched_v_) {
      ws.vertex_[v] = {0, 0, 0};
      ws.mark_v_[v] = 0;
    }
    ws.touched_v_.clear();
    for (std::uint32_t v : ws.touched_uv_) {
      ws.uv_[v] = {0, 0, 0, 0};
      for (std::size_t k = 0; k < ws.auv_count_; ++k) ws.auv_[v * ws.auv_count_ + k] = {0, 0, 0, 0};
      ws.mark_uv_[v] = 0;
    }
    ws.touched_uv_.clear();
    for (std::uint32_t b : ws.touched_b_) {
      ws.bone_[b] = BoneMorphOffset{};
      ws.mark_b_[b] = 0;
    }
    ws.touched_b_.clear();
    for (std::uint32_t m : ws.touched_m_) {
      ws.materials_[m] = d.base_materials_[m];
      ws.mul_[m] = ones();
      ws.add_[m] = zeros();
      ws.mark_m_[m] = 0;
    }
    ws.touched_m_.clear();
    ws.impulse_count_ = 0;
  }

  static void mul4(Vec4& acc, const Vec4& f, float w) noexcept {
    for (int i = 0; i < 4; ++i) acc[i] *= 1.0f + (f[i] - 1.0f) * w;
  }
  static void mul3(Vec3& acc, const Vec3& f, float w) noexcept {
    for (int i = 0; i < 3; ++i) acc[i] *= 1.0f + (f[i] - 1.0f) * w;
  }
  static void add4(Vec4& acc, const Vec4& f, float w) noexcept {
    for (int i = 0; i < 4; ++i) acc[i] += f[i] * w;
  }
  static void add3(Vec3& acc, const Vec3& f, float w) noexcept {
    for (int i = 0; i < 3; ++i) acc[i] += f[i] * w;
  }

  void material(std::size_t m, const MorphData::MaterialOff& o, float w) noexcept {
    if (!ws.mark_m_[m]) {
      ws.mark_m_[m] = 1;
      ws.touched_m_.push_back(static_cast<std::uint32_t>(m));
    }
    if (o.operation == 0) {
      MaterialValues& a = ws.mul_[m];
      mul4(a.diffuse, o.v.diffuse, w);
      mul3(a.specular, o.v.specular, w);
      a.specular_power *= 1.0f + (o.v.specular_power - 1.0f) * w;
      mul3(a.ambient, o.v.ambient, w);
      mul4(a.edge_color, o.v.edge_color, w);
      a.edge_size *= 1.0f + (o.v.edge_size - 1.0f) * w;
      mul4(a.texture_mul, o.v.texture_mul, w);
      mul4(a.sphere_mul, o.v.sphere_mul, w);
      mul4(a.toon_mul, o.v.toon_mul, w);
    } else {
      MaterialValues& a = ws.add_[m];
      add4(a.diffuse, o.v.diffuse, w);
      add3(a.specular, o.v.specular, w);
      a.specular_power += o.v.specular_power * w;
      add3(a.ambient, o.v.ambient, w);
      add4(a.edge_color, o.v.edge_color, w);
      a.edge_size += o.v.edge_size * w;
      add4(a.texture_add, o.v.texture_mul, w);
      add4(a.sphere_add, o.v.sphere_mul, w);
      add4(a.toon_add, o.v.toon_mul, w);
    }
  }

  void apply(std::uint32_t m, float w, std::size_t depth) noexcept {
    if (w == 0.0f || !std::isfinite(w)) return;
    path[depth] = m;
    const MorphData::Morph& r = d.morphs_[m];
    switch (r.type) {
      case 0:  // group
        if (depth >= kMaxMorphDepth) return;
        for (std::uint32_t i = r.begin; i < r.end; ++i) {
          const auto& c = d.children_[i];
          if (on_path(c.morph, depth)) continue;
          apply(c.morph, w * c.factor, depth + 1);
        }
        return;
      case 9: {  // flip
        if (depth >= kMaxMorphDepth || !(w > 0) || r.end == r.begin) return;
        const auto n = static_cast<std::int64_t>(r.end - r.begin);
        const double pick = std::floor(static_cast<double>(n + 1) * static_cast<double>(w)) - 1.0;
        const std::int64_t k = static_cast<std::int64_t>(std::clamp(pick, 0.0, static_cast<double>(n - 1)));
        const auto& c = d.children_[r.begin + static_cast<std::uint32_t>(k)];
        if (!on_path(c.morph, depth)) apply(c.morph, c.factor, depth + 1);
        return;
      }
      case 1:  // vertex
        for (std::uint32_t i = r.begin; i < r.end; ++i) {
          const auto& o = d.vertex_[i];
          if (!ws.mark_v_[o.vertex]) {
            ws.mark_v_[o.vertex] = 1;
            ws.touched_v_.push_back(o.vertex);
          }
          Vec3& t = ws.vertex_[o.vertex];
          t[0] += o.offset[0] * w;
          t[1] += o.offset[1] * w;
          t[2] += o.offset[2] * w;
        }
        return;
      case 2:  // bone
        for (std::uint32_t i = r.begin; i < r.end; ++i) {
          const auto& o = d.bone_[i];
          if (!ws.mark_b_[o.bone]) {
            ws.mark_b_[o.bone] = 1;
            ws.touched_b_.push_back(o.bone);
          }
          BoneMorphOffset& t = ws.bone_[o.bone];
          add3(t.translation, o.translation, w);
          t.rotation = quat_normalize(quat_multiply(t.rotation, quat_slerp(kIdentityQuat, o.rotation, w)));
        }
        return;
      case 3:
      case 4:
      case 5:
      case 6:
      case 7: {
        const std::size_t k = r.type - 3u;
        for (std::uint32_t i = r.begin; i < r.end; ++i) {
          const auto& o = d.uv_[i];
          if (!ws.mark_uv_[o.vertex]) {
            ws.mark_uv_[o.vertex] = 1;
            ws.touched_uv_.push_back(o.vertex);
          }
          if (k == 0) {
            Vec4& t = ws.uv_[o.vertex];
            t[0] += o.offset[0] * w;
            t[1] += o.offset[1] * w;
          } else {
            add4(ws.auv_[o.vertex * ws.auv_count_ + (k - 1)], o.offset, w);
          }
        }
        return;
      }
      case 8:  // material
        for (std::uint32_t i = r.begin; i < r.end; ++i) {
          const auto& o = d.material_[i];
          if (o.material < 0) {
            for (std::size_t mm = 0; mm < d.base_materials_.size(); ++mm) material(mm, o, w);
          } else {
            material(static_cast<std::size_t>(o.material), o, w);
          }
        }
        return;
      case 10:  // impulse
        for (std::uint32_t i = r.begin; i < r.end; ++i) {
          if (ws.impulse_count_ >= ws.impulses_.size()) return;
          const auto& o = d.impulse_[i];
          ImpulseEvent& e = ws.impulses_[ws.impulse_count_++];
          e.rigid_body = o.rigid_body;
          e.local = o.local;
          e.velocity = {o.velocity[0] * w, o.velocity[1] * w, o.velocity[2] * w};
          e.torque = {o.torque[0] * w, o.torque[1] * w, o.torque[2] * w};
        }
        return;
      default:
        return;
    }
  }

  bool on_path(std::uint32_t m, std::size_t depth) const noexcept {
    for (std::size_t i = 0; i <= depth; ++i)
      if (path[i] == m) return true;
    return false;
  }

  void finish_materials() noexcept {
    for (std::uint32_t m : ws.touched_m_) {
      const MaterialValues& b = d.base_materials_[m];
      const MaterialValues& mu = ws.mul_[m];
      const MaterialValues& ad = ws.add_[m];
      MaterialValues& o = ws.materials_[m];
      for (int i = 0; i < 4; ++i) {
        o.diffuse[i] = b.diffuse[i] * mu.diffuse[i] + ad.diffuse[i];
        o.edge_color[i] = b.edge_color[i] * mu.edge_color[i] + ad.edge_color[i];
        o.texture_mul[i] = mu.texture_mul[i];
        o.texture_add[i] = ad.texture_add[i];
        o.sphere_mul[i] = mu.sphere_mul[i];
        o.sphere_add[i] = ad.sphere_add[i];
        o.toon_mul[i] = mu.toon_mul[i];
        o.toon_add[i] = ad.toon_add[i];
      }
      for (int i = 0; i < 3; ++i) {
        o.specular[i] = b.specular[i] * mu.specular[i] + ad.specular[i];
        o.ambient[i] = b.ambient[i] * mu.ambient[i] + ad.ambient[i];
      }
      o.specular_power = b.specular_power * mu.specular_power + ad.specular_power;
      o.edge_size = b.edge_size * mu.edge_size + ad.edge_size;
    }
  }
};

Result<void> apply_morphs(const MorphData& data, std::span<const float> weights, MorphWorkspace& ws) {
  if (auto v = validate(data, ws); !v) return v;
  if (ws.impulses_.size() != data.max_impulse_events_)
    return make_error(ErrorCode::invalid_argument, "morph workspace buffers do not match the morph data's sizes",
                      "morph workspace");
  MorphApplier a{data, ws, {}};
  a.reset();
  const std::size_t n = std::min(weights.size(), data.morph_count());
  for (std::size_t m = 0; m < n; ++m) a.apply(static_cast<std::uint32_t>(m), weights[m], 0);
  a.finish_materials();
  return {};
}

std::vector<float> morph_weights_from_vpd(std::span<const std::vector<std::uint8_t>> morph_names,
                                          const vpd::Pose& pose, std::vector<std::size_t>* unmatched,
                                          std::vector<std::uint8_t>* named) {
  std::vector<float> w(morph_names.size(), 0.0f);
  if (named) named->assign(morph_names.size(), 0);
  for (std::size_t b = 0; b < pose.morphs.size(); ++b) {
    const vpd::Morph& m = pose.morphs[b];
    const std::vector<std::uint8_t> key = vpd_match_key(m.name.raw, m.name.text, pose.encoding);
    bool found = false;
    for (std::size_t i = 0; i < morph_names.size(); ++i) {
      if (key.empty() || morph_names[i] != key) continue;
      w[i] = m.weight;
      if (named) (*named)[i] = 1;
      found = true;
    }
    if (!found && unmatched) unmatched->push_back(b);
  }
  return w;
}

}  // namespace mmdkit::anim

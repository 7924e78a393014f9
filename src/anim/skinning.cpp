// mmdkit — CPU skinning (skinning.hpp). Rules and sources: docs/EVALUATION-MORPH-SKIN.md.
#include "mmdkit/anim/skinning.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "anim/skinning_kernel.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::anim {

namespace {

constexpr Mat4 kIdentityMat{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

inline Vec3 add(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec3 scale(const Vec3& a, float s) { return {a[0] * s, a[1] * s, a[2] * s}; }

inline Vec3 xform_point(const Mat4& m, const Vec3& p) {
  return {m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12], m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
          m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]};
}
inline Vec3 xform_dir(const Mat4& m, const Vec3& p) {
  return {m[0] * p[0] + m[4] * p[1] + m[8] * p[2], m[1] * p[0] + m[5] * p[1] + m[9] * p[2],
          m[2] * p[0] + m[6] * p[1] + m[10] * p[2]};
}
inline Vec3 normalized_or(const Vec3& v, const Vec3& fallback) {
  const float l2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  if (!(l2 > 1e-30f) || !std::isfinite(l2)) return fallback;
  const float inv = 1.0f / std::sqrt(l2);
  return {v[0] * inv, v[1] * inv, v[2] * inv};
}

// Rotation quaternion of the upper-left 3×3 of a rigid matrix.
Quat quat_from_matrix(const Mat4& m) noexcept {
  const float m00 = m[0], m11 = m[5], m22 = m[10];
  const float trace = m00 + m11 + m22;
  Quat q;
  if (trace > 0) {
    const float s = std::sqrt(trace + 1.0f) * 2.0f;
    q = {(m[6] - m[9]) / s, (m[8] - m[2]) / s, (m[1] - m[4]) / s, 0.25f * s};
  } else if (m00 > m11 && m00 > m22) {
    const float s = std::sqrt(1.0f + m00 - m11 - m22) * 2.0f;
    q = {0.25f * s, (m[4] + m[1]) / s, (m[8] + m[2]) / s, (m[6] - m[9]) / s};
  } else if (m11 > m22) {
    const float s = std::sqrt(1.0f + m11 - m00 - m22) * 2.0f;
    q = {(m[4] + m[1]) / s, 0.25f * s, (m[9] + m[6]) / s, (m[8] - m[2]) / s};
  } else {
    const float s = std::sqrt(1.0f + m22 - m00 - m11) * 2.0f;
    q = {(m[8] + m[2]) / s, (m[9] + m[6]) / s, 0.25f * s, (m[1] - m[4]) / s};
  }
  return quat_normalize(q);
}

// Rotation matrix (3×3 into a Mat4 without translation) of a unit quaternion.
Mat4 matrix_from_quat(const Quat& q) noexcept {
  const float x = q[0], y = q[1], z = q[2], w = q[3];
  const float xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y,
              wz = w * z;
  return {1 - 2 * (yy + zz), 2 * (xy + wz),     2 * (xz - wy),     0,
          2 * (xy - wz),     1 - 2 * (xx + zz), 2 * (yz + wx),     0,
          2 * (xz + wy),     2 * (yz - wx),     1 - 2 * (xx + yy), 0,
          0,                 0,                 0,                 1};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Data

Result<SkinningData> SkinningData::create(std::span<const VertexIn> vertices, std::size_t bone_count) {
  if (bone_count >= 0xFFFFFFFFu)
    return make_error(ErrorCode::invalid_argument, "too many bones for skinning", "bones", -1, -1);
  static std::atomic<std::uint64_t> next_id{1};
  SkinningData d;
  d.id_ = next_id.fetch_add(1, std::memory_order_relaxed);
  d.bone_count_ = bone_count;
  const std::size_t n = vertices.size();
  d.position_.resize(n);
  d.normal_.resize(n);
  d.type_.resize(n);
  d.bones_.resize(n);
  d.weights_.resize(n);
  d.sdef_index_.assign(n, 0);
  const auto identity = static_cast<std::uint32_t>(bone_count);
  for (std::size_t v = 0; v < n; ++v) {
    const VertexIn& in = vertices[v];
    d.position_[v] = in.position;
    d.normal_[v] = in.normal;
    SkinType t = in.type;
    if (static_cast<std::uint8_t>(t) > 4) t = SkinType::bdef4;
    std::array<std::uint32_t, 4> b{};
    for (int k = 0; k < 4; ++k) {
      const std::int32_t bi = in.bones[k];
      b[k] = (bi >= 0 && static_cast<std::size_t>(bi) < bone_count) ? static_cast<std::uint32_t>(bi) : identity;
    }
    std::array<float, 4> w{};
    switch (t) {
      case SkinType::bdef1:
        w = {1, 0, 0, 0};
        b[1] = b[2] = b[3] = identity;
        break;
      case SkinType::bdef2:
      case SkinType::sdef:
        w = {in.weights[0], 1.0f - in.weights[0], 0, 0};
        b[2] = b[3] = identity;
        break;
      case SkinType::bdef4:
      case SkinType::qdef:
        w = in.weights;
        break;
    }
    const bool all_zero = w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0;
    if (all_zero) {  // keeps its bind position: rigidly attached to the identity slot
      t = SkinType::bdef1;
      w = {1, 0, 0, 0};
      b = {identity, identity, identity, identity};
    }
    if (t == SkinType::bdef2 || t == SkinType::bdef4) {
      // A zero-weight slot of a linear blend adds nothing: point it at the identity slot, so the
      // kernels can blend all four slots without a branch (and a non-finite matrix of an unused
      // bone cannot turn 0·M into NaN). SDEF / QDEF keep their slots (slerp / sign reference).
      for (int k = 0; k < 4; ++k)
        if (w[k] == 0) b[k] = identity;
    }
    if (t == SkinType::sdef) {
      const float w0 = w[0], w1 = w[1];
      const Vec3 rw = add(scale(in.sdef_r0, w0), scale(in.sdef_r1, w1));
      const Vec3 r0 = sub(add(in.sdef_c, in.sdef_r0), rw);
      const Vec3 r1 = sub(add(in.sdef_c, in.sdef_r1), rw);
      d.sdef_index_[v] = static_cast<std::uint32_t>(d.sdef_.size());
      d.sdef_.push_back({in.sdef_c, scale(add(in.sdef_c, r0), 0.5f), scale(add(in.sdef_c, r1), 0.5f)});
    }
    if (t == SkinType::sdef || t == SkinType::qdef) d.needs_rotations_ = true;
    d.type_[v] = t;
    d.bones_[v] = b;
    d.weights_[v] = w;
  }
  return d;
}

Result<SkinningData> SkinningData::create(const model::Model& model) {
  std::vector<VertexIn> in(model.vertices.size());
  for (std::size_t v = 0; v < in.size(); ++v) {
    const model::Vertex& s = model.vertices[v];
    VertexIn& o = in[v];
    o.position = s.position;
    o.normal = s.normal;
    o.type = static_cast<SkinType>(static_cast<std::uint8_t>(s.deform));
    o.bones = s.bones;
    o.weights = s.weights;
    o.sdef_c = s.sdef_c;
    o.sdef_r0 = s.sdef_r0;
    o.sdef_r1 = s.sdef_r1;
  }
  return create(in, model.bones.size());
}

void SkinWorkspace::reset(const SkinningData& data) {
  palette_.assign(data.bone_count() + 1, SkinMatrix{kIdentityMat});
  rotation_.assign(data.needs_rotations() ? data.bone_count() + 1 : 0, kIdentityQuat);
  dual_.assign(data.needs_rotations() ? data.bone_count() + 1 : 0,
               std::array<Quat, 2>{kIdentityQuat, Quat{0, 0, 0, 0}});
  data_id_ = data.id();
  ready_ = true;
}

Result<void> validate(const SkinningData& data, const SkinWorkspace& ws) {
  if (ws.data_id_ == 0)
    return make_error(ErrorCode::invalid_argument, "skin workspace was never sized (SkinWorkspace::reset)",
                      "skin workspace");
  if (ws.data_id_ != data.id())
    return make_error(ErrorCode::invalid_argument,
                      "skin workspace was sized for other skinning data (id " + std::to_string(ws.data_id_) +
                          ", this data has id " + std::to_string(data.id()) + ")",
                      "skin workspace");
  const std::size_t rot = data.needs_rotations() ? data.bone_count() + 1 : 0;
  if (ws.palette_.size() != data.bone_count() + 1 || ws.rotation_.size() != rot || ws.dual_.size() != rot)
    return make_error(ErrorCode::invalid_argument, "skin workspace buffers do not match the skinning data's sizes",
                      "skin workspace");
  return {};
}

Result<void> prepare_skin(const SkinningData& data, const SkinBones& bones, SkinWorkspace& ws) {
  const std::size_t nb = data.bone_count();
  if (auto v = validate(data, ws); !v) {
    ws.ready_ = false;
    return v;
  }
  const std::size_t nm = std::min(nb, bones.matrices.size());
  for (std::size_t b = 0; b < nm; ++b) ws.palette_[b].m = bones.matrices[b];
  for (std::size_t b = nm; b <= nb; ++b) ws.palette_[b].m = kIdentityMat;
  if (data.needs_rotations() && ws.rotation_.size() == nb + 1) {
    for (std::size_t b = 0; b < nb; ++b) {
      Quat q = b < bones.rotations.size() ? quat_normalize(bones.rotations[b]) : quat_from_matrix(ws.palette_[b].m);
      ws.rotation_[b] = q;
      // Dual part of the rigid skinning transform: 0.5 · (t, 0) · q.
      const Mat4& m = ws.palette_[b].m;
      const float tx = m[12], ty = m[13], tz = m[14];
      const Quat t{tx, ty, tz, 0};
      Quat d = quat_multiply(t, q);
      ws.dual_[b] = {q, Quat{0.5f * d[0], 0.5f * d[1], 0.5f * d[2], 0.5f * d[3]}};
    }
    ws.rotation_[nb] = kIdentityQuat;
    ws.dual_[nb] = {kIdentityQuat, Quat{0, 0, 0, 0}};
  }
  ws.ready_ = true;
  return {};
}

namespace detail {

void skin_vertex_scalar(const SkinArgs& a, std::size_t v, Vec3& rp, Vec3& rn) noexcept {
  const Vec3* pos = a.pos;
  const Vec3* nrm = a.nrm;
  const SkinMatrix* pal = a.palette;
  const bool rot_ok = a.rot_ok;
  Vec3 p = pos[v];
  if (a.offsets) p = add(p, a.offsets[v]);
  const auto& b = a.bones[v];
  const auto& w = a.weights[v];
  switch (a.types[v]) {
    case SkinType::bdef1: {
      const Mat4& m = pal[b[0]].m;
      rp = xform_point(m, p);
      rn = xform_dir(m, nrm[v]);
      break;
    }
    case SkinType::sdef:
      if (rot_ok) {
        const auto& s = a.sdef[a.sdef_index[v]];
        const Quat q = quat_slerp(a.rotation[b[0]], a.rotation[b[1]], w[1]);
        const Mat4 r = matrix_from_quat(q);
        const Vec3 rel = xform_dir(r, sub(p, s[0]));
        const Vec3 c0 = xform_point(pal[b[0]].m, s[1]);
        const Vec3 c1 = xform_point(pal[b[1]].m, s[2]);
        rp = {rel[0] + w[0] * c0[0] + w[1] * c1[0], rel[1] + w[0] * c0[1] + w[1] * c1[1],
              rel[2] + w[0] * c0[2] + w[1] * c1[2]};
        rn = xform_dir(r, nrm[v]);
        break;
      }
      [[fallthrough]];
    case SkinType::bdef2:
    case SkinType::bdef4: {
      // Blend the 3×4 upper part of the matrices (column-major: 0..2, 4..6, 8..10, 12..14).
      const Mat4& m0 = pal[b[0]].m;
      const float w0 = w[0];
      float a0 = w0 * m0[0], a1 = w0 * m0[1], a2 = w0 * m0[2], a4 = w0 * m0[4], a5 = w0 * m0[5],
            a6 = w0 * m0[6], a8 = w0 * m0[8], a9 = w0 * m0[9], a10 = w0 * m0[10], a12 = w0 * m0[12],
            a13 = w0 * m0[13], a14 = w0 * m0[14];
      for (int i = 1; i < 4; ++i) {
        const float wi = w[i];
        if (wi == 0) continue;
        const Mat4& mi = pal[b[i]].m;
        a0 += wi * mi[0];
        a1 += wi * mi[1];
        a2 += wi * mi[2];
        a4 += wi * mi[4];
        a5 += wi * mi[5];
        a6 += wi * mi[6];
        a8 += wi * mi[8];
        a9 += wi * mi[9];
        a10 += wi * mi[10];
        a12 += wi * mi[12];
        a13 += wi * mi[13];
        a14 += wi * mi[14];
      }
      rp = {a0 * p[0] + a4 * p[1] + a8 * p[2] + a12, a1 * p[0] + a5 * p[1] + a9 * p[2] + a13,
            a2 * p[0] + a6 * p[1] + a10 * p[2] + a14};
      const Vec3& nn = nrm[v];
      rn = {a0 * nn[0] + a4 * nn[1] + a8 * nn[2], a1 * nn[0] + a5 * nn[1] + a9 * nn[2],
            a2 * nn[0] + a6 * nn[1] + a10 * nn[2]};
      if (w[0] != 1.0f) rn = normalized_or(rn, nrm[v]);
      break;
    }
    case SkinType::qdef: {
      if (!rot_ok) {
        rp = p;
        rn = nrm[v];
        break;
      }
      const auto& d0 = a.dual[b[0]];
      Quat r{0, 0, 0, 0}, t{0, 0, 0, 0};
      for (int i = 0; i < 4; ++i) {
        if (w[i] == 0) continue;
        const auto& di = a.dual[b[i]];
        const float dot = di[0][0] * d0[0][0] + di[0][1] * d0[0][1] + di[0][2] * d0[0][2] + di[0][3] * d0[0][3];
        const float s = dot < 0 ? -w[i] : w[i];
        for (int k = 0; k < 4; ++k) {
          r[k] += s * di[0][k];
          t[k] += s * di[1][k];
        }
      }
      const float len = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
      if (!(len > 1e-12f)) {
        rp = p;
        rn = nrm[v];
        break;
      }
      for (int k = 0; k < 4; ++k) {
        r[k] /= len;
        t[k] /= len;
      }
      // translation = 2 · dual · conj(real)
      const Quat tr = quat_multiply(t, quat_conjugate(r));
      rp = add(quat_rotate(r, p), Vec3{2 * tr[0], 2 * tr[1], 2 * tr[2]});
      rn = quat_rotate(r, nrm[v]);
      break;
    }
    default:
      rp = p;
      rn = nrm[v];
  }
}

void skin_range_baseline(const SkinArgs& a, std::size_t begin, std::size_t end) noexcept {
  for (std::size_t v = begin; v < end; ++v) {
    Vec3 rp, rn;
    skin_vertex_scalar(a, v, rp, rn);
    if (a.out_p) a.out_p[v] = rp;
    if (a.out_n) a.out_n[v] = rn;
  }
}

}  // namespace detail

namespace {

bool cpu_has_avx2_fma() noexcept {
#ifdef MMDKIT_SKIN_HAVE_AVX2
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

bool cpu_has_avx512() noexcept {
#ifdef MMDKIT_SKIN_HAVE_AVX512
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");  // libgcc also checks that the OS saves zmm state
#else
  return false;
#endif
}

// The kernel this CPU can run that is closest to `want` (never above it).
SkinKernelIsa supported(SkinKernelIsa want) noexcept {
  if (want == SkinKernelIsa::avx512 && !cpu_has_avx512()) want = SkinKernelIsa::avx2_fma;
  if (want == SkinKernelIsa::avx2_fma && !cpu_has_avx2_fma()) want = SkinKernelIsa::baseline;
  if (want != SkinKernelIsa::avx512 && want != SkinKernelIsa::avx2_fma) want = SkinKernelIsa::baseline;
  return want;
}

std::atomic<SkinKernelIsa>& active_isa() noexcept {
  static std::atomic<SkinKernelIsa> isa{supported(SkinKernelIsa::avx512)};
  return isa;
}

}  // namespace

SkinKernelIsa skin_kernel_isa() noexcept { return active_isa().load(std::memory_order_relaxed); }

SkinKernelIsa set_skin_kernel_isa(SkinKernelIsa isa) noexcept {
  isa = supported(isa);
  active_isa().store(isa, std::memory_order_relaxed);
  return isa;
}

struct SkinKernel {
  static void run(const SkinningData& d, const SkinWorkspace& ws, std::span<const Vec3> offsets,
                  std::span<Vec3> out_p, std::span<Vec3> out_n, std::size_t begin, std::size_t end) noexcept {
    if (!ws.ready_ || ws.palette_.size() != d.bone_count_ + 1) return;
    const std::size_t n = d.position_.size();
    end = std::min(end, n);
    if (begin >= end) return;
    const bool want_p = out_p.size() >= end, want_n = out_n.size() >= end;
    if (!want_p && !want_n) return;
    detail::SkinArgs a;
    a.pos = d.position_.data();
    a.nrm = d.normal_.data();
    a.bones = d.bones_.data();
    a.weights = d.weights_.data();
    a.types = d.type_.data();
    a.sdef_index = d.sdef_index_.data();
    a.sdef = d.sdef_.data();
    a.palette = ws.palette_.data();
    a.rot_ok = ws.rotation_.size() == d.bone_count_ + 1 && ws.dual_.size() == d.bone_count_ + 1;
    a.rotation = ws.rotation_.data();
    a.dual = ws.dual_.data();
    a.offsets = offsets.size() >= n ? offsets.data() : nullptr;
    a.out_p = want_p ? out_p.data() : nullptr;
    a.out_n = want_n ? out_n.data() : nullptr;
#ifdef MMDKIT_SKIN_HAVE_AVX2
    switch (skin_kernel_isa()) {
      case SkinKernelIsa::avx512: detail::skin_range_avx512(a, begin, end); return;
      case SkinKernelIsa::avx2_fma: detail::skin_range_avx2(a, begin, end); return;
      case SkinKernelIsa::baseline: break;
    }
#endif
    detail::skin_range_baseline(a, begin, end);
  }
};

void skin_range(const SkinningData& data, const SkinWorkspace& ws, std::span<const Vec3> morph_offsets,
                std::span<Vec3> out_positions, std::span<Vec3> out_normals, std::size_t begin,
                std::size_t end) noexcept {
  SkinKernel::run(data, ws, morph_offsets, out_positions, out_normals, begin, end);
}

namespace {
// The span checks of skin() / skin_parallel() (see skinning.hpp).
Result<void> check_skin_spans(const SkinningData& data, std::span<const Vec3> morph_offsets,
                              std::span<Vec3> out_positions, std::span<Vec3> out_normals) {
  const std::size_t n = data.vertex_count();
  auto bad = [&](const char* what, std::size_t size) {
    return make_error(ErrorCode::invalid_argument,
                      std::string(what) + " has " + std::to_string(size) + " entries for " + std::to_string(n) +
                          " vertices",
                      "skin");
  };
  if (!morph_offsets.empty() && morph_offsets.size() != n) return bad("morph_offsets", morph_offsets.size());
  if (!out_positions.empty() && out_positions.size() < n) return bad("out_positions", out_positions.size());
  if (!out_normals.empty() && out_normals.size() < n) return bad("out_normals", out_normals.size());
  if (out_positions.empty() && out_normals.empty() && n > 0)
    return make_error(ErrorCode::invalid_argument, "both outputs are empty (nothing to skin into)", "skin");
  return {};
}
}  // namespace

Result<void> skin(const SkinningData& data, const SkinBones& bones, SkinWorkspace& ws,
                  std::span<const Vec3> morph_offsets, std::span<Vec3> out_positions, std::span<Vec3> out_normals) {
  if (auto c = check_skin_spans(data, morph_offsets, out_positions, out_normals); !c) return c;
  if (auto p = prepare_skin(data, bones, ws); !p) return p;
  skin_range(data, ws, morph_offsets, out_positions, out_normals, 0, data.vertex_count());
  return {};
}

namespace {
struct ParallelSkin {
  const SkinningData* data;
  const SkinWorkspace* ws;
  std::span<const Vec3> offsets;
  std::span<Vec3> out_p, out_n;
};
void parallel_skin_job(void* c, std::size_t b, std::size_t e) {
  auto* s = static_cast<ParallelSkin*>(c);
  skin_range(*s->data, *s->ws, s->offsets, s->out_p, s->out_n, b, e);
}
}  // namespace

Result<void> skin_parallel(ThreadPool& pool, const SkinningData& data, const SkinBones& bones, SkinWorkspace& ws,
                           std::span<const Vec3> morph_offsets, std::span<Vec3> out_positions,
                           std::span<Vec3> out_normals) {
  if (auto c = check_skin_spans(data, morph_offsets, out_positions, out_normals); !c) return c;
  if (auto p = prepare_skin(data, bones, ws); !p) return p;
  ParallelSkin s{&data, &ws, morph_offsets, out_positions, out_normals};
  pool.parallel_for(data.vertex_count(), &parallel_skin_job, &s);
  return {};
}

}  // namespace mmdkit::anim

// mmdkit — CPU skinning of a model's vertices: BDEF1/2/4 linear blend, SDEF, QDEF, positions and
// normals, single-threaded over a vertex range or spread over a thread pool created once
// (core/thread_pool.hpp).
//
// Runtime style: SkinningData is built once from the format-neutral model view (immutable: bind
// positions, normals, bone indices, weights, SDEF constants); each frame, skin() reads the bones'
// skinning matrices and model rotations (anim/pose.hpp PoseWorkspace), optional morph position
// offsets (anim/morph.hpp MorphWorkspace), and writes positions / normals to caller-owned buffers.
// Nothing is allocated per frame (SkinWorkspace is sized once).
//
// Space and units: MMD's left-handed, Y-up model space, MMD units; matrices column-major, rigid,
// translation at 12..14 (core/math.hpp). Rules and their sources: docs/EVALUATION-MORPH-SKIN.md.
//
//   p  = bind position + morph offset (morph offsets are applied BEFORE skinning, as MMD does)
//   BDEF1          p' = M_b0 · p,                     n' = R_b0 · n
//   BDEF2 / BDEF4  p' = Σ w_i M_bi · p,               n' = normalize(Σ w_i R_bi · n)
//                  weights AS STORED: BDEF4 weights are not renormalized (MMD and babylon-mmd
//                  use them as they are; the view's `check` warns when they do not sum to 1)
//   SDEF           (saba MMDModel / mmd_tools sdef.py / babylon-mmd, identical formula)
//                  w0 = weights[0], w1 = 1 − w0; precomputed once:
//                    rw = w0·R0 + w1·R1;  R0' = C + R0 − rw;  R1' = C + R1 − rw;
//                    CR0 = (C + R0') / 2;  CR1 = (C + R1') / 2
//                  per frame: q = slerp(q_b0, q_b1, w1) (shortest arc), R = rot(q)
//                    p' = R · (p − C) + w0 · M_b0 · CR0 + w1 · M_b1 · CR1,   n' = R · n
//   QDEF           dual-quaternion blend (Kavan et al. 2007): each bone's rigid skinning
//                  transform as a unit dual quaternion, sign-aligned to the first bone's,
//                  blended with the stored weights, divided by the norm of the real part;
//                  p' = rotate(p) + translation, n' = rotate(n). (babylon-mmd falls back to BDEF4.)
//   bone index −1  (a slot the view could not keep) contributes the identity transform;
//   all weights 0  the vertex keeps its (morphed) bind position and normal.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/core/math.hpp"
#include "mmdkit/core/thread_pool.hpp"

namespace mmdkit::model {
struct Model;
}

namespace mmdkit::anim {

/// How one vertex is deformed (numbering as model::DeformType / PMX).
enum class SkinType : std::uint8_t { bdef1 = 0, bdef2 = 1, bdef4 = 2, sdef = 3, qdef = 4 };

/// Immutable per-vertex skinning data of a model (structure of arrays, built once).
class SkinningData {
 public:
  SkinningData() = default;

  std::size_t vertex_count() const noexcept { return position_.size(); }
  /// Number of bones the bone indices refer to (skinning matrices needed).
  std::size_t bone_count() const noexcept { return bone_count_; }
  /// Bind-pose positions (model space, MMD units) and normals as stored.
  std::span<const Vec3> bind_positions() const noexcept { return position_; }
  std::span<const Vec3> bind_normals() const noexcept { return normal_; }
  std::span<const SkinType> types() const noexcept { return type_; }
  /// Four bone slots per vertex; unused or invalid slots, and zero-weight slots of BDEF2 / BDEF4,
  /// point at the identity slot (bone_count()).
  std::span<const std::array<std::uint32_t, 4>> bones() const noexcept { return bones_; }
  /// Weights as stored (BDEF1: {1,0,0,0}; BDEF2 / SDEF: {w0, 1 − w0, 0, 0}).
  std::span<const std::array<float, 4>> weights() const noexcept { return weights_; }
  /// True if some vertex uses SDEF or QDEF (then skin() needs the bone rotations too).
  bool needs_rotations() const noexcept { return needs_rotations_; }
  /// Identity of the build: every create() gives a new non-zero id (copies keep it). A
  /// SkinWorkspace remembers the id it was sized for; prepare_skin / skin refuse another. 0 for
  /// a default-constructed SkinningData.
  std::uint64_t id() const noexcept { return id_; }

  /// Builds the data from explicit arrays (tests, other front ends). Bone indices ≥ bone_count
  /// or < 0 count as −1 (identity). Sizes must match (`sdef_*` may be empty when no vertex is
  /// SDEF). Errors: invalid_argument (section "vertices") when the array sizes differ.
  struct VertexIn {
    Vec3 position{}, normal{};
    SkinType type = SkinType::bdef1;
    std::array<std::int32_t, 4> bones{-1, -1, -1, -1};
    std::array<float, 4> weights{};
    Vec3 sdef_c{}, sdef_r0{}, sdef_r1{};  ///< model space, SDEF only
  };
  static Result<SkinningData> create(std::span<const VertexIn> vertices, std::size_t bone_count);
  /// From the format-neutral model view (vertices and bone count as the view gives them).
  static Result<SkinningData> create(const model::Model& model);

 private:
  friend struct SkinKernel;
  std::uint64_t id_ = 0;
  std::size_t bone_count_ = 0;
  bool needs_rotations_ = false;
  std::vector<Vec3> position_, normal_;
  std::vector<SkinType> type_;
  std::vector<std::array<std::uint32_t, 4>> bones_;
  std::vector<std::array<float, 4>> weights_;
  // SDEF: per SDEF vertex (indexed through sdef_index_): C, CR0, CR1.
  std::vector<std::uint32_t> sdef_index_;  // per vertex, valid for SDEF vertices only
  std::vector<std::array<Vec3, 3>> sdef_;
};

/// Per-frame bone input of skinning.
struct SkinBones {
  /// Skinning matrices (model matrix × inverse bind), one per bone (PoseWorkspace::skinning_matrices).
  std::span<const Mat4> matrices;
  /// Model-space rotations, one per bone (PoseWorkspace::model_rotations); needed only when
  /// SkinningData::needs_rotations() (SDEF, QDEF); may be empty otherwise.
  std::span<const Quat> rotations;
};

/// A bone's skinning matrix alone on a 64-byte cache line (SkinWorkspace's palette: the SIMD
/// kernel loads each matrix as two 32-byte halves, never split across cache lines).
struct alignas(64) SkinMatrix {
  Mat4 m;
};

/// Buffers of one model's skinning, sized once (allocates in reset only): the bone palette with an
/// identity slot appended, and the dual quaternions of QDEF.
class SkinWorkspace {
 public:
  SkinWorkspace() = default;
  explicit SkinWorkspace(const SkinningData& data) { reset(data); }
  void reset(const SkinningData& data);
  /// SkinningData::id() of the data the workspace was sized for (0 = never reset).
  std::uint64_t data_id() const noexcept { return data_id_; }

 private:
  friend struct SkinKernel;
  friend Result<void> validate(const SkinningData&, const SkinWorkspace&);
  friend Result<void> prepare_skin(const SkinningData&, const SkinBones&, SkinWorkspace&);
  std::vector<SkinMatrix> palette_;
  std::vector<Quat> rotation_;
  std::vector<std::array<Quat, 2>> dual_;  // real, dual part per bone
  std::uint64_t data_id_ = 0;
  bool ready_ = false;
};

/// Checks that `ws` was sized for `data` (as validate() of pose.hpp does for a PoseWorkspace).
/// Errors: invalid_argument (section "skin workspace") when the workspace was never reset, was
/// reset for another SkinningData (even one of the same sizes: SkinningData::id() differs), or its
/// buffers do not match the data. Never allocates unless it fails.
Result<void> validate(const SkinningData& data, const SkinWorkspace& ws);

/// Prepares the workspace for one frame (copies the palette, builds rotations and dual
/// quaternions). Bones missing from `bones` (spans shorter than bone_count) use the identity.
/// Errors: validate()'s (nothing is written then; skin_range then skins nothing). Never
/// allocates on success.
Result<void> prepare_skin(const SkinningData& data, const SkinBones& bones, SkinWorkspace& ws);

/// Skins vertices [begin, end) after a successful prepare_skin: `out_positions[v]` / `out_normals[v]` are written
/// for v in the range (both spans index the whole model; either may be empty to skip it).
/// `morph_offsets`: per-vertex position offsets added before skinning (whole model, or empty =
/// none). The range is clipped to the vertex count and to the output sizes. Never allocates,
/// never throws; safe to call concurrently on disjoint ranges.
void skin_range(const SkinningData& data, const SkinWorkspace& ws, std::span<const Vec3> morph_offsets,
                std::span<Vec3> out_positions, std::span<Vec3> out_normals, std::size_t begin,
                std::size_t end) noexcept;

/// The code skin_range runs. Chosen once from the CPU (x86-64): `avx512` when it reports AVX-512F
/// (four vertices per step, one 16-float FMA per bone, normals renormalized by rsqrt14 + one
/// Newton step), else `avx2_fma` when it reports AVX2 and FMA (one vertex per step, 8-float FMA,
/// rsqrt + one Newton step), else `baseline` (portable scalar code, exact 1/sqrt). All compute the
/// formulas above; they agree to float rounding (relative difference ≤ 1e-5, not bit for bit).
/// Each kernel is deterministic: the same inputs give the same bytes whatever the thread split.
enum class SkinKernelIsa : std::uint8_t { baseline = 0, avx2_fma = 1, avx512 = 2 };
/// The kernel in use.
SkinKernelIsa skin_kernel_isa() noexcept;
/// Selects a kernel (tests and benchmarks compare them; `baseline` gives the same bytes on every
/// x86-64 CPU). Asking for a kernel the CPU cannot run selects the next one down (`avx512` →
/// `avx2_fma` → `baseline`). Returns the kernel now in use. Process-wide; do not call while
/// another thread is skinning.
SkinKernelIsa set_skin_kernel_isa(SkinKernelIsa isa) noexcept;

/// prepare_skin + skin_range over all vertices, on the calling thread. Errors: invalid_argument,
/// nothing written: validate()'s (section "skin workspace"); section "skin" when `morph_offsets`
/// is neither empty nor one per vertex, or an output span is neither empty (skipped) nor at
/// least one per vertex (a shorter one would silently skin no vertex), or both outputs are
/// empty. Never allocates on success.
Result<void> skin(const SkinningData& data, const SkinBones& bones, SkinWorkspace& ws,
                  std::span<const Vec3> morph_offsets, std::span<Vec3> out_positions, std::span<Vec3> out_normals);

/// prepare_skin, then skin_range over all vertices spread over `pool`. Errors as skin(). Never
/// allocates on success.
Result<void> skin_parallel(ThreadPool& pool, const SkinningData& data, const SkinBones& bones, SkinWorkspace& ws,
                           std::span<const Vec3> morph_offsets, std::span<Vec3> out_positions,
                           std::span<Vec3> out_normals);

}  // namespace mmdkit::anim

// mmdkit fuzzing — property checks shared by the fuzz targets and tests/regress (see roundtrip.hpp).
#include "roundtrip.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mmdkit/core/error.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_json.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_json.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_json.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/formats/vac.hpp"
#include "mmdkit/formats/x.hpp"
#include "mmdkit/model/accessory.hpp"
#ifdef MMDKIT_FUZZ_HAVE_PHYSICS
#include "physics_check.hpp"
#endif
#if __has_include("mmdkit/formats/vpd_json.hpp")
#include "mmdkit/formats/vpd_json.hpp"
#define MMDKIT_FUZZ_HAVE_VPD_JSON 1
#endif

namespace mmdkit::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::string describe(const Error& e) { return e.to_string(); }

/// A failed parse must still say what and where: a message, and an offset inside the input.
std::string check_error(const Error& e, std::size_t input_size, std::string_view what) {
  if (e.message.empty()) return std::string(what) + ": error without a message: " + describe(e);
  if (e.offset < -1 || e.offset > static_cast<std::int64_t>(input_size))
    return std::string(what) + ": error offset " + std::to_string(e.offset) + " outside the input of " +
           std::to_string(input_size) + " bytes: " + describe(e);
  return {};
}

/// Empty if equal, else where the first difference is.
std::string compare(ByteSpan expected, ByteSpan got, std::string_view what) {
  if (expected.size() == got.size() &&
      (expected.empty() || std::memcmp(expected.data(), got.data(), expected.size()) == 0))
    return {};
  std::size_t i = 0;
  while (i < expected.size() && i < got.size() && expected[i] == got[i]) ++i;
  std::string s = std::string(what) + ": bytes differ: expected " + std::to_string(expected.size()) +
                  " bytes, got " + std::to_string(got.size()) + ", first difference at byte " + std::to_string(i);
  if (i < expected.size() && i < got.size()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (expected 0x%02x, got 0x%02x)", expected[i], got[i]);
    s += buf;
  }
  return s;
}

std::string_view as_text(ByteSpan b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// ---------------------------------------------------------------------------------------- VMD

constexpr std::size_t kJsonLegBytes = 4096;

std::string vmd_json_lossless(const vmd::Motion& m, const Bytes& expected, bool pretty, bool euler,
                              std::string_view what) {
  std::string json = vmd::to_json(m, {.euler = euler, .pretty = pretty});
  auto back = vmd::from_json(json);
  if (!back) return std::string(what) + ": from_json(to_json(motion)) failed: " + describe(back.error());
  auto w = vmd::write(*back);
  if (!w) return std::string(what) + ": write(from_json(to_json(motion))) failed: " + describe(w.error());
  return compare(expected, *w, std::string(what) + ": write(from_json(to_json(motion)))");
}

std::string check_vmd(ByteSpan in) {
  auto r = vmd::read(in);
  auto s = vmd::summarize(in);
  if (!r) {
    if (auto f = check_error(r.error(), in.size(), "vmd::read"); !f.empty()) return f;
    if (s) return "vmd::summarize succeeded where vmd::read failed with " + describe(r.error());
    if (s.error().code != r.error().code || s.error().offset != r.error().offset)
      return "vmd::summarize and vmd::read fail differently: " + describe(s.error()) + " vs " + describe(r.error());
    return {};
  }
  const vmd::Motion& m = r->motion;
  if (!s) return "vmd::summarize failed where vmd::read succeeded: " + describe(s.error());
  const std::array<std::uint64_t, vmd::kSectionCount> counts{m.bone_keys.size(),  m.morph_keys.size(),
                                                             m.camera_keys.size(), m.light_keys.size(),
                                                             m.self_shadow_keys.size(), m.property_keys.size()};
  if (s->counts != counts || s->sections_present != m.sections_present || s->trailing_bytes != m.trailing.size() ||
      s->bone_tracks != m.bone_names.size() || s->morph_tracks != m.morph_names.size() ||
      s->warnings.size() != r->warnings.size())
    return "vmd::summarize disagrees with vmd::read on counts, sections, tracks, trailing bytes or warnings";
  (void)vmd::check(m);
  (void)vmd::frame_range(m);

  auto w = vmd::write(m);
  if (!w) return "vmd::write of a parsed motion failed: " + describe(w.error());
  if (auto f = compare(in, *w, "vmd read->write"); !f.empty()) return f;
  // The JSON leg costs ~50x the binary one (text of every key, Euler angles, parsing it back):
  // on the corpus seeds (up to 64 KiB) it held fuzz_vmd to ~100 executions a second. Inputs up to
  // kJsonLegBytes take it (every key kind, names, trailing data still reach it); fuzz_vmd_json
  // fuzzes the JSON reader itself.
  if (in.size() > kJsonLegBytes) return {};
  return vmd_json_lossless(m, *w, in.size() % 2 == 0, in.size() % 3 == 0, "vmd");
}

std::string check_vmd_json(ByteSpan in) {
  auto m = vmd::from_json(as_text(in));
  if (!m) return check_error(m.error(), in.size(), "vmd::from_json");
  auto w1 = vmd::write(*m);
  if (!w1) return {};  // e.g. a key naming a track that does not exist: the writer says so
  auto r = vmd::read(*w1);
  if (!r) return "vmd::read of what vmd::write produced failed: " + describe(r.error());
  auto w2 = vmd::write(r->motion);
  if (!w2) return "vmd::write(read(write(from_json))) failed: " + describe(w2.error());
  if (auto f = compare(*w1, *w2, "vmd json: second write"); !f.empty()) return f;
  return vmd_json_lossless(*m, *w1, in.size() % 2 == 0, false, "vmd json");
}

// ---------------------------------------------------------------------------------------- PMD

std::string pmd_json_lossless(const pmd::Model& m, const Bytes& expected, std::string_view what) {
  std::string json = pmd::to_json(m);
  auto back = pmd::from_json(json);
  if (!back) return std::string(what) + ": from_json(to_json(model)) failed: " + describe(back.error());
  auto w = pmd::write(*back);
  if (!w) return std::string(what) + ": write(from_json(to_json(model))) failed: " + describe(w.error());
  return compare(expected, *w, std::string(what) + ": write(from_json(to_json(model)))");
}

std::string check_pmd(ByteSpan in) {
  auto r = pmd::read(in);
  if (!r) return check_error(r.error(), in.size(), "pmd::read");
  auto w = pmd::write(r->model);
  if (!w) return "pmd::write of a parsed model failed: " + describe(w.error());
  if (auto f = compare(in, *w, "pmd read->write"); !f.empty()) return f;
  return pmd_json_lossless(r->model, *w, "pmd");
}

std::string check_pmd_json(ByteSpan in) {
  auto m = pmd::from_json(as_text(in));
  if (!m) return check_error(m.error(), in.size(), "pmd::from_json");
  auto w1 = pmd::write(*m);
  if (!w1) return {};
  auto r = pmd::read(*w1);
  if (!r) return "pmd::read of what pmd::write produced failed: " + describe(r.error());
  auto w2 = pmd::write(r->model);
  if (!w2) return "pmd::write(read(write(from_json))) failed: " + describe(w2.error());
  if (auto f = compare(*w1, *w2, "pmd json: second write"); !f.empty()) return f;
  return pmd_json_lossless(*m, *w1, "pmd json");
}

// ---------------------------------------------------------------------------------------- PMX

std::string pmx_json_lossless(const pmx::Model& m, const Bytes& expected, std::string_view what) {
  std::string json = pmx::to_json(m);
  auto back = pmx::from_json(json);
  if (!back) return std::string(what) + ": from_json(to_json(model)) failed: " + describe(back.error());
  auto w = pmx::write(*back);
  if (!w) return std::string(what) + ": write(from_json(to_json(model))) failed: " + describe(w.error());
  return compare(expected, *w, std::string(what) + ": write(from_json(to_json(model)))");
}

bool same_counts(const pmx::Counts& a, const pmx::Counts& b) {
  return a.vertices == b.vertices && a.faces == b.faces && a.textures == b.textures && a.materials == b.materials &&
         a.bones == b.bones && a.morphs == b.morphs && a.display_frames == b.display_frames &&
         a.rigid_bodies == b.rigid_bodies && a.joints == b.joints && a.soft_bodies == b.soft_bodies &&
         a.sdef_vertices == b.sdef_vertices && a.trailing_bytes == b.trailing_bytes;
}

std::string check_pmx(ByteSpan in) {
  auto r = pmx::read(in);
  auto lite = pmx::read(in, {.strict = false, .skip_geometry = true});
  if (!r) {
    if (auto f = check_error(r.error(), in.size(), "pmx::read"); !f.empty()) return f;
    if (lite) return "pmx::read with skip_geometry succeeded where the full read failed: " + describe(r.error());
    return {};
  }
  if (!lite) return "pmx::read with skip_geometry failed where the full read succeeded: " + describe(lite.error());
  if (!same_counts(r->counts, lite->counts))
    return "pmx::read counts differ between the full read and skip_geometry";
  if (!same_counts(r->counts, pmx::counts(r->model)))
    return "pmx::ReadResult::counts disagrees with pmx::counts(model)";
  auto w = pmx::write(r->model);
  if (!w) return "pmx::write of a parsed model failed: " + describe(w.error());
  if (auto f = compare(in, *w, "pmx read->write"); !f.empty()) return f;
  return pmx_json_lossless(r->model, *w, "pmx");
}

std::string check_pmx_json(ByteSpan in) {
  auto m = pmx::from_json(as_text(in));
  if (!m) return check_error(m.error(), in.size(), "pmx::from_json");
  auto w1 = pmx::write(*m);
  if (!w1) return {};
  auto r = pmx::read(*w1);
  if (!r) return "pmx::read of what pmx::write produced failed: " + describe(r.error());
  auto w2 = pmx::write(r->model);
  if (!w2) return "pmx::write(read(write(from_json))) failed: " + describe(w2.error());
  if (auto f = compare(*w1, *w2, "pmx json: second write"); !f.empty()) return f;
  return pmx_json_lossless(*m, *w1, "pmx json");
}

// ---------------------------------------------------------------------------------------- VPD

std::string vpd_json_lossless([[maybe_unused]] const vpd::Pose& p, [[maybe_unused]] const Bytes& expected,
                              [[maybe_unused]] bool pretty, [[maybe_unused]] std::string_view what) {
#ifdef MMDKIT_FUZZ_HAVE_VPD_JSON
  std::string json = vpd::to_json(p, {.pretty = pretty});
  auto back = vpd::from_json(json);
  if (!back) return std::string(what) + ": from_json(to_json(pose)) failed: " + describe(back.error());
  auto w = vpd::write(*back);
  if (!w) return std::string(what) + ": write(from_json(to_json(pose))) failed: " + describe(w.error());
  return compare(expected, *w, std::string(what) + ": write(from_json(to_json(pose)))");
#else
  return {};
#endif
}

std::string check_vpd(ByteSpan in) {
  auto r = vpd::read(in);
  if (!r) return check_error(r.error(), in.size(), "vpd::read");
  auto w = vpd::write(*r);
  if (!w) return "vpd::write of a parsed pose failed: " + describe(w.error());
  if (auto f = compare(in, *w, "vpd read->write"); !f.empty()) return f;
  return vpd_json_lossless(*r, *w, in.size() % 2 == 0, "vpd");
}

#ifdef MMDKIT_FUZZ_HAVE_VPD_JSON
std::string check_vpd_json(ByteSpan in) {
  auto p = vpd::from_json(as_text(in));
  if (!p) return check_error(p.error(), in.size(), "vpd::from_json");
  auto w1 = vpd::write(*p);
  if (!w1) return {};
  auto r = vpd::read(*w1);
  if (!r) return "vpd::read of what vpd::write produced failed: " + describe(r.error());
  auto w2 = vpd::write(*r);
  if (!w2) return "vpd::write(read(write(from_json))) failed: " + describe(w2.error());
  if (auto f = compare(*w1, *w2, "vpd json: second write"); !f.empty()) return f;
  return vpd_json_lossless(*p, *w1, in.size() % 2 == 0, "vpd json");
}
#endif

// ---------------------------------------------------------------------------------------- X, VAC

// .x: read(B) fails with a well-formed error (compressed bodies: the offset may point into the
// decompressed body, bounded by kMaxDecompressedBytes), or succeeds and then every face list's
// index count is the sum of its sizes, and the model view builds and keeps its safety contract
// (every face index < vertices, material ranges contiguous and covering the faces, colours per
// vertex). No write: mmdkit does not write .x.
std::string check_x(ByteSpan in) {
  auto d = x::read(in);
  if (!d) {
    const bool compressed = in.size() >= 12 && (std::memcmp(in.data() + 8, "tzip", 4) == 0 || std::memcmp(in.data() + 8, "bzip", 4) == 0);
    return check_error(d.error(), compressed ? static_cast<std::size_t>(x::kMaxDecompressedBytes) + 16 : in.size(), "x::read");
  }
  for (const x::Mesh& m : d->meshes) {
    if (x::index_total(m.face_sizes) != m.face_indices.size()) return "x::read: face sizes do not add up to the indices";
    if (x::index_total(m.normal_face_sizes) != m.normal_face_indices.size())
      return "x::read: normal face sizes do not add up to the normal indices";
    for (std::int32_t i : m.materials)
      if (i < -1 || i >= static_cast<std::int32_t>(d->materials.size())) return "x::read: material list index out of range";
  }
  auto v = model::from_x(*d);
  if (!v) return v.error().code == ErrorCode::limit_exceeded ? std::string() : "model::from_x failed: " + describe(v.error());
  std::uint64_t sum = 0;
  for (const model::Material& mat : v->materials) {
    if (mat.first_index != sum || mat.index_count % 3 != 0) return "model::from_x: material ranges not contiguous";
    sum += mat.index_count;
  }
  if (sum != v->faces.size()) return "model::from_x: material ranges do not cover the faces";
  for (std::uint32_t i : v->faces)
    if (i >= v->vertices.size()) return "model::from_x: face index out of range";
  if (!v->vertex_colors.empty() && v->vertex_colors.size() != v->vertices.size())
    return "model::from_x: vertex colours not one per vertex";
  return {};
}

// .vac: read fails with a well-formed error, or succeeds with the six fields; the placement
// matrix of finite values is finite.
std::string check_vac(ByteSpan in) {
  auto a = vac::read(in);
  if (!a) return check_error(a.error(), in.size(), "vac::read");
  if (a->x_file.empty()) return "vac::read: empty .x file accepted";
  bool finite = std::isfinite(a->scale);
  for (float f : a->position) finite = finite && std::isfinite(f);
  for (float f : a->rotation_degrees) finite = finite && std::isfinite(f) && std::abs(f) < 1e6f;
  if (finite && std::abs(a->scale) < 1e6f) {
    const Mat4 m = vac::placement_matrix(*a);
    for (float f : m)
      if (!std::isfinite(f)) return "vac::placement_matrix: non-finite element from finite values";
  }
  return {};
}

// ---------------------------------------------------------------------------------------- PMM

/// Version 1 projects need their models' counts: the fuzz input's own choice, from its size (so
/// that the seeds written with sample counts 3 / 2 / 1 parse, and others explore other counts).
pmm::ReadOptions pmm_options(std::size_t size) {
  pmm::ReadOptions o;
  o.model_counts = [size](const pmm::ModelRef&) {
    return std::optional<pmm::ModelCounts>(size % 7 == 0 ? pmm::ModelCounts{0, 0, 0} : pmm::ModelCounts{3, 2, 1});
  };
  return o;
}

std::string check_pmm(ByteSpan in) {
  auto r = pmm::read(in, pmm_options(in.size()));
  if (!r) return check_error(r.error(), in.size(), "pmm::read");
  (void)pmm::check(r->document);
  auto w = pmm::write(r->document);
  if (!w) return "pmm::write of a parsed project failed: " + describe(w.error());
  if (auto f = compare(in, *w, "pmm read->write"); !f.empty()) return f;
  auto back = pmm::from_json(pmm::to_json(r->document));
  if (!back) return "pmm: from_json(to_json(project)) failed: " + describe(back.error());
  auto w2 = pmm::write(*back);
  if (!w2) return "pmm: write(from_json(to_json(project))) failed: " + describe(w2.error());
  return compare(in, *w2, "pmm: write(from_json(to_json(project)))");
}

constexpr Target kTargets[] = {
    {"vmd", check_vmd},           {"pmd", check_pmd},           {"pmx", check_pmx},
    {"vpd", check_vpd},           {"vmd_json", check_vmd_json}, {"pmd_json", check_pmd_json},
    {"pmx_json", check_pmx_json}, {"x", check_x}, {"vac", check_vac},
    {"pmm", check_pmm},
#ifdef MMDKIT_FUZZ_HAVE_VPD_JSON
    {"vpd_json", check_vpd_json},
#endif
#ifdef MMDKIT_FUZZ_HAVE_PHYSICS
    {"physics", check_physics},
#endif
};

}  // namespace

std::span<const Target> targets() { return kTargets; }

const Target* find_target(std::string_view name) {
  if (name.starts_with("fuzz_")) name.remove_prefix(5);
  for (const Target& t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

int run_one(std::string_view target, const std::uint8_t* data, std::size_t size) {
  const Target* t = find_target(target);
  if (!t) {
    std::fprintf(stderr, "mmdkit fuzz: unknown target %.*s\n", static_cast<int>(target.size()), target.data());
    std::abort();
  }
  std::string finding = t->check(ByteSpan(data, size));
  if (!finding.empty()) {
    std::fprintf(stderr, "\nmmdkit fuzz finding (%.*s, %zu-byte input): %s\n", static_cast<int>(target.size()),
                 target.data(), size, finding.c_str());
    std::abort();
  }
  return 0;
}

}  // namespace mmdkit::fuzz

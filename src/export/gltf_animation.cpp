// mmdkit — glTF export: the animation (bone channels, morph weights, camera) from samples.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "export/gltf_internal.hpp"

namespace mmdkit::exporter::gltf {

namespace {

struct Builder {
  Document& doc;
  const std::vector<float>& times;
  Value samplers{rapidjson::kArrayType};
  Value channels{rapidjson::kArrayType};
  int time_all = -1;  // the time accessor of every sample

  // A channel with all samples, or only `kept` ones (their own time accessor).
  void channel_values(int node, const char* path, const std::vector<float>& values, std::size_t width,
                      const char* type, int comps, const std::vector<std::uint32_t>* kept) {
    if (kept == nullptr || kept->size() == times.size()) {
      const std::size_t count = values.size() / static_cast<std::size_t>(comps);
      channel(node, path, time_all, doc.add_accessor(values.data(), count, kFloat, type, comps, 0, false));
      return;
    }
    std::vector<float> t, v;
    for (std::uint32_t k : *kept) {
      t.push_back(times[k]);
      v.insert(v.end(), values.begin() + static_cast<std::ptrdiff_t>(k * width),
               values.begin() + static_cast<std::ptrdiff_t>((k + 1) * width));
    }
    const int input = doc.add_accessor(t.data(), t.size(), kFloat, "SCALAR", 1, 0, true);
    channel(node, path, input, doc.add_accessor(v.data(), v.size() / static_cast<std::size_t>(comps), kFloat, type, comps, 0, false));
  }

  void channel(int node, const char* path, int input, int output, const char* interpolation = "LINEAR") {
    auto& a = doc.alloc();
    Value smp(rapidjson::kObjectType);
    smp.AddMember("input", input, a);
    smp.AddMember("output", output, a);
    smp.AddMember("interpolation", Value(rapidjson::StringRef(interpolation)), a);
    samplers.PushBack(smp, a);
    Value ch(rapidjson::kObjectType);
    ch.AddMember("sampler", static_cast<int>(samplers.Size()) - 1, a);
    Value target(rapidjson::kObjectType);
    target.AddMember("node", node, a);
    target.AddMember("path", Value(rapidjson::StringRef(path)), a);
    ch.AddMember("target", target, a);
    channels.PushBack(ch, a);
  }
};

// Keeps q and −q consistent from sample to sample (the shorter arc for linear interpolation).
void continuous(std::vector<float>& quats) {
  for (std::size_t i = 4; i + 4 <= quats.size(); i += 4) {
    const float d = quats[i] * quats[i - 4] + quats[i + 1] * quats[i - 3] + quats[i + 2] * quats[i - 2] +
                    quats[i + 3] * quats[i - 1];
    if (d < 0)
      for (int c = 0; c < 4; ++c) quats[i + static_cast<std::size_t>(c)] = -quats[i + static_cast<std::size_t>(c)];
  }
}

Quat normalized(const Quat& q) {
  const double x = static_cast<double>(q[0]), y = static_cast<double>(q[1]);
  const double z = static_cast<double>(q[2]), w = static_cast<double>(q[3]);
  const double n = std::sqrt(x * x + y * y + z * z + w * w);
  if (!(n > 1e-20) || !std::isfinite(n)) return kIdentityQuat;
  return {static_cast<float>(x / n), static_cast<float>(y / n), static_cast<float>(z / n), static_cast<float>(w / n)};
}

// Keyframe reduction (Douglas–Peucker on uniform samples): keeps the first and last sample and
// splits a segment at its worst sample while the error of interpolating between its ends exceeds
// `tol`. err(i, j, k) = error at sample k when only i and j are kept. Returns the kept indices,
// increasing, and the largest error left in `worst`.
template <class Err>
std::vector<std::uint32_t> reduce(std::size_t n, double tol, Err err, double& worst) {
  std::vector<std::uint8_t> keep(n, 0);
  keep[0] = keep[n - 1] = 1;
  std::vector<std::pair<std::size_t, std::size_t>> stack{{0, n - 1}};
  while (!stack.empty()) {
    const auto [i, j] = stack.back();
    stack.pop_back();
    double e = -1;
    std::size_t at = i;
    for (std::size_t k = i + 1; k < j; ++k) {
      const double x = err(i, j, k);
      if (x > e) {
        e = x;
        at = k;
      }
    }
    if (at == i) continue;
    if (e > tol) {
      keep[at] = 1;
      stack.emplace_back(i, at);
      stack.emplace_back(at, j);
    } else {
      worst = std::max(worst, e);
    }
  }
  std::vector<std::uint32_t> kept;
  for (std::size_t k = 0; k < n; ++k)
    if (keep[k]) kept.push_back(static_cast<std::uint32_t>(k));
  return kept;
}

double vec_error(const std::vector<float>& v, int comps, std::size_t i, std::size_t j, std::size_t k) {
  const double t = static_cast<double>(k - i) / static_cast<double>(j - i);
  double d2 = 0;
  for (int c = 0; c < comps; ++c) {
    const auto uc = static_cast<std::size_t>(c), w = static_cast<std::size_t>(comps);
    const double a = static_cast<double>(v[i * w + uc]), b = static_cast<double>(v[j * w + uc]);
    const double x = static_cast<double>(v[k * w + uc]);
    const double d = a + (b - a) * t - x;
    d2 += d * d;
  }
  return std::sqrt(d2);
}

double max_abs_error(const std::vector<float>& v, std::size_t width, std::size_t i, std::size_t j, std::size_t k) {
  const double t = static_cast<double>(k - i) / static_cast<double>(j - i);
  double e = 0;
  for (std::size_t c = 0; c < width; ++c) {
    const double a = static_cast<double>(v[i * width + c]), b = static_cast<double>(v[j * width + c]);
    const double x = static_cast<double>(v[k * width + c]);
    e = std::max(e, std::abs(a + (b - a) * t - x));
  }
  return e;
}

// Degrees between slerp(q_i, q_j, t) and q_k.
double rot_error(const std::vector<float>& q, std::size_t i, std::size_t j, std::size_t k) {
  const auto at = [&](std::size_t s) { return Quat{q[s * 4], q[s * 4 + 1], q[s * 4 + 2], q[s * 4 + 3]}; };
  const float t = static_cast<float>(k - i) / static_cast<float>(j - i);
  const Quat r = quat_slerp(at(i), at(j), t);
  return static_cast<double>(quat_angle_between(r, at(k))) * 180.0 / 3.14159265358979323846;
}

Error bad(std::string why) {
  Error e;
  e.code = ErrorCode::invalid_argument;
  e.message = "glTF animation: " + std::move(why);
  return e;
}

}  // namespace

Result<void> write_animation(Document& doc, const model::Model& model, const MeshParts& parts,
                             const GltfAnimation& an, const GltfOptions& options, GltfReduction& stats) {
  const std::size_t ns = an.sample_count, nb = model.bones.size(), nm = model.morphs.size();
  if (ns == 0) return {};
  if (!(an.fps > 0) || !std::isfinite(an.fps)) return std::unexpected(bad("fps must be > 0"));
  if (an.translations.size() != ns * nb || an.rotations.size() != ns * nb)
    return std::unexpected(bad("translations / rotations need sample_count x bone count entries"));
  if (!an.morph_weights.empty() && an.morph_weights.size() != ns * nm)
    return std::unexpected(bad("morph_weights need sample_count x morph count entries"));
  const bool camera = !an.camera_positions.empty();
  if (camera && (an.camera_positions.size() != ns || an.camera_rotations.size() != ns || an.camera_fov.size() != ns))
    return std::unexpected(bad("camera arrays need sample_count entries each"));
  auto& a = doc.alloc();
  std::vector<float> times(ns);
  for (std::size_t i = 0; i < ns; ++i) times[i] = static_cast<float>(static_cast<double>(i) / an.fps);
  Builder b{doc, times};
  b.time_all = doc.add_accessor(times.data(), ns, kFloat, "SCALAR", 1, 0, true);
  const float s = options.scale;
  const bool reducing = an.reduce_tolerance > 0 || an.reduce_tolerance_degrees > 0 || an.reduce_tolerance_weight > 0;
  stats.keys_before = stats.keys_after = 0;
  auto reduced = [&](std::size_t n, double tol, auto err, double& worst) -> std::optional<std::vector<std::uint32_t>> {
    stats.keys_before += n;
    if (!reducing || n < 3) {
      stats.keys_after += n;
      return std::nullopt;
    }
    auto k = reduce(n, tol, err, worst);
    stats.keys_after += k.size();
    return k;
  };

  // Translation (glTF metres; tolerance and errors in MMD units) and rotation channels of a node.
  auto trs = [&](int node, const std::vector<float>& t, std::vector<float>& r) {
    continuous(r);
    const auto kt = reduced(ns, static_cast<double>(an.reduce_tolerance),
                            [&](std::size_t i, std::size_t j, std::size_t k) { return vec_error(t, 3, i, j, k) / static_cast<double>(s); },
                            stats.max_translation);
    const auto kr = reduced(ns, static_cast<double>(an.reduce_tolerance_degrees),
                            [&](std::size_t i, std::size_t j, std::size_t k) { return rot_error(r, i, j, k); },
                            stats.max_degrees);
    b.channel_values(node, "translation", t, 3, "VEC3", 3, kt ? &*kt : nullptr);
    b.channel_values(node, "rotation", r, 4, "VEC4", 4, kr ? &*kr : nullptr);
  };

  for (std::size_t bone = 0; bone < nb; ++bone) {
    std::vector<float> t(ns * 3), r(ns * 4);
    for (std::size_t i = 0; i < ns; ++i) {
      const Vec3& x = an.translations[i * nb + bone];
      const Quat q = to_gltf_quat(normalized(an.rotations[i * nb + bone]));
      if (!std::isfinite(x[0]) || !std::isfinite(x[1]) || !std::isfinite(x[2]))
        return std::unexpected(bad("non-finite translation of bone " + std::to_string(bone) + " at sample " + std::to_string(i)));
      const Vec3 g = to_gltf_point(x, s);
      std::copy(g.begin(), g.end(), t.begin() + static_cast<std::ptrdiff_t>(i * 3));
      std::copy(q.begin(), q.end(), r.begin() + static_cast<std::ptrdiff_t>(i * 4));
    }
    trs(parts.first_bone_node + static_cast<int>(bone), t, r);
  }

  const std::size_t nt = parts.target_morphs.size();
  if (!an.morph_weights.empty() && nt > 0 && parts.mesh_node >= 0) {
    std::vector<float> w(ns * nt);
    for (std::size_t i = 0; i < ns; ++i)
      for (std::size_t k = 0; k < nt; ++k) {
        const float x = an.morph_weights[i * nm + parts.target_morphs[k]];
        w[i * nt + k] = std::isfinite(x) ? x : 0.0f;
      }
    const auto kw = reduced(ns, static_cast<double>(an.reduce_tolerance_weight),
                            [&](std::size_t i, std::size_t j, std::size_t k) { return max_abs_error(w, nt, i, j, k); },
                            stats.max_weight);
    b.channel_values(parts.mesh_node, "weights", w, nt, "SCALAR", 1, kw ? &*kw : nullptr);
  }

  if (camera) {
    Value cam(rapidjson::kObjectType);
    cam.AddMember("name", "MMD camera", a);
    cam.AddMember("type", "perspective", a);
    Value per(rapidjson::kObjectType);
    const float fov = an.camera_fov[0];
    per.AddMember("yfov", std::isfinite(fov) && fov > 0 ? fov : 0.5235988f, a);
    per.AddMember("znear", 0.1f * s, a);
    per.AddMember("zfar", 10000.0f * s, a);
    cam.AddMember("perspective", per, a);
    doc.cameras().PushBack(cam, a);
    Value node(rapidjson::kObjectType);
    node.AddMember("name", "MMD camera", a);
    node.AddMember("camera", static_cast<int>(doc.cameras().Size()) - 1, a);
    doc.nodes().PushBack(node, a);
    const int cnode = static_cast<int>(doc.nodes().Size()) - 1;
    doc.scene_nodes().PushBack(cnode, a);
    std::vector<float> t(ns * 3), r(ns * 4);
    for (std::size_t i = 0; i < ns; ++i) {
      const Vec3 g = to_gltf_point(an.camera_positions[i], s);
      // MMD camera looks along its local +Z (MMD space); mirrored, that is glTF's local −Z.
      const Quat q = to_gltf_quat(normalized(an.camera_rotations[i]));
      std::copy(g.begin(), g.end(), t.begin() + static_cast<std::ptrdiff_t>(i * 3));
      std::copy(q.begin(), q.end(), r.begin() + static_cast<std::ptrdiff_t>(i * 4));
    }
    trs(cnode, t, r);
  }

  if (b.channels.Empty()) return {};  // no bone, no target, no camera: glTF forbids an empty animation
  Value anim(rapidjson::kObjectType);
  anim.AddMember("name", doc.str(an.name), a);
  anim.AddMember("channels", b.channels, a);
  anim.AddMember("samplers", b.samplers, a);
  Value ex(rapidjson::kObjectType);
  Value mmd(rapidjson::kObjectType);
  mmd.AddMember("fps", an.fps, a);
  if (reducing) {
    Value red(rapidjson::kObjectType);
    red.AddMember("keysBefore", static_cast<std::uint64_t>(stats.keys_before), a);
    red.AddMember("keysAfter", static_cast<std::uint64_t>(stats.keys_after), a);
    red.AddMember("maxTranslationError", stats.max_translation, a);
    red.AddMember("maxRotationErrorDegrees", stats.max_degrees, a);
    red.AddMember("maxWeightError", stats.max_weight, a);
    mmd.AddMember("reduction", red, a);
  }
  ex.AddMember("mmd", mmd, a);
  anim.AddMember("extras", ex, a);
  doc.animations().PushBack(anim, a);
  return {};
}

}  // namespace mmdkit::exporter::gltf

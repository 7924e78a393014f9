// mmdkit — glTF export: the animation (bone channels, morph weights, camera) from samples.
#include <algorithm>
#include <cmath>

#include "export/gltf_internal.hpp"

namespace mmdkit::exporter::gltf {

namespace {

struct Builder {
  Document& doc;
  Value samplers{rapidjson::kArrayType};
  Value channels{rapidjson::kArrayType};
  int time_all = -1;  // the time accessor of every sample

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

anim::Quat normalized(const anim::Quat& q) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  const double n = std::sqrt(x * x + y * y + z * z + w * w);
  if (!(n > 1e-20) || !std::isfinite(n)) return anim::kIdentityQuat;
  return {static_cast<float>(x / n), static_cast<float>(y / n), static_cast<float>(z / n), static_cast<float>(w / n)};
}

Error bad(std::string why) {
  Error e;
  e.code = ErrorCode::invalid_argument;
  e.message = "glTF animation: " + std::move(why);
  return e;
}

}  // namespace

Result<void> write_animation(Document& doc, const model::Model& model, const MeshParts& parts,
                             const GltfAnimation& an, const GltfOptions& options) {
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
  Builder b{doc};
  std::vector<float> times(ns);
  for (std::size_t i = 0; i < ns; ++i) times[i] = static_cast<float>(static_cast<double>(i) / an.fps);
  b.time_all = doc.add_accessor(times.data(), ns, kFloat, "SCALAR", 1, 0, true);
  const float s = options.scale;

  for (std::size_t bone = 0; bone < nb; ++bone) {
    std::vector<float> t(ns * 3), r(ns * 4);
    for (std::size_t i = 0; i < ns; ++i) {
      const anim::Vec3& x = an.translations[i * nb + bone];
      const anim::Quat q = to_gltf_quat(normalized(an.rotations[i * nb + bone]));
      if (!std::isfinite(x[0]) || !std::isfinite(x[1]) || !std::isfinite(x[2]))
        return std::unexpected(bad("non-finite translation of bone " + std::to_string(bone) + " at sample " + std::to_string(i)));
      const anim::Vec3 g = to_gltf_point(x, s);
      std::copy(g.begin(), g.end(), t.begin() + static_cast<std::ptrdiff_t>(i * 3));
      std::copy(q.begin(), q.end(), r.begin() + static_cast<std::ptrdiff_t>(i * 4));
    }
    continuous(r);
    const int node = parts.first_bone_node + static_cast<int>(bone);
    b.channel(node, "translation", b.time_all, doc.add_accessor(t.data(), ns, kFloat, "VEC3", 3, 0, false));
    b.channel(node, "rotation", b.time_all, doc.add_accessor(r.data(), ns, kFloat, "VEC4", 4, 0, false));
  }

  const std::size_t nt = parts.target_morphs.size();
  if (!an.morph_weights.empty() && nt > 0 && parts.mesh_node >= 0) {
    std::vector<float> w(ns * nt);
    for (std::size_t i = 0; i < ns; ++i)
      for (std::size_t k = 0; k < nt; ++k) {
        const float x = an.morph_weights[i * nm + parts.target_morphs[k]];
        w[i * nt + k] = std::isfinite(x) ? x : 0.0f;
      }
    b.channel(parts.mesh_node, "weights", b.time_all, doc.add_accessor(w.data(), ns * nt, kFloat, "SCALAR", 1, 0, false));
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
      const anim::Vec3 g = to_gltf_point(an.camera_positions[i], s);
      // MMD camera looks along its local +Z (MMD space); mirrored, that is glTF's local −Z.
      const anim::Quat q = to_gltf_quat(normalized(an.camera_rotations[i]));
      std::copy(g.begin(), g.end(), t.begin() + static_cast<std::ptrdiff_t>(i * 3));
      std::copy(q.begin(), q.end(), r.begin() + static_cast<std::ptrdiff_t>(i * 4));
    }
    continuous(r);
    b.channel(cnode, "translation", b.time_all, doc.add_accessor(t.data(), ns, kFloat, "VEC3", 3, 0, false));
    b.channel(cnode, "rotation", b.time_all, doc.add_accessor(r.data(), ns, kFloat, "VEC4", 4, 0, false));
  }

  Value anim(rapidjson::kObjectType);
  anim.AddMember("name", doc.str(an.name), a);
  anim.AddMember("channels", b.channels, a);
  anim.AddMember("samplers", b.samplers, a);
  Value ex(rapidjson::kObjectType);
  Value mmd(rapidjson::kObjectType);
  mmd.AddMember("fps", an.fps, a);
  ex.AddMember("mmd", mmd, a);
  anim.AddMember("extras", ex, a);
  doc.animations().PushBack(anim, a);
  return {};
}

}  // namespace mmdkit::exporter::gltf

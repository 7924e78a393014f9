// mmdkit — structural checks of PMD models (cross references, counts, value ranges).
#include <map>
#include <string>
#include <vector>

#include "mmdkit/formats/pmd.hpp"
#include "pmd_internal.hpp"

namespace mmdkit::pmd {
namespace {

class Sink {
 public:
  explicit Sink(std::size_t max) : max_(max) {}

  void add(bool error, const char* kind, std::string message, const char* section, std::size_t record,
           std::size_t offset) {
    Kind& k = kinds_[kind];
    k.error = error;
    k.section = section;
    if (++k.count > max_) return;
    out_.push_back(CheckFinding{error, Error{ErrorCode::invalid_value, std::move(message), section,
                                             static_cast<std::int64_t>(record), static_cast<std::int64_t>(offset), {}}});
  }
  void add_whole(bool error, std::string message, const char* section, std::int64_t offset) {
    out_.push_back(CheckFinding{error, Error{ErrorCode::invalid_value, std::move(message), section, -1, offset, {}}});
  }

  std::vector<CheckFinding> finish() {
    for (auto& [name, k] : kinds_)
      if (k.count > max_)
        out_.push_back(CheckFinding{k.error, Error{ErrorCode::invalid_value,
                                                   std::to_string(k.count - max_) + " more: " + name, k.section, -1,
                                                   -1, {}}});
    return std::move(out_);
  }

 private:
  struct Kind {
    bool error = false;
    const char* section = "";
    std::size_t count = 0;
  };
  std::size_t max_;
  std::map<std::string, Kind> kinds_;
  std::vector<CheckFinding> out_;
};

std::string idx(std::size_t v) { return std::to_string(v); }

}  // namespace

std::vector<CheckFinding> check(const Model& m, std::size_t max_per_kind) {
  Sink s(max_per_kind);
  const std::size_t nv = m.vertices.size(), nb = m.bones.size(), nm = m.morphs.size(), nf = m.bone_frames.size();
  auto bone_ok = [&](std::uint16_t b) { return b < nb; };

  // Section offsets of the layout `write` produces.
  const std::size_t v0 = kHeaderSize;
  const std::size_t f0 = v0 + 4 + kVertexSize * nv;
  const std::size_t m0 = f0 + 4 + 2 * m.indices.size();
  const std::size_t b0 = m0 + 4 + kMaterialSize * m.materials.size();
  const std::size_t k0 = b0 + 2 + kBoneSize * nb;

  for (std::size_t i = 0; i < nv; ++i) {
    const Vertex& v = m.vertices[i];
    const std::size_t at = v0 + 4 + kVertexSize * i;
    for (int j = 0; j < 2; ++j)
      if (!bone_ok(v.bones[static_cast<std::size_t>(j)]))
        s.add(true, "vertex bone out of range", "vertex bone " + idx(v.bones[static_cast<std::size_t>(j)]) +
                                                    " is out of range (" + idx(nb) + " bones)",
              kSecVertices, i, at + 32 + 2 * static_cast<std::size_t>(j));
    if (v.weight > 100)
      s.add(false, "vertex weight above 100", "weight " + idx(v.weight) + " is above 100", kSecVertices, i, at + 36);
  }

  if (m.indices.size() % 3 != 0)
    s.add_whole(true, "face index count " + idx(m.indices.size()) + " is not a multiple of 3", kSecFaces,
                static_cast<std::int64_t>(f0));
  for (std::size_t i = 0; i < m.indices.size(); ++i)
    if (m.indices[i] >= nv)
      s.add(true, "face index out of range",
            "face index " + idx(m.indices[i]) + " is out of range (" + idx(nv) + " vertices)", kSecFaces, i,
            f0 + 4 + 2 * i);

  std::uint64_t drawn = 0;
  for (std::size_t i = 0; i < m.materials.size(); ++i) {
    const Material& x = m.materials[i];
    const std::size_t at = m0 + 4 + kMaterialSize * i;
    drawn += x.index_count;
    if (x.index_count % 3 != 0)
      s.add(false, "material face count not a multiple of 3",
            "face index count " + idx(x.index_count) + " is not a multiple of 3", kSecMaterials, i, at + 46);
    if (x.toon_index > 9 && x.toon_index != kNoToon)
      s.add(false, "material toon index", "toon index " + idx(x.toon_index) + " is neither 0..9 nor 255 (none)",
            kSecMaterials, i, at + 44);
  }
  if (drawn != m.indices.size())
    s.add_whole(true,
                "materials draw " + std::to_string(drawn) + " face indices, the model has " + idx(m.indices.size()),
                kSecMaterials, static_cast<std::int64_t>(m0));

  for (std::size_t i = 0; i < nb; ++i) {
    const Bone& b = m.bones[i];
    const std::size_t at = b0 + 2 + kBoneSize * i;
    if (b.parent != kNoBone && !bone_ok(b.parent))
      s.add(true, "bone parent out of range", "parent " + idx(b.parent) + " is out of range (" + idx(nb) + " bones)",
            kSecBones, i, at + 20);
    if (b.type > 9) s.add(false, "bone type", "bone type " + idx(b.type) + " is not 0..9", kSecBones, i, at + 24);
    if (b.type != 9 && b.tail != 0 && b.tail != kNoBone && !bone_ok(b.tail))
      s.add(false, "bone tail out of range", "tail " + idx(b.tail) + " is out of range (" + idx(nb) + " bones)",
            kSecBones, i, at + 22);
    // Parent cycle: walk at most nb steps up.
    std::size_t p = b.parent, steps = 0;
    while (p != kNoBone && p < nb && steps <= nb) {
      if (p == i) {
        s.add(true, "bone parent cycle", "bone is its own ancestor", kSecBones, i, at + 20);
        break;
      }
      p = m.bones[p].parent;
      ++steps;
    }
  }

  std::size_t at = k0 + 2;
  for (std::size_t i = 0; i < m.ik_chains.size(); ++i) {
    const IkChain& k = m.ik_chains[i];
    if (!bone_ok(k.target))
      s.add(true, "IK bone out of range", "IK target bone " + idx(k.target) + " is out of range", kSecIk, i, at);
    if (!bone_ok(k.effector))
      s.add(true, "IK bone out of range", "IK effector bone " + idx(k.effector) + " is out of range", kSecIk, i, at + 2);
    for (std::size_t j = 0; j < k.links.size(); ++j)
      if (!bone_ok(k.links[j]))
        s.add(true, "IK bone out of range", "IK link " + idx(j) + " bone " + idx(k.links[j]) + " is out of range",
              kSecIk, i, at + kIkChainMinSize + 2 * j);
    at += kIkChainMinSize + 2 * k.links.size();
  }

  const std::size_t base_size = nm && m.morphs[0].type == 0 ? m.morphs[0].offsets.size() : 0;
  if (nm && m.morphs[0].type != 0)
    s.add(false, "first morph not base", "the first morph has type " + idx(m.morphs[0].type) + ", not 0 (base)",
          kSecMorphs, 0, at + 2 + kNameSize + 4);
  at += 2;
  for (std::size_t i = 0; i < nm; ++i) {
    const Morph& x = m.morphs[i];
    if (x.type > 4) s.add(false, "morph type", "morph type " + idx(x.type) + " is not 0..4", kSecMorphs, i, at + 24);
    if (i > 0 && x.type == 0)
      s.add(false, "second base morph", "a morph after the first has type 0 (base)", kSecMorphs, i, at + 24);
    for (std::size_t j = 0; j < x.offsets.size(); ++j) {
      const std::uint32_t v = x.offsets[j].vertex;
      const std::size_t o = at + kMorphMinSize + kMorphOffsetSize * j;
      if (x.type == 0 && i == 0 && v >= nv)
        s.add(true, "base morph vertex out of range",
              "offset " + idx(j) + ": vertex " + std::to_string(v) + " is out of range (" + idx(nv) + " vertices)",
              kSecMorphs, i, o);
      else if (i > 0 && v >= base_size)
        s.add(true, "morph offset beyond base",
              "offset " + idx(j) + ": base index " + std::to_string(v) + " is beyond the base morph (" +
                  idx(base_size) + " entries)",
              kSecMorphs, i, o);
    }
    at += kMorphMinSize + kMorphOffsetSize * x.offsets.size();
  }

  const std::size_t d0 = at;
  for (std::size_t i = 0; i < m.morph_display.size(); ++i) {
    const std::uint16_t x = m.morph_display[i];
    if (x >= nm)
      s.add(true, "morph display out of range", "morph " + idx(x) + " is out of range (" + idx(nm) + " morphs)",
            kSecMorphDisplay, i, d0 + 1 + 2 * i);
    else if (x == 0 && nm && m.morphs[0].type == 0)
      s.add(false, "morph display names base", "the base morph is listed for display", kSecMorphDisplay, i,
            d0 + 1 + 2 * i);
  }
  const std::size_t bd0 = d0 + 1 + 2 * m.morph_display.size() + 1 + kFrameNameSize * nf;
  for (std::size_t i = 0; i < m.bone_display.size(); ++i) {
    const BoneDisplay& d = m.bone_display[i];
    const std::size_t o = bd0 + 4 + kBoneDisplaySize * i;
    if (!bone_ok(d.bone))
      s.add(true, "display bone out of range", "bone " + idx(d.bone) + " is out of range", kSecBoneDisplay, i, o);
    if (d.frame == 0 || d.frame > nf)
      s.add(false, "display frame out of range", "frame " + idx(d.frame) + " is not 1.." + idx(nf), kSecBoneDisplay, i,
            o + 2);
  }

  std::size_t r0 = bd0 + 4 + kBoneDisplaySize * m.bone_display.size();
  if (m.tail >= Tail::english) {
    r0 += 1;
    if (m.english)
      r0 += kNameSize + kCommentSize + kNameSize * (nb + (nm ? nm - 1 : 0)) + kFrameNameSize * nf;
  }
  if (m.tail >= Tail::toon_textures) r0 += kToonCount * kToonNameSize;
  for (std::size_t i = 0; i < m.rigid_bodies.size(); ++i) {
    const RigidBody& b = m.rigid_bodies[i];
    const std::size_t o = r0 + 4 + kRigidBodySize * i;
    if (b.bone != kNoBone && !bone_ok(b.bone))
      s.add(true, "rigid body bone out of range", "bone " + idx(b.bone) + " is out of range (" + idx(nb) + " bones)",
            kSecRigidBodies, i, o + 20);
    if (b.group > 15) s.add(false, "rigid body group", "group " + idx(b.group) + " is not 0..15", kSecRigidBodies, i, o + 22);
    if (b.shape > 2) s.add(false, "rigid body shape", "shape " + idx(b.shape) + " is not 0..2", kSecRigidBodies, i, o + 25);
    if (b.mode > 2) s.add(false, "rigid body mode", "mode " + idx(b.mode) + " is not 0..2", kSecRigidBodies, i, o + 82);
  }
  const std::size_t j0 = r0 + 4 + kRigidBodySize * m.rigid_bodies.size();
  for (std::size_t i = 0; i < m.joints.size(); ++i) {
    const Joint& j = m.joints[i];
    const std::size_t o = j0 + 4 + kJointSize * i;
    if (j.rigid_a >= m.rigid_bodies.size())
      s.add(true, "joint rigid body out of range", "rigid body A " + std::to_string(j.rigid_a) + " is out of range",
            kSecJoints, i, o + 20);
    if (j.rigid_b >= m.rigid_bodies.size())
      s.add(true, "joint rigid body out of range", "rigid body B " + std::to_string(j.rigid_b) + " is out of range",
            kSecJoints, i, o + 24);
  }
  return s.finish();
}

}  // namespace mmdkit::pmd

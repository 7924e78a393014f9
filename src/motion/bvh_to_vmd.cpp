// mmdkit motion — a BVH retargeted onto an MMD model as a VMD (motion/bvh.hpp bvh_to_vmd; rules in
// docs/BVH.md "Reading onto a model"). The keys are found by evaluating them through
// anim::Character (IK off) and correcting them until the evaluated model-space rotations and
// positions are the wanted ones, so append bones, fixed axes and bind offsets are MMD's own.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/bvh.hpp"
#include "motion/dmath.hpp"
#include "motion/key_fit.hpp"

namespace mmdkit::motion {
namespace {

struct Keyed {
  std::size_t bone = 0;
  key_fit::Target target = key_fit::Target::rotation;
  std::int32_t joint = -1;  // BVH joint (rotation targets; IK bones whose effector is mapped: its joint)
  bool position = false;    // rotation target that also follows the joint's world position
  dm::Q correction = dm::kIdentity;  // C: model rest direction → BVH rest direction
};

std::int32_t bone_named(const model::Model& m, std::string_view name) {
  for (std::size_t i = 0; i < m.bones.size(); ++i)
    if (m.bones[i].name == name) return static_cast<std::int32_t>(i);
  return -1;
}

// The map resolved: per model bone, the BVH joint it follows (−1: none); IK bones apart.
struct JointsOf {
  std::vector<std::int32_t> joint, ik_joint;
};

Result<JointsOf> map_joints(const Bvh& bvh, const model::Model& m, const BvhBoneMap& map, const BvhImportOptions& o,
                            bool identity, BvhImportReport& rep) {
  const std::size_t n = m.bones.size();
  std::map<std::string, std::int32_t> joint_index;
  for (std::size_t j = 0; j < bvh.joints.size(); ++j) joint_index.emplace(bvh.joints[j].name, static_cast<std::int32_t>(j));
  JointsOf jo;
  std::vector<std::int32_t>& joint_of = jo.joint;
  std::vector<std::int32_t>& ik_joint_of = jo.ik_joint;
  joint_of.assign(n, -1);
  ik_joint_of.assign(n, -1);
  for (std::size_t pi = 0; pi < map.pairs.size(); ++pi) {
    const auto& [jn, bn] = map.pairs[pi];
    const std::int32_t b = bone_named(m, bn);
    if (b < 0) {
      Error e{ErrorCode::invalid_value, "the map names bone '" + bn + "', which the model does not have", "map", -1, -1, {}};
      if (pi < map.lines.size()) e.line = map.lines[pi];
      return std::unexpected(std::move(e));
    }
    auto it = joint_index.find(jn);
    if (it == joint_index.end()) {
      rep.unmatched_joints.push_back(jn);
      continue;
    }
    // IK bones: placed by the leg IK rule (without it, the model's own BVH keys them as it says)
    if (m.bones[static_cast<std::size_t>(b)].is_ik && (o.leg_ik || !identity)) {
      ik_joint_of[static_cast<std::size_t>(b)] = it->second;
      continue;
    }
    joint_of[static_cast<std::size_t>(b)] = it->second;
  }
  const bool any = std::any_of(joint_of.begin(), joint_of.end(), [](std::int32_t j) { return j >= 0; });
  if (!any) return make_error(ErrorCode::invalid_value, "no pair of the map names both a BVH joint and a model bone", "map");
  return jo;
}

// The BVH's rest pose and how its positions become MMD's: its ground (the rest pose's lowest
// joint or end site) and scale (BVH units per MMD unit: the given one, else the legs' lengths).
struct BvhSpace {
  std::vector<BvhTransform> rest;
  double min_y = 0;
  double scale = 1.0;
  // A BVH position (file space) in MMD space and units; `grounded`: the rest pose's lowest point at y = 0.
  dm::V to_mmd(dm::V p, bool grounded) const {
    if (grounded) p[1] -= min_y;
    return dm::scale(dm::flip_z(p), 1.0 / scale);
  }
};

dm::V bone_position(const model::Model& m, std::int32_t b) { return dm::from_float(m.bones[static_cast<std::size_t>(b)].position); }

BvhSpace bvh_space(const Bvh& bvh, const model::Model& m, const std::vector<std::int32_t>& joint_of, const BvhImportOptions& o,
                   bool identity) {
  BvhSpace sp;
  std::vector<BvhTransform>& rest = sp.rest;
  bvh_rest_pose(bvh, rest);
  double& min_y = sp.min_y;
  for (std::size_t j = 0; j < bvh.joints.size(); ++j) {
    min_y = j ? std::min(min_y, rest[j].translation[1]) : rest[j].translation[1];
    if (bvh.joints[j].end_site)
      min_y = std::min(min_y, dm::add(rest[j].translation, *bvh.joints[j].end_site)[1]);
  }
  auto bone_pos = [&](std::int32_t b) { return bone_position(m, b); };
  double s = o.scale;
  if (!(s > 0)) {
    s = 1.0;
    if (!identity) {
      for (const char* side : {"左", "右"}) {
        const std::int32_t a = bone_named(m, std::string(side) + "足"), k = bone_named(m, std::string(side) + "ひざ"),
                           f = bone_named(m, std::string(side) + "足首");
        if (a < 0 || k < 0 || f < 0) continue;
        const std::int32_t ja = joint_of[static_cast<std::size_t>(a)], jk = joint_of[static_cast<std::size_t>(k)],
                           jf = joint_of[static_cast<std::size_t>(f)];
        if (ja < 0 || jk < 0 || jf < 0) continue;
        auto rp = [&](std::int32_t j) { return rest[static_cast<std::size_t>(j)].translation; };
        const double lb = dm::norm(dm::sub(rp(jk), rp(ja))) + dm::norm(dm::sub(rp(jf), rp(jk)));
        const double lm = dm::norm(dm::sub(bone_pos(k), bone_pos(a))) + dm::norm(dm::sub(bone_pos(f), bone_pos(k)));
        if (lb > 0 && lm > 0) {
          s = lb / lm;
          break;
        }
      }
    }
  }
  sp.scale = s;
  return sp;
}

// The keyed bones: the mapped ones (rotations, with the rest-direction correction of a retargeted
// map), センター / グルーブ for a retargeted map's hips displacement, and (leg IK) the IK bones.
struct KeyedSet {
  std::vector<Keyed> keyed;
  std::vector<std::int32_t> keyed_of;  // per model bone: its index in `keyed`, −1 if not keyed
  std::int32_t hips_joint = -1, center = -1, groove = -1;
};

KeyedSet keyed_bones(const Bvh& bvh, const model::Model& m, const std::vector<std::int32_t>& joint_of, const BvhSpace& sp,
                     const BvhImportOptions& o, bool identity, BvhImportReport& rep) {
  const std::size_t n = m.bones.size();
  const std::vector<BvhTransform>& rest = sp.rest;
  auto bone_pos = [&](std::int32_t b) { return bone_position(m, b); };
  auto to_mmd = [&](const dm::V& p, bool grounded) { return sp.to_mmd(p, grounded); };
  KeyedSet ks;
  std::vector<Keyed>& keyed = ks.keyed;
  std::vector<std::int32_t>& keyed_of = ks.keyed_of;
  keyed_of.assign(n, -1);
  // The direction bone of b: its tail bone, else the first mapped bone below it (depth-first by index).
  std::vector<std::vector<std::size_t>> children(n);
  for (std::size_t i = 0; i < n; ++i)
    if (m.bones[i].parent >= 0) children[static_cast<std::size_t>(m.bones[i].parent)].push_back(i);
  auto direction_bone = [&](std::size_t b) -> std::int32_t {
    const std::int32_t t = m.bones[b].tail_bone;
    if (t >= 0 && joint_of[static_cast<std::size_t>(t)] >= 0) return t;
    std::vector<std::size_t> stack(children[b].rbegin(), children[b].rend());
    while (!stack.empty()) {
      const std::size_t c = stack.back();
      stack.pop_back();
      if (joint_of[c] >= 0) return static_cast<std::int32_t>(c);
      for (auto it = children[c].rbegin(); it != children[c].rend(); ++it) stack.push_back(*it);
    }
    return -1;
  };
  for (std::size_t b = 0; b < n; ++b) {
    if (joint_of[b] < 0) continue;
    Keyed k;
    k.bone = b;
    k.joint = joint_of[b];
    const BvhJoint& j = bvh.joints[static_cast<std::size_t>(k.joint)];
    k.position = identity && std::any_of(j.channels.begin(), j.channels.end(), [](BvhChannel c) {
                   return c == BvhChannel::x_position || c == BvhChannel::y_position || c == BvhChannel::z_position;
                 });
    if (!identity) {
      if (const std::int32_t d = direction_bone(b); d >= 0) {
        const dm::V e = dm::sub(bone_pos(d), bone_pos(static_cast<std::int32_t>(b)));
        const dm::V dj = dm::sub(to_mmd(rest[static_cast<std::size_t>(joint_of[static_cast<std::size_t>(d)])].translation, false),
                                 to_mmd(rest[static_cast<std::size_t>(k.joint)].translation, false));
        k.correction = dm::arc(e, dj);
      }
    }
    keyed_of[b] = static_cast<std::int32_t>(keyed.size());
    keyed.push_back(k);
  }
  rep.mapped_bones = keyed.size();
  // Hips displacement → センター (XZ) and グルーブ (Y) for a retargeted map.
  std::int32_t& hips_joint = ks.hips_joint;
  std::int32_t& center = ks.center;
  std::int32_t& groove = ks.groove;
  if (!identity) {
    for (const char* hb : {"下半身", "センター"})
      if (const std::int32_t b = bone_named(m, hb); b >= 0 && joint_of[static_cast<std::size_t>(b)] >= 0) {
        hips_joint = joint_of[static_cast<std::size_t>(b)];
        break;
      }
    if (hips_joint < 0) hips_joint = 0;
    center = bone_named(m, "センター");
    groove = bone_named(m, "グルーブ");
    for (std::int32_t b : {center, groove}) {
      if (b < 0) continue;
      if (keyed_of[static_cast<std::size_t>(b)] >= 0) continue;  // mapped: its translation is added below
      Keyed k;
      k.bone = static_cast<std::size_t>(b);
      k.target = key_fit::Target::fixed_translation;
      keyed_of[static_cast<std::size_t>(b)] = static_cast<std::int32_t>(keyed.size());
      keyed.push_back(k);
    }
  }
  std::vector<std::size_t> ik_bones;
  if (o.leg_ik) {
    for (const model::IkChain& c : m.ik_chains) {
      const auto b = static_cast<std::size_t>(c.ik_bone);
      if (keyed_of[b] >= 0) continue;
      Keyed k;
      k.bone = b;
      k.target = key_fit::Target::ik;
      k.joint = identity ? -1 : joint_of[static_cast<std::size_t>(c.effector)];
      keyed_of[b] = static_cast<std::int32_t>(keyed.size());
      keyed.push_back(k);
      ik_bones.push_back(b);
    }
  }
  rep.ik_bones = ik_bones.size();
  return ks;
}

// The wanted world rotations / positions of every frame, and the センター / グルーブ keys.
void want_per_frame(const Bvh& bvh, const model::Model& m, const JointsOf& jo, const BvhSpace& sp, const KeyedSet& ks,
                    bool identity, key_fit::Problem& prob) {
  const std::size_t n = m.bones.size();
  const std::size_t F = bvh.frame_count, K = ks.keyed.size();
  const std::vector<Keyed>& keyed = ks.keyed;
  const std::vector<std::int32_t>& ik_joint_of = jo.ik_joint;
  const std::vector<BvhTransform>& rest = sp.rest;
  const std::int32_t hips_joint = ks.hips_joint, center = ks.center, groove = ks.groove;
  auto bone_pos = [&](std::int32_t b) { return bone_position(m, b); };
  auto to_mmd = [&](const dm::V& p, bool grounded) { return sp.to_mmd(p, grounded); };
  std::vector<std::int32_t> effector_of(n, -1);
  for (const model::IkChain& c : m.ik_chains) effector_of[static_cast<std::size_t>(c.ik_bone)] = c.effector;
  const dm::V hips_rest = hips_joint >= 0 ? to_mmd(rest[static_cast<std::size_t>(hips_joint)].translation, true) : dm::V{};
  std::vector<BvhTransform> world;
  for (std::size_t f = 0; f < F; ++f) {
    bvh_world_pose(bvh, static_cast<std::uint32_t>(f), world);
    dm::V hips_delta{};
    if (hips_joint >= 0)
      hips_delta = dm::sub(to_mmd(world[static_cast<std::size_t>(hips_joint)].translation, false), hips_rest);
    for (std::size_t k = 0; k < K; ++k) {
      const Keyed& kb = keyed[k];
      const std::size_t i = f * K + k;
      if (kb.target == key_fit::Target::rotation) {
        const BvhTransform& w = world[static_cast<std::size_t>(kb.joint)];
        prob.want_rot[i] = dm::normalize(dm::mul(dm::flip_z(w.rotation), kb.correction));
        if (kb.position) prob.want_pos[i] = to_mmd(w.translation, false);
      } else if (kb.target == key_fit::Target::ik && identity && ik_joint_of[kb.bone] >= 0) {
        // the model's own BVH: the IK bone keeps its rotation (its children, e.g. つま先ＩＫ, follow it)
        prob.want_rot[i] = dm::normalize(dm::flip_z(world[static_cast<std::size_t>(ik_joint_of[kb.bone])].rotation));
      } else if (kb.target == key_fit::Target::ik && kb.joint >= 0) {
        // the source's foot: the effector's rest position + the joint's displacement from its grounded rest
        const auto eff = effector_of[kb.bone];
        prob.want_pos[i] = dm::add(bone_pos(eff), dm::sub(to_mmd(world[static_cast<std::size_t>(kb.joint)].translation, false),
                                                          to_mmd(rest[static_cast<std::size_t>(kb.joint)].translation, true)));
      }
      if (!identity && (static_cast<std::int32_t>(kb.bone) == center || static_cast<std::int32_t>(kb.bone) == groove)) {
        dm::V t = hips_delta;
        if (groove >= 0) {
          if (static_cast<std::int32_t>(kb.bone) == center)
            t[1] = 0;
          else
            t[0] = t[2] = 0;
        }
        prob.key_pos[i] = t;
      }
    }
  }
}

}  // namespace

Result<vmd::Motion> bvh_to_vmd(const Bvh& bvh, std::shared_ptr<const model::Model> model_ptr, const BvhBoneMap& map,
                               const BvhImportOptions& o, BvhImportReport* report) {
  if (!model_ptr) return make_error(ErrorCode::invalid_argument, "no model");
  const model::Model& m = *model_ptr;
  const bool identity = map.source == "identity";
  BvhImportReport rep;
  auto jo = map_joints(bvh, m, map, o, identity, rep);
  if (!jo) return std::unexpected(jo.error());
  const BvhSpace sp = bvh_space(bvh, m, jo->joint, o, identity);
  rep.scale = sp.scale;
  const KeyedSet ks = keyed_bones(bvh, m, jo->joint, sp, o, identity, rep);
  const std::size_t F = bvh.frame_count, K = ks.keyed.size();
  if (F == 0) return make_error(ErrorCode::invalid_value, "the BVH has no frames", "motion");
  if (F * K > (std::size_t{1} << 27))
    return make_error(ErrorCode::limit_exceeded, std::to_string(F) + " frames × " + std::to_string(K) + " bones is too many keys");
  key_fit::Problem prob;
  prob.model = model_ptr;
  prob.frames = F;
  prob.first_frame = o.first_frame;
  prob.ik_off = !o.leg_ik;
  for (const Keyed& k : ks.keyed)
    prob.keyed.push_back({k.bone, k.target, k.position, k.target == key_fit::Target::ik && k.joint >= 0,
                          k.target == key_fit::Target::ik && identity && jo->ik_joint[k.bone] >= 0});
  prob.want_rot.assign(F * K, dm::kIdentity);
  prob.want_pos.assign(F * K, dm::V{});
  prob.key_rot.assign(F * K, dm::kIdentity);
  prob.key_pos.assign(F * K, dm::V{});
  want_per_frame(bvh, m, *jo, sp, ks, identity, prob);
  key_fit::initial_keys(prob);
  auto motion = key_fit::solve(prob, &rep.fit_deg, &rep.fit_units);
  if (!motion) return std::unexpected(motion.error());
  if (o.reduce) rep.keys_dropped = key_fit::reduce_linear_keys(*motion, o.reduce_deg, o.reduce_units);
  rep.frames = F;
  if (report) *report = std::move(rep);
  return motion;
}

}  // namespace mmdkit::motion

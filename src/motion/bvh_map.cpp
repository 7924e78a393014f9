// mmdkit motion — BVH joint → MMD bone maps: the map file and the automatic tables (motion/bvh.hpp;
// the tables are documented in docs/BVH.md "Automatic map").
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>

#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/bvh.hpp"

namespace mmdkit::motion {
namespace {

struct Pair {
  const char* joint;
  const char* bone;
};

// Mixamo (Adobe's auto-rigger; joint names with the "mixamorig:" prefix, often also without).
constexpr Pair kMixamo[] = {
    {"Hips", "下半身"},          {"Spine", "上半身"},          {"Spine2", "上半身2"},
    {"Neck", "首"},              {"Head", "頭"},               {"LeftShoulder", "左肩"},
    {"LeftArm", "左腕"},         {"LeftForeArm", "左ひじ"},    {"LeftHand", "左手首"},
    {"RightShoulder", "右肩"},   {"RightArm", "右腕"},         {"RightForeArm", "右ひじ"},
    {"RightHand", "右手首"},     {"LeftUpLeg", "左足"},        {"LeftLeg", "左ひざ"},
    {"LeftFoot", "左足首"},      {"LeftToeBase", "左つま先"},  {"RightUpLeg", "右足"},
    {"RightLeg", "右ひざ"},      {"RightFoot", "右足首"},      {"RightToeBase", "右つま先"},
    {"LeftHandThumb1", "左親指０"}, {"LeftHandThumb2", "左親指１"}, {"LeftHandThumb3", "左親指２"},
    {"LeftHandIndex1", "左人指１"}, {"LeftHandIndex2", "左人指２"}, {"LeftHandIndex3", "左人指３"},
    {"LeftHandMiddle1", "左中指１"}, {"LeftHandMiddle2", "左中指２"}, {"LeftHandMiddle3", "左中指３"},
    {"LeftHandRing1", "左薬指１"},  {"LeftHandRing2", "左薬指２"},  {"LeftHandRing3", "左薬指３"},
    {"LeftHandPinky1", "左小指１"}, {"LeftHandPinky2", "左小指２"}, {"LeftHandPinky3", "左小指３"},
    {"RightHandThumb1", "右親指０"}, {"RightHandThumb2", "右親指１"}, {"RightHandThumb3", "右親指２"},
    {"RightHandIndex1", "右人指１"}, {"RightHandIndex2", "右人指２"}, {"RightHandIndex3", "右人指３"},
    {"RightHandMiddle1", "右中指１"}, {"RightHandMiddle2", "右中指２"}, {"RightHandMiddle3", "右中指３"},
    {"RightHandRing1", "右薬指１"},  {"RightHandRing2", "右薬指２"},  {"RightHandRing3", "右薬指３"},
    {"RightHandPinky1", "右小指１"}, {"RightHandPinky2", "右小指２"}, {"RightHandPinky3", "右小指３"},
};

// CMU motion capture database: the BVH conversion most used (cgspeed's; Hips, LHipJoint, ...) and
// the ASF names other converters keep (root, lfemur, ...).
constexpr Pair kCmu[] = {
    {"Hips", "下半身"},       {"LowerBack", "上半身"},  {"Spine1", "上半身2"},   {"Neck1", "首"},
    {"Head", "頭"},           {"LeftShoulder", "左肩"}, {"LeftArm", "左腕"},     {"LeftForeArm", "左ひじ"},
    {"LeftHand", "左手首"},   {"RightShoulder", "右肩"}, {"RightArm", "右腕"},   {"RightForeArm", "右ひじ"},
    {"RightHand", "右手首"},  {"LeftUpLeg", "左足"},    {"LeftLeg", "左ひざ"},   {"LeftFoot", "左足首"},
    {"LeftToeBase", "左つま先"}, {"RightUpLeg", "右足"}, {"RightLeg", "右ひざ"}, {"RightFoot", "右足首"},
    {"RightToeBase", "右つま先"},
    {"root", "下半身"},       {"lowerback", "上半身"},  {"thorax", "上半身2"},   {"upperneck", "首"},
    {"head", "頭"},           {"lclavicle", "左肩"},    {"lhumerus", "左腕"},    {"lradius", "左ひじ"},
    {"lwrist", "左手首"},     {"rclavicle", "右肩"},    {"rhumerus", "右腕"},    {"rradius", "右ひじ"},
    {"rwrist", "右手首"},     {"lfemur", "左足"},       {"ltibia", "左ひざ"},    {"lfoot", "左足首"},
    {"ltoes", "左つま先"},    {"rfemur", "右足"},       {"rtibia", "右ひざ"},    {"rfoot", "右足首"},
    {"rtoes", "右つま先"},
};

// SMPL's 24 joints (names of the SMPL papers' code, "Pelvis, L_Hip, ..." and the lower-case
// "pelvis, left_hip, ..." of smplx).
constexpr Pair kSmpl[] = {
    {"Pelvis", "下半身"},     {"Spine1", "上半身"},     {"Spine3", "上半身2"},   {"Neck", "首"},
    {"Head", "頭"},           {"L_Collar", "左肩"},     {"L_Shoulder", "左腕"},  {"L_Elbow", "左ひじ"},
    {"L_Wrist", "左手首"},    {"R_Collar", "右肩"},     {"R_Shoulder", "右腕"},  {"R_Elbow", "右ひじ"},
    {"R_Wrist", "右手首"},    {"L_Hip", "左足"},        {"L_Knee", "左ひざ"},    {"L_Ankle", "左足首"},
    {"L_Foot", "左つま先"},   {"R_Hip", "右足"},        {"R_Knee", "右ひざ"},    {"R_Ankle", "右足首"},
    {"R_Foot", "右つま先"},
    {"left_collar", "左肩"},  {"left_shoulder", "左腕"}, {"left_elbow", "左ひじ"}, {"left_wrist", "左手首"},
    {"right_collar", "右肩"}, {"right_shoulder", "右腕"}, {"right_elbow", "右ひじ"}, {"right_wrist", "右手首"},
    {"left_hip", "左足"},     {"left_knee", "左ひざ"},   {"left_ankle", "左足首"}, {"left_foot", "左つま先"},
    {"right_hip", "右足"},    {"right_knee", "右ひざ"},  {"right_ankle", "右足首"}, {"right_foot", "右つま先"},
    {"spine3", "上半身2"},
};

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

// A BVH joint's name as the tables spell it: without a namespace prefix ("mixamorig:Hips",
// "mixamorig1:Hips", "Armature|Hips"), lower case.
std::string table_key(std::string_view name) {
  const std::size_t p = name.find_last_of(":|");
  if (p != std::string_view::npos) name.remove_prefix(p + 1);
  return lower(name);
}


}  // namespace

Result<BvhBoneMap> read_bvh_bone_map(std::string_view text) {
  BvhBoneMap map;
  std::set<std::string> joints, bones;
  std::int64_t line = 0;
  std::size_t p = 0;
  if (text.starts_with("\xEF\xBB\xBF")) p = 3;
  auto fail = [&](std::string message) {
    Error e{ErrorCode::invalid_value, std::move(message), "map", -1, -1, {}};
    e.line = line;
    return std::unexpected(std::move(e));
  };
  while (p <= text.size()) {
    ++line;
    std::size_t e = text.find('\n', p);
    if (e == std::string_view::npos) e = text.size();
    std::string_view ln = text.substr(p, e - p);
    p = e + 1;
    if (!ln.empty() && ln.back() == '\r') ln.remove_suffix(1);
    const std::size_t first = ln.find_first_not_of(" \t");
    if (first == std::string_view::npos || ln[first] == '#') {
      if (e == text.size()) break;
      continue;
    }
    const std::size_t tab = ln.find('\t');
    if (tab == std::string_view::npos) return fail("expected 'BVH_JOINT<TAB>MMD_BONE', found no tab");
    auto trim = [](std::string_view s) {
      const std::size_t b = s.find_first_not_of(' ');
      if (b == std::string_view::npos) return std::string_view{};
      const std::size_t q = s.find_last_not_of(' ');
      return s.substr(b, q - b + 1);
    };
    std::string joint(trim(ln.substr(0, tab))), bone(trim(ln.substr(tab + 1)));
    if (const std::size_t t2 = bone.find('\t'); t2 != std::string::npos) bone = std::string(trim(bone.substr(0, t2)));
    if (joint.empty() || bone.empty()) return fail("a side of the pair is empty");
    if (!joints.insert(joint).second) return fail("BVH joint '" + joint + "' is mapped twice");
    if (!bones.insert(bone).second) return fail("MMD bone '" + bone + "' is mapped twice");
    map.pairs.emplace_back(std::move(joint), std::move(bone));
    map.lines.push_back(line);
    if (e == text.size()) break;
  }
  if (map.pairs.empty()) {
    line = -1;
    return fail("the map has no pairs");
  }
  map.source = "map file";
  return map;
}

Result<BvhBoneMap> automatic_bvh_bone_map(const Bvh& bvh, const model::Model& model) {
  std::set<std::string> bone_names;
  std::map<std::string, std::string> written;  // written joint name (either naming) → bone
  for (const model::Bone& b : model.bones) bone_names.insert(b.name);
  for (BvhNames names : {BvhNames::japanese, BvhNames::english}) {
    const std::vector<std::string> joint = bvh_joint_names(model, names);
    for (std::size_t b = 0; b < model.bones.size(); ++b) written.emplace(joint[b], model.bones[b].name);
  }
  // Identity: every joint is a bone of this model (a BVH mmdkit wrote of it).
  bool identity = !bvh.joints.empty();
  for (const BvhJoint& j : bvh.joints)
    if (!written.count(j.name)) {
      identity = false;
      break;
    }
  if (identity) {
    BvhBoneMap m;
    m.source = "identity";
    std::set<std::string> targets;
    for (const BvhJoint& j : bvh.joints) {
      m.pairs.emplace_back(j.name, written[j.name]);
      identity = identity && targets.insert(written[j.name]).second;  // a model naming two bones alike: no
    }
    if (identity) return m;
  }
  struct Table {
    const char* name;
    std::span<const Pair> pairs;
  };
  const Table tables[] = {{"mixamo", kMixamo}, {"cmu", kCmu}, {"smpl", kSmpl}};
  std::map<std::string, std::string> joint_by_key;  // table key → BVH joint name (first)
  for (const BvhJoint& j : bvh.joints) joint_by_key.emplace(table_key(j.name), j.name);
  BvhBoneMap best;
  std::size_t best_count = 0;
  for (const Table& t : tables) {
    BvhBoneMap m;
    m.source = t.name;
    std::set<std::string> used_joints, used_bones;
    bool hips = false, left = false, right = false;
    for (const Pair& p : t.pairs) {
      auto it = joint_by_key.find(lower(p.joint));
      if (it == joint_by_key.end() || !bone_names.count(p.bone)) continue;
      if (used_joints.count(it->second) || used_bones.count(p.bone)) continue;
      used_joints.insert(it->second);
      used_bones.insert(p.bone);
      m.pairs.emplace_back(it->second, p.bone);
      const std::string_view b = p.bone;
      hips |= b == "下半身";
      left |= b == "左足";
      right |= b == "右足";
    }
    if (hips && left && right && m.pairs.size() > best_count) {
      best_count = m.pairs.size();
      best = std::move(m);
    }
  }
  if (best_count == 0)
    return make_error(ErrorCode::invalid_value,
                      "no automatic map fits this BVH (its joints are not the model's bones, nor Mixamo, CMU or SMPL "
                      "names with hips and both thighs): give --map map.tsv",
                      "hierarchy");
  return best;
}

}  // namespace mmdkit::motion

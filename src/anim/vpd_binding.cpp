// mmdkit — a VPD pose bound to a skeleton by bone name (vpd_binding.hpp).
#include "mmdkit/anim/vpd_binding.hpp"

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/formats/vpd.hpp"

namespace mmdkit::anim {

std::vector<BonePose> pose_from_vpd(const Skeleton& skeleton, const vpd::Pose& pose, std::vector<std::size_t>* unmatched,
                                    std::vector<std::uint8_t>* named) {
  std::vector<BonePose> out(skeleton.bone_count());
  if (named) named->assign(skeleton.bone_count(), 0);
  for (std::size_t b = 0; b < pose.bones.size(); ++b) {
    const vpd::Bone& vb = pose.bones[b];
    const std::vector<std::uint8_t> key = vpd_match_key(vb.name.raw, vb.name.text, pose.encoding);
    bool found = false;
    for (std::size_t i = 0; i < skeleton.bone_count(); ++i) {
      if (key.empty() || skeleton.desc(i).name_bytes != key) continue;
      out[i].translation = vb.translation;
      out[i].rotation = quat_normalize(vb.rotation);
      if (named) (*named)[i] = 1;
      found = true;
    }
    if (!found && unmatched) unmatched->push_back(b);
  }
  return out;
}

}  // namespace mmdkit::anim

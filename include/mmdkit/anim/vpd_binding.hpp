// mmdkit — a VPD pose bound to a skeleton by bone name: per-bone local poses for anim/pose.hpp's
// PoseInput (src/anim/vpd_binding.cpp). Motions are bound in anim/binding.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "mmdkit/anim/sampler.hpp"
#include "mmdkit/anim/skeleton.hpp"

namespace mmdkit::vpd {
struct Pose;
}

namespace mmdkit::anim {

/// Per-bone local poses from a VPD pose: bones matched by their FULL name bytes (a VPD line holds
/// the whole CP932 name, unlike the 15-byte VMD field, so a long name is not cut: two model bones
/// sharing their first 15 bytes are told apart; glmmd VpdData::toModelPose and three.js MMDLoader
/// match whole names too) against BoneDesc::name_bytes; translation and rotation (normalized) as
/// stored; unmatched bones at rest. A VPD bone without raw bytes is encoded from its text in the
/// pose's encoding (binding.hpp vpd_match_key); a later block naming the same bone wins.
/// `unmatched` (optional) receives the indices of VPD bones that matched no model bone; `named`
/// (optional) is set to one flag per model bone, 1 where the pose names it. Used by
/// anim::CharacterData (character.hpp), the one place poses are bound.
std::vector<BonePose> pose_from_vpd(const Skeleton& skeleton, const vpd::Pose& pose,
                                    std::vector<std::size_t>* unmatched = nullptr,
                                    std::vector<std::uint8_t>* named = nullptr);

}  // namespace mmdkit::anim

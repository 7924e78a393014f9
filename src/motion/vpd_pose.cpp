// mmdkit — VPD ↔ motion (motion/vpd_pose.hpp).
#include "mmdkit/motion/vpd_pose.hpp"

#include <cmath>
#include <filesystem>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::motion {

Result<vpd::Pose> pose_from_motion(std::shared_ptr<const model::Model> model, const vmd::Motion& motion,
                                   const PoseFromMotionOptions& o) {
  if (!(std::isfinite(o.frame) && o.frame >= 0))
    return make_error(ErrorCode::invalid_argument, "the frame must be a finite number >= 0");
  anim::MotionInputs inputs;
  inputs.motions = {&motion};
  auto data = anim::CharacterData::create(std::move(model), inputs);
  if (!data) return std::unexpected(data.error());
  anim::Character ch(*data);
  ch.set_ik(o.ik);
  if (auto r = ch.evaluate(o.frame); !r) return std::unexpected(r.error());
  vpd::Pose pose;
  pose.model_file.assign(o.model_file);
  const anim::BoundMotion& bound = ch.data().bone_motion().bound();
  const auto names = ch.data().bone_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (bound.bone_track(i).empty()) continue;
    vpd::Bone b;
    b.name.assign(names[i]);
    b.translation = ch.key_pose()[i].translation;
    b.rotation = ch.key_pose()[i].rotation;
    pose.bones.push_back(std::move(b));
  }
  const anim::BoundMotion& morphs = ch.data().morph_motion();
  const auto morph_names = ch.data().morph_names();
  for (std::size_t i = 0; i < morph_names.size(); ++i) {
    if (morphs.morph_track(i).empty()) continue;
    vpd::Morph m;
    m.name.assign(morph_names[i]);
    m.weight = ch.morph_weights()[i];
    pose.morphs.push_back(std::move(m));
  }
  return pose;
}

namespace {

Result<vmd::TrackName> track_name(const std::vector<std::uint8_t>& raw, const std::string& text, Encoding enc) {
  vmd::TrackName n;
  if (!raw.empty()) {
    n.raw = binding_key(ByteSpan(raw.data(), raw.size()));
  } else {
    auto k = binding_key_of_text(text, enc);
    if (!k) return std::unexpected(k.error());
    n.raw = *k;
  }
  n.text = decode_text(ByteSpan(n.raw.data(), n.raw.size()), enc);
  return n;
}

}  // namespace

Result<vmd::Motion> motion_from_pose(const vpd::Pose& pose, std::uint32_t frame) {
  vmd::Motion m;
  m.version = vmd::Version::v2;
  const std::string_view sig = vmd::signature_text(vmd::Version::v2);
  std::copy(sig.begin(), sig.end(), m.signature.begin());
  m.encoding = pose.encoding;
  std::string model = pose.model_file.text.empty()
                          ? decode_text(ByteSpan(pose.model_file.raw.data(), pose.model_file.raw.size()), pose.encoding)
                          : pose.model_file.text;
  model = std::filesystem::path(model).stem().string();
  if (auto raw = encode_text(model, pose.encoding); raw) {
    raw->resize(std::min<std::size_t>(raw->size(), vmd::kModelNameSizeV2));
    m.model_name.raw = *raw;
    m.model_name.text = decode_text(ByteSpan(raw->data(), raw->size()), pose.encoding);
  }
  const auto lin = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                                  vmd::kLinearCurve);
  for (const vpd::Bone& b : pose.bones) {
    auto n = track_name(b.name.raw, b.name.text, pose.encoding);
    if (!n) return std::unexpected(n.error());
    vmd::BoneKey k;
    k.name = static_cast<std::uint32_t>(m.bone_names.size());
    k.frame = frame;
    k.position = b.translation;
    k.rotation = b.rotation;
    k.interpolation = lin;
    m.bone_names.push_back(std::move(*n));
    m.bone_keys.push_back(k);
  }
  for (const vpd::Morph& x : pose.morphs) {
    auto n = track_name(x.name.raw, x.name.text, pose.encoding);
    if (!n) return std::unexpected(n.error());
    m.morph_keys.push_back({static_cast<std::uint32_t>(m.morph_names.size()), frame, x.weight});
    m.morph_names.push_back(std::move(*n));
  }
  m.sections_present = vmd::kSectionCount;
  return m;
}

}  // namespace mmdkit::motion

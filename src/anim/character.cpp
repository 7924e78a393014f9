// The evaluation pipeline of one model (character.hpp): set-up once, then frames.
#include "mmdkit/anim/character.hpp"

#include <algorithm>
#include <cmath>

#include "mmdkit/anim/vpd_binding.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/model/check.hpp"
#include "mmdkit/model/model.hpp"
#include "core/try.hpp"

namespace mmdkit::anim {

namespace {

// NaN / infinity in vertices or morph offsets would reach every posed vertex ("nan" in an OBJ):
// refused with the record `check` names. (Bones: build_skeleton refuses them; other sections such
// as rigid bodies are the physics layer's.)
Result<void> refuse_non_finite_geometry(const model::Model& m) {
  for (const model::Finding& f : model::check_view(m)) {
    if (f.kind != model::FindingKind::non_finite || (f.section != "vertices" && f.section != "morphs")) continue;
    return make_error(ErrorCode::invalid_value, "field " + f.field + ": " + f.message + " (see mmdkit check)",
                      f.section, f.record);
  }
  return {};
}

// The full CP932 bytes of a model morph's name (VPD morph blocks match whole names).
std::vector<std::uint8_t> full_name_bytes(const model::Morph& m) {
  if (auto b = encode_text(m.name, Encoding::cp932)) return std::move(*b);
  return m.binding_key;
}

// True when `raw` (or `text` encoded in `enc` when there are no raw bytes) names the PMD base
// morph of `m` (model.hpp pmd_base_morph_key; always false for PMX): MMD ignores a key of it, so
// it is not an unmatched track.
bool names_pmd_base_morph(const model::Model& m, std::span<const std::uint8_t> raw, const std::string& text,
                          Encoding enc) {
  if (m.pmd_base_morph_key.empty()) return false;
  if (!raw.empty()) return binding_key(raw) == m.pmd_base_morph_key;
  auto k = binding_key_of_text(text, enc);
  return k && *k == m.pmd_base_morph_key;
}

}  // namespace

bool CharacterData::has_geometry() const noexcept { return model_->has_geometry; }

Result<std::shared_ptr<const CharacterData>> CharacterData::create(std::shared_ptr<const model::Model> model,
                                                                   const MotionInputs& inputs) {
  if (!model) return make_error(ErrorCode::invalid_argument, "no model", "model");
  auto d = std::make_shared<CharacterData>();
  d->model_ = std::move(model);
  const model::Model& m = *d->model_;
  if (m.has_geometry)
    MMDKIT_TRY(refuse_non_finite_geometry(m));
  MMDKIT_TRY_ASSIGN(auto sk, build_skeleton(m));
  d->skeleton_ = std::move(sk);
  MMDKIT_TRY_ASSIGN(auto md, MorphData::create(m));
  d->morph_data_ = std::move(md);
  if (m.has_geometry) {
    MMDKIT_TRY_ASSIGN(auto sd, SkinningData::create(m));
    d->skinning_ = std::move(sd);
  }
  std::vector<std::vector<std::uint8_t>> morph_keys;
  morph_keys.reserve(m.morphs.size());
  d->morph_names_.reserve(m.morphs.size());
  for (const model::Morph& mo : m.morphs) {
    d->morph_names_.push_back(mo.name);
    morph_keys.push_back(mo.binding_key);
  }

  // VMD motions: bone + IK tracks, morph tracks, camera / light / self-shadow of the first motion
  // that has keys of each.
  std::vector<const vmd::Motion*> motions;
  for (const vmd::Motion* mo : inputs.motions)
    if (mo) motions.push_back(mo);
  MMDKIT_TRY_ASSIGN(auto sampler, MotionSampler::create(d->skeleton_, motions));
  d->bones_ = std::move(sampler);
  MMDKIT_TRY_ASSIGN(auto morphs, bind_motions(motions, {}, morph_keys));
  d->morphs_ = std::move(morphs);
  d->last_frame_ = d->bones_.last_frame();
  for (const MorphTrackKey& k : d->morphs_.morph_keys) d->last_frame_ = std::max(d->last_frame_, k.frame);
  for (const vmd::Motion* mo : motions) {
    if (d->camera_.empty() && !mo->camera_keys.empty()) d->camera_ = build_camera_track(mo->camera_keys);
    if (d->light_.empty() && !mo->light_keys.empty()) d->light_ = build_light_track(mo->light_keys);
    if (d->self_shadow_.empty() && !mo->self_shadow_keys.empty())
      d->self_shadow_ = build_self_shadow_track(mo->self_shadow_keys);
  }
  for (const auto& k : d->camera_) d->last_frame_ = std::max(d->last_frame_, k.frame);
  for (const auto& k : d->light_) d->last_frame_ = std::max(d->last_frame_, k.frame);
  for (const auto& k : d->self_shadow_) d->last_frame_ = std::max(d->last_frame_, k.frame);

  // Report: the motions' unmatched names (index into the motions given, nulls included); sorted
  // input by input, bones before morphs, once the pose's are in.
  std::vector<std::size_t> input_of(motions.size());
  for (std::size_t i = 0, k = 0; i < inputs.motions.size(); ++i)
    if (inputs.motions[i]) input_of[k++] = i;
  BindingReport& rep = d->report_;
  auto add_vmd = [&](const BoundMotion& b, bool morph) {
    for (const UnmatchedTrack& u : b.unmatched) {
      if (u.morph != morph) continue;
      const vmd::Motion& mo = *motions[u.motion];
      const auto& names = morph ? mo.morph_names : mo.bone_names;
      if (morph && u.name < names.size() &&
          names_pmd_base_morph(m, names[u.name].raw, names[u.name].text, mo.encoding))
        continue;
      rep.unmatched.push_back({input_of[u.motion], morph, u.name < names.size() ? names[u.name].text : std::string()});
      ++(morph ? rep.unmatched_morphs : rep.unmatched_bones);
    }
  };
  // Input by input, bones before morphs.
  add_vmd(d->bones_.bound(), false);
  add_vmd(d->morphs_, true);

  // The VPD pose: bones and morphs it names, by full name bytes (pose.hpp pose_from_vpd).
  if (inputs.pose) {
    const vpd::Pose& pose = *inputs.pose;
    d->has_pose_ = true;
    std::vector<std::size_t> unmatched_bones, unmatched_morphs;
    std::vector<std::uint8_t> named;
    const std::vector<BonePose> local = pose_from_vpd(d->skeleton_, pose, &unmatched_bones, &named);
    for (std::size_t i = 0; i < named.size(); ++i)
      if (named[i]) {
        d->pose_bone_index_.push_back(static_cast<std::uint32_t>(i));
        d->pose_bones_.push_back(local[i]);
      }
    std::vector<std::vector<std::uint8_t>> morph_names;
    morph_names.reserve(m.morphs.size());
    for (const model::Morph& mo : m.morphs) morph_names.push_back(full_name_bytes(mo));
    const std::vector<float> w = morph_weights_from_vpd(morph_names, pose, &unmatched_morphs, &named);
    for (std::size_t i = 0; i < named.size(); ++i)
      if (named[i]) {
        d->pose_morph_index_.push_back(static_cast<std::uint32_t>(i));
        d->pose_morph_weights_.push_back(w[i]);
      }
    const std::size_t input = inputs.pose_input == static_cast<std::size_t>(-1) ? inputs.motions.size() : inputs.pose_input;
    for (std::size_t b : unmatched_bones) rep.unmatched.push_back({input, false, pose.bones[b].name.text});
    rep.unmatched_bones += unmatched_bones.size();
    for (std::size_t b : unmatched_morphs) {
      const auto& name = pose.morphs[b].name;
      if (names_pmd_base_morph(m, name.raw, name.text, pose.encoding)) continue;
      rep.unmatched.push_back({input, true, name.text});
      ++rep.unmatched_morphs;
    }
  }
  // Keyed model bones / morphs: a VMD track, or a VPD entry on one without a track (once each).
  for (const KeyRange& r : d->bones_.bound().bone_tracks) rep.keyed_bones += !r.empty();
  for (const KeyRange& r : d->morphs_.morph_tracks) rep.keyed_morphs += !r.empty();
  for (std::uint32_t b : d->pose_bone_index_) rep.keyed_bones += d->bones_.bound().bone_track(b).empty();
  for (std::uint32_t i : d->pose_morph_index_) rep.keyed_morphs += d->morphs_.morph_track(i).empty();
  std::stable_sort(rep.unmatched.begin(), rep.unmatched.end(),
                   [](const BindingReport::Track& a, const BindingReport::Track& b) {
                     return a.input != b.input ? a.input < b.input : a.morph < b.morph;
                   });
  return std::shared_ptr<const CharacterData>(std::move(d));
}

// --- Character --------------------------------------------------------------------------------

Character::Character(std::shared_ptr<const CharacterData> data) : data_(std::move(data)) {
  const CharacterData& d = *data_;
  const Skeleton& sk = d.skeleton_;
  cursors_ = d.bones_.make_cursors();
  morph_cursors_.assign(d.morph_names_.size(), 0);
  local_.assign(sk.bone_count(), BonePose{});
  ik_enabled_.assign(sk.ik_count(), 1);
  weights_.assign(d.morph_names_.size(), 0.0f);
  pose_.reset(sk);
  morph_ws_.reset(d.morph_data_);
  if (d.skinning_) {
    skin_ws_.reset(*d.skinning_);
    positions_.assign(d.skinning_->vertex_count(), Vec3{});
    normals_.assign(d.skinning_->vertex_count(), Vec3{});
  }
}

Result<void> Character::sample_inputs(double frame, Character& cur) {
  const CharacterData& d = *data_;
  // 1. Sample.
  // Morphs off (set_morphs) and none of them moving bones or bodies: nothing here reads them.
  const bool morphs = morphs_ || d.morph_data_.moves_bones_or_bodies();
  d.bones_.sample(frame, local_, ik_enabled_, cur.cursors_);
  if (morphs) sample_morphs(d.morphs_, frame, weights_, cur.morph_cursors_);
  // 2. The VPD pose over the motions; IK switch.
  for (std::size_t k = 0; k < d.pose_bone_index_.size(); ++k) local_[d.pose_bone_index_[k]] = d.pose_bones_[k];
  if (morphs)
    for (std::size_t k = 0; k < d.pose_morph_index_.size(); ++k)
      weights_[d.pose_morph_index_[k]] = d.pose_morph_weights_[k];
  if (!ik_) std::fill(ik_enabled_.begin(), ik_enabled_.end(), std::uint8_t{0});
  // 3. Morphs.
  if (!morphs) return {};
  return apply_morphs(d.morph_data_, weights_, morph_ws_);
}

void Character::sample_scene(double frame, Character& cur) {
  const CharacterData& d = *data_;
  if (camera_and_light_) {
    camera_ = sample_camera(d.camera_, frame, cur.camera_cursor_);
    light_ = sample_light(d.light_, frame, cur.light_cursor_);
    self_shadow_ = sample_self_shadow(d.self_shadow_, frame, cur.self_shadow_cursor_);
  }
  frame_ = frame;
}

Result<void> Character::evaluate_before_physics(double frame) {
  pending_frame_ = std::numeric_limits<double>::quiet_NaN();
  if (!std::isfinite(frame))
    return make_error(ErrorCode::invalid_argument, "frame is not a finite number", "frame");
  if (auto r = sample_inputs(frame, *this); !r) return r;
  // 4. Bones before physics.
  const PoseInput in{local_, morph_ws_.bone_offsets(), ik_enabled_};
  if (auto r = anim::evaluate_before_physics(data_->skeleton_, in, pose_); !r) return r;
  pending_frame_ = frame;
  return {};
}

Result<void> Character::evaluate_after_physics() {
  if (std::isnan(pending_frame_))
    return make_error(ErrorCode::invalid_argument, "evaluate_before_physics did not run for this frame", "frame");
  const double frame = pending_frame_;
  pending_frame_ = std::numeric_limits<double>::quiet_NaN();
  const CharacterData& d = *data_;
  // 6. Bones after physics, model and skinning matrices.
  const PoseInput in{local_, morph_ws_.bone_offsets(), ik_enabled_};
  if (auto r = anim::evaluate_after_physics(d.skeleton_, in, pose_); !r) return r;
  // 7. Camera, light, self-shadow.
  sample_scene(frame, *this);
  return {};
}

Result<void> Character::evaluate_frames(std::span<Character* const> chars, std::span<const double> frames) {
  if (chars.size() != frames.size())
    return make_error(ErrorCode::invalid_argument,
                      std::to_string(frames.size()) + " frames for " + std::to_string(chars.size()) + " characters",
                      "frame");
  for (std::size_t i = 0; i < chars.size(); ++i) {
    const std::string which = "character " + std::to_string(i);
    if (chars[i] == nullptr) return make_error(ErrorCode::invalid_argument, which + " is null", "frame");
    for (std::size_t j = 0; j < i; ++j)
      if (chars[j] == chars[i])
        return make_error(ErrorCode::invalid_argument, which + " is character " + std::to_string(j) + " again",
                          "frame");
    if (chars[i]->data_->skeleton_.id() != chars[0]->data_->skeleton_.id())
      return make_error(ErrorCode::invalid_argument, which + " has another skeleton than character 0", "frame");
    if (!std::isfinite(frames[i]))
      return make_error(ErrorCode::invalid_argument, "frame " + std::to_string(i) + " is not a finite number",
                        "frame");
  }
  if (chars.empty()) return {};
  const Skeleton& sk = chars[0]->data_->skeleton_;
  // Characters of one CharacterData sample with the first one's cursors: a cursor is a search
  // hint and a segment cache that gives the same values for any frame (sampler.hpp), and one set
  // walking the frames in order finds and fills each segment once instead of once per character.
  auto cursors_of = [&](Character& c) -> Character& { return c.data_ == chars[0]->data_ ? *chars[0] : c; };
  for (std::size_t i0 = 0; i0 < chars.size(); i0 += kMaxFrameBatch) {
    const std::size_t n = std::min<std::size_t>(kMaxFrameBatch, chars.size() - i0);
    PoseInput in[kMaxFrameBatch];
    PoseWorkspace* ws[kMaxFrameBatch];
    for (std::size_t k = 0; k < n; ++k) {
      Character& c = *chars[i0 + k];
      c.pending_frame_ = std::numeric_limits<double>::quiet_NaN();
      if (auto r = c.sample_inputs(frames[i0 + k], cursors_of(c)); !r) return r;
      in[k] = PoseInput{c.local_, c.morph_ws_.bone_offsets(), c.ik_enabled_};
      ws[k] = &c.pose_;
    }
    if (auto r = evaluate_frames_before_physics(sk, std::span(in, n), std::span(ws, n)); !r) return r;
    if (auto r = evaluate_frames_after_physics(sk, std::span(in, n), std::span(ws, n)); !r) return r;
    for (std::size_t k = 0; k < n; ++k) chars[i0 + k]->sample_scene(frames[i0 + k], cursors_of(*chars[i0 + k]));
  }
  return {};
}

Result<void> Character::evaluate(double frame) {
  if (auto r = evaluate_before_physics(frame); !r) return r;
  // 5. No physics here: the physics layer runs it between the two halves.
  return evaluate_after_physics();
}

Result<void> Character::skin(ThreadPool* pool) {
  const CharacterData& d = *data_;
  if (!d.skinning_)
    return make_error(ErrorCode::invalid_argument, "the model was loaded without geometry: nothing to skin",
                      "skinning");
  if (std::isnan(frame_))
    return make_error(ErrorCode::invalid_argument, "no frame evaluated yet (call evaluate first)", "skinning");
  if (!pose_.skinning_matrices_on())
    return make_error(ErrorCode::invalid_argument, "skinning matrices are off (Character::set_skinning_matrices(false))",
                      "skinning");
  const SkinBones bones{pose_.skinning_matrices(), pose_.model_rotations()};
  if (pool) return skin_parallel(*pool, *d.skinning_, bones, skin_ws_, morph_ws_.vertex_offsets(), positions_, normals_);
  return anim::skin(*d.skinning_, bones, skin_ws_, morph_ws_.vertex_offsets(), positions_, normals_);
}

}  // namespace mmdkit::anim

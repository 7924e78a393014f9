// Baking physics into a motion (bake.hpp).
#include "mmdkit/physics/bake.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/bone_math.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/physics/character_physics.hpp"

namespace mmdkit::physics {

namespace {

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3 scaled(const Vec3& a, float s) { return {a[0] * s, a[1] * s, a[2] * s}; }

/// A fixed-axis bone's key farther than this from its axis (degrees) is reported as not keyable.
constexpr double kFixedAxisTolerance = 0.01;

/// Frames on which a fixed-axis bone's key leaves its axis, and by how much at most (degrees).
struct AxisLoss {
  std::uint32_t frames = 0;
  double worst = 0;
};

/// The first motion with the others' names and keys appended.
vmd::Motion merge(std::span<const vmd::Motion* const> motions) {
  vmd::Motion out = *motions[0];
  for (std::size_t m = 1; m < motions.size(); ++m) {
    const vmd::Motion& mo = *motions[m];
    const auto bone_base = static_cast<std::uint32_t>(out.bone_names.size());
    const auto morph_base = static_cast<std::uint32_t>(out.morph_names.size());
    out.bone_names.insert(out.bone_names.end(), mo.bone_names.begin(), mo.bone_names.end());
    out.morph_names.insert(out.morph_names.end(), mo.morph_names.begin(), mo.morph_names.end());
    for (vmd::BoneKey k : mo.bone_keys) {
      k.name += bone_base;
      out.bone_keys.push_back(k);
    }
    for (vmd::MorphKey k : mo.morph_keys) {
      k.name += morph_base;
      out.morph_keys.push_back(k);
    }
    out.property_keys.insert(out.property_keys.end(), mo.property_keys.begin(), mo.property_keys.end());
    if (out.camera_keys.empty()) out.camera_keys = mo.camera_keys;
  }
  out.sections_present = vmd::kSectionCount;
  return out;
}

std::vector<std::uint8_t> name_key(const vmd::TrackName& n, Encoding enc) {
  if (!n.raw.empty()) return binding_key(n.raw);
  auto k = binding_key_of_text(n.text, enc);
  return k ? *k : std::vector<std::uint8_t>{};
}

/// Which bones are keyed and which IK solvers switched off (docs/PHYSICS.md "Bake").
struct KeyPlan {
  std::vector<std::uint8_t> driven;      ///< per bone: physics writes it
  std::vector<std::uint8_t> keyed;       ///< per bone: keyed (keyable or not)
  std::vector<std::uint32_t> ik_off;     ///< IK solvers switched off over the range
  std::vector<std::uint32_t> bones;      ///< keyed and keyable, ascending
  std::vector<std::uint32_t> order;      ///< `bones` in evaluation order (append sources first)
};

// Grown to a fixed point:
//  - the bones physics writes;
//  - every IK solver whose IK bone (goal), effector or link is moved (written by physics or a
//    descendant of such a bone: the solver saw its place before physics, a playback would see
//    it after) or keyed: switched off, and all its links keyed with the rotation IK gave them;
//  - appenders of a keyed source; "local" appenders (PMX 0x80, model-space source) of a moved
//    source.
KeyPlan plan_keys(const anim::Skeleton& sk, std::span<const std::uint32_t> driven_bones) {
  const std::size_t nb = sk.bone_count();
  const auto parents = sk.parents();
  KeyPlan plan;
  plan.driven.assign(nb, 0);
  plan.keyed.assign(nb, 0);
  std::vector<std::uint8_t>& keyed = plan.keyed;
  std::vector<std::uint8_t> moved(nb, 0);
  for (std::uint32_t b : driven_bones) plan.driven[b] = keyed[b] = moved[b] = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t b = 0; b < nb; ++b)
      if (!moved[b] && parents[b] >= 0 && moved[static_cast<std::size_t>(parents[b])]) moved[b] = grew = true;
  }
  std::vector<std::uint8_t> solver_off(sk.ik_count(), 0);
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t s = 0; s < sk.ik_count(); ++s) {
      if (solver_off[s]) continue;
      const anim::IkSolver& sv = sk.solvers()[s];
      auto touched = [&](std::uint32_t b) { return moved[b] || keyed[b]; };
      bool touches = touched(sv.bone) || touched(sv.effector);
      for (std::uint32_t l = sv.link_begin; l < sv.link_end; ++l) touches = touches || touched(sk.ik_links()[l].bone);
      if (!touches) continue;
      solver_off[s] = 1;
      grew = true;
      for (std::uint32_t l = sv.link_begin; l < sv.link_end; ++l) keyed[sk.ik_links()[l].bone] = 1;
    }
    for (std::size_t b = 0; b < nb; ++b) {
      const anim::BoneDesc& d = sk.desc(b);
      if (keyed[b] || d.append_source < 0 || !(d.append_rotation || d.append_translation)) continue;
      const auto src = static_cast<std::size_t>(d.append_source);
      if (d.append_local ? moved[src] || keyed[src] : keyed[src]) keyed[b] = grew = true;
    }
  }
  for (std::size_t s = 0; s < sk.ik_count(); ++s)
    if (solver_off[s]) plan.ik_off.push_back(static_cast<std::uint32_t>(s));
  return plan;
}

// The keyed bones that VMD can key (plan.bones, plan.order); the others go to `unkeyable`.
void select_keyable(const anim::Skeleton& sk, KeyPlan& plan, std::vector<std::string>& unkeyable) {
  for (std::size_t b = 0; b < sk.bone_count(); ++b) {
    if (!plan.keyed[b]) continue;
    if (sk.desc(b).name_bytes.empty() || sk.desc(b).name_bytes.size() > vmd::kTrackNameSize) {
      unkeyable.push_back(sk.names()[b]);
      continue;
    }
    plan.bones.push_back(static_cast<std::uint32_t>(b));
  }
  for (std::uint32_t b : sk.order())
    if (std::find(plan.bones.begin(), plan.bones.end(), b) != plan.bones.end()) plan.order.push_back(b);
}

// The motion's name entry of each keyed bone (reused when the motion already has the name; added
// otherwise), with their old keys inside [first, last] removed. Returns the entry per bone.
std::vector<std::uint32_t> name_tracks(const anim::Skeleton& sk, std::span<const std::uint32_t> bones,
                                       vmd::Motion& motion, std::uint32_t first, std::uint32_t last) {
  std::map<std::vector<std::uint8_t>, std::uint32_t> names;
  for (std::size_t i = 0; i < motion.bone_names.size(); ++i)
    names.emplace(name_key(motion.bone_names[i], motion.encoding), static_cast<std::uint32_t>(i));
  std::vector<std::uint32_t> name_of(sk.bone_count(), 0);
  std::vector<std::uint8_t> name_keyed(motion.bone_names.size() + bones.size(), 0);
  for (std::uint32_t b : bones) {
    const auto& bytes = sk.desc(b).name_bytes;
    auto it = names.find(bytes);
    if (it == names.end()) {
      vmd::TrackName n;
      n.raw = bytes;
      n.text = sk.names()[b];
      it = names.emplace(bytes, static_cast<std::uint32_t>(motion.bone_names.size())).first;
      motion.bone_names.push_back(std::move(n));
    }
    name_of[b] = it->second;
    name_keyed[it->second] = 1;
  }
  std::erase_if(motion.bone_keys, [&](const vmd::BoneKey& k) {
    return k.name < name_keyed.size() && name_keyed[k.name] && k.frame >= first && k.frame <= last;
  });
  return name_of;
}

// Angle (degrees) between a fixed-axis bone's key rotation and its projection onto the axis, from
// ‖q − ±pq‖ = 2·sin(θ/4) (well conditioned near 0).
double off_axis_degrees(const Quat& key_rot, const Vec3& axis) {
  const Quat q = quat_normalize(key_rot);
  const Quat pq = anim::project_to_axis(q, axis);
  const double sign = q[0] * pq[0] + q[1] * pq[1] + q[2] * pq[2] + q[3] * pq[3] < 0 ? -1.0 : 1.0;
  double d2 = 0;
  for (std::size_t c = 0; c < 4; ++c) {
    const double e = static_cast<double>(q[c]) - sign * static_cast<double>(pq[c]);
    d2 += e * e;
  }
  return 4.0 * std::asin(std::min(1.0, std::sqrt(d2) / 2.0)) * 180.0 / std::numbers::pi;
}

/// Writes the keys of one simulated frame: for each keyed bone (in evaluation order) the local
/// transform the playback must give it, compensated for the append the playback adds.
class FrameKeyer {
 public:
  FrameKeyer(const anim::Skeleton& sk, const KeyPlan& plan, std::vector<std::uint32_t> name_of)
      : sk_(sk), plan_(plan), name_of_(std::move(name_of)), value_rot_(sk.bone_count(), kIdentityQuat),
        value_pos_(sk.bone_count(), Vec3{}), valued_(sk.bone_count(), 0) {
    for (std::uint32_t b : plan.bones) valued_[b] = 1;
  }

  /// `morph`: the bone morph offsets of the frame (per bone; the playback applies the same ones,
  /// the motion's morph keys being kept).
  void key(std::uint32_t f, const anim::PoseWorkspace& ws, std::span<const anim::BoneMorphOffset> morph,
           vmd::Motion& motion) {
    static const auto interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve,
                                                                     vmd::kLinearCurve, vmd::kLinearCurve, true);
    const auto offsets = sk_.bind_offsets();
    const auto parents = sk_.parents();
    const auto mr = ws.model_rotations();
    const auto mpos = ws.model_positions();
    const auto lr = ws.local_rotations();
    const auto lt = ws.local_translations();
    // What an appender reads of a (non-local) source in the playback: the source's local
    // rotation and offset (IK off), which are the run's for every bone.
    auto source_rot = [&](std::size_t b) { return valued_[b] ? value_rot_[b] : lr[b]; };
    auto source_pos = [&](std::size_t b) { return valued_[b] ? value_pos_[b] : sub(lt[b], offsets[b]); };
    for (std::uint32_t b : plan_.order) {
      const anim::BoneDesc& d = sk_.desc(b);
      // The local transform the playback must give the bone: the run's (for a bone physics
      // wrote, relative to its parent's result).
      Quat want_rot = lr[b];
      Vec3 want_pos = sub(lt[b], offsets[b]);
      if (plan_.driven[b]) {
        const std::int32_t p = parents[b];
        if (p >= 0) {
          const Quat inv = quat_conjugate(mr[static_cast<std::size_t>(p)]);
          want_rot = quat_multiply(inv, mr[b]);
          want_pos = sub(quat_rotate(inv, sub(mpos[b], mpos[static_cast<std::size_t>(p)])), offsets[b]);
        } else {
          want_rot = mr[b];
          want_pos = sub(mpos[b], offsets[b]);
        }
      }
      value_rot_[b] = want_rot;
      value_pos_[b] = want_pos;
      // The playback composes local = key · append (pose.cpp): the key compensates for the
      // append the playback will add (the source's value there is the run's final one).
      Quat key_rot = want_rot;
      Vec3 key_pos = want_pos;
      if (d.append_source >= 0 && (d.append_rotation || d.append_translation)) {
        const auto s = static_cast<std::size_t>(d.append_source);
        if (d.append_rotation) {
          Quat a = d.append_local ? mr[s] : source_rot(s);
          if (d.append_ratio != 1.0f) a = quat_slerp(kIdentityQuat, a, d.append_ratio);
          key_rot = quat_multiply(want_rot, quat_conjugate(a));
        }
        if (d.append_translation) {
          Vec3 t = d.append_local ? sub(mpos[s], sk_.bind_positions()[s]) : source_pos(s);
          if (d.append_ratio != 1.0f) t = scaled(t, d.append_ratio);
          key_pos = sub(want_pos, t);
        }
      }
      // The playback puts the bone morph offset before the key (local = morph · key · append,
      // translation key + morph + append): a bone a morph moves is keyed without it. (Skipped at
      // the identity offset, which changes nothing but the sign of a zero.)
      if (b < morph.size()) {
        const anim::BoneMorphOffset& m = morph[b];
        if (m.rotation != kIdentityQuat) key_rot = quat_multiply(quat_conjugate(m.rotation), key_rot);
        if (m.translation != Vec3{}) key_pos = sub(key_pos, m.translation);
      }
      // A fixed-axis bone's key is projected onto its axis when played back: what leaves the
      // axis cannot be keyed.
      if (d.has_fixed_axis) {
        const double deg = off_axis_degrees(key_rot, d.fixed_axis);
        if (deg > kFixedAxisTolerance) {
          AxisLoss& loss = axis_loss_[b];
          ++loss.frames;
          loss.worst = std::max(loss.worst, deg);
        }
      }
      vmd::BoneKey k;
      k.name = name_of_[b];
      k.frame = f;
      k.position = key_pos;
      k.rotation = quat_normalize(key_rot);
      k.interpolation = interpolation;
      motion.bone_keys.push_back(k);
    }
  }

  /// Fixed-axis bones whose key left the axis, by bone.
  const std::map<std::uint32_t, AxisLoss>& axis_loss() const noexcept { return axis_loss_; }

 private:
  const anim::Skeleton& sk_;
  const KeyPlan& plan_;
  std::vector<std::uint32_t> name_of_;
  // The local transform each keyed bone gets in the playback (valued: keyed and keyable).
  std::vector<Quat> value_rot_;
  std::vector<Vec3> value_pos_;
  std::vector<std::uint8_t> valued_;
  std::map<std::uint32_t, AxisLoss> axis_loss_;
};

// IK switches: off at `first` (and in any property key inside the range), back to the input's
// state after `last` (`ik_after`: the input's IK states at last + 1; `motion_last`: the input's
// last key frame).
void switch_ik(const anim::Skeleton& sk, std::span<const std::uint32_t> ik_off, std::span<const std::uint8_t> ik_after,
               std::uint32_t first, std::uint32_t last, std::uint32_t motion_last, vmd::Motion& motion) {
  auto ik_name = [&](std::uint32_t s) {
    vmd::FixedName<vmd::kIkNameSize> n;
    const std::uint32_t bone = sk.solvers()[s].bone;
    const auto& bytes = sk.desc(bone).name_bytes;
    n.raw.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min(bytes.size(), vmd::kIkNameSize)));
    n.text = sk.names()[bone];
    return n;
  };
  auto visible_at = [&](std::uint32_t f) {
    std::uint8_t v = 1;
    std::uint32_t best = 0;
    bool found = false;
    for (const vmd::PropertyKey& p : motion.property_keys)
      if (p.frame <= f && (!found || p.frame >= best)) {
        best = p.frame;
        v = p.visible;
        found = true;
      }
    return v;
  };
  for (vmd::PropertyKey& p : motion.property_keys) {
    if (p.frame < first || p.frame > last) continue;
    for (vmd::IkState& st : p.ik)
      for (std::uint32_t s : ik_off)
        if (std::ranges::equal(until_nul(st.name.raw), until_nul(ik_name(s).raw))) st.enabled = 0;
  }
  vmd::PropertyKey start{first, visible_at(first), {}};
  vmd::PropertyKey after{last + 1, visible_at(last + 1), {}};
  for (std::uint32_t s : ik_off) {
    start.ik.push_back({ik_name(s), 0});
    after.ik.push_back({ik_name(s), ik_after[s]});
  }
  motion.property_keys.push_back(std::move(start));
  if (last < motion_last) motion.property_keys.push_back(std::move(after));
}

// One warning per fixed-axis bone whose baked rotation leaves its axis.
void warn_axis_loss(const anim::Skeleton& sk, const std::map<std::uint32_t, AxisLoss>& axis_loss, BakeResult& out) {
  for (const auto& [b, loss] : axis_loss) {
    char worst[32];
    std::snprintf(worst, sizeof worst, "%.3g", loss.worst);
    out.fixed_axis_loss.push_back(sk.names()[b]);
    out.warnings.push_back({0, "bake", static_cast<std::int64_t>(b), sk.names()[b],
                            "fixed axis: the baked rotation leaves the bone's axis on " + std::to_string(loss.frames) +
                                " frames (up to " + worst +
                                " degrees); a VMD key of this bone is projected onto the axis when played back, so "
                                "the baked motion keeps only the rotation about the axis there"});
  }
}

}  // namespace

Result<BakeResult> bake(const std::shared_ptr<const anim::CharacterData>& data,
                        std::span<const vmd::Motion* const> motions, const BakeOptions& options,
                        const BakeProgress& progress) {
  if (motions.empty() || !motions[0]) return make_error(ErrorCode::invalid_argument, "bake needs a motion");
  if (!data) return make_error(ErrorCode::invalid_argument, "bake needs a character");
  const anim::Skeleton& sk = data->skeleton();
  const anim::MotionSampler& sampler = data->bone_motion();
  const std::uint32_t last = options.last.value_or(sampler.last_frame());
  if (options.first > last)
    return make_error(ErrorCode::invalid_argument,
                      "first frame " + std::to_string(options.first) + " is after the last " + std::to_string(last));

  // The run: the character evaluated with physics from frame 0 (bones only).
  anim::Character character(data);
  character.set_skinning_matrices(false);
  character.set_morphs(false);
  character.set_camera_and_light(false);
  CharacterPhysics physics(character, options.settings);

  BakeResult out;
  out.motion = merge(motions);
  KeyPlan plan = plan_keys(sk, physics.model_physics().driven_bones());
  out.switched_ik = plan.ik_off.size();
  select_keyable(sk, plan, out.unkeyable);
  out.baked_bones = plan.bones.size();
  FrameKeyer keyer(sk, plan, name_tracks(sk, plan.bones, out.motion, options.first, last));

  // The simulation, keys on [first, last].
  const std::uint32_t total = last + 1;
  for (std::uint32_t f = 0; f <= last; ++f) {
    if (auto r = physics.evaluate(f); !r) return std::unexpected(r.error());
    const std::uint32_t every = options.progress_every;
    if (progress && every && total > every && (f + 1) % every == 0) progress(f + 1, total);
    if (f >= options.first) keyer.key(f, character.pose(), character.morphs().bone_offsets(), out.motion);
  }

  if (!plan.ik_off.empty()) {
    std::vector<anim::BonePose> local(sk.bone_count());
    std::vector<std::uint8_t> ik_after(sk.ik_count(), 1);
    anim::MotionSampler::Cursors cursors = sampler.make_cursors();
    sampler.sample(static_cast<double>(last) + 1, local, ik_after, cursors);
    switch_ik(sk, plan.ik_off, ik_after, options.first, last, sampler.last_frame(), out.motion);
  }
  out.warnings.assign(physics.warnings().begin(), physics.warnings().end());
  warn_axis_loss(sk, keyer.axis_loss(), out);
  return out;
}

}  // namespace mmdkit::physics

// Baking physics into a motion (bake.hpp).
#include "mmdkit/physics/bake.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/anim/bone_math.hpp"
#include "mmdkit/anim/motion_sampler.hpp"
#include "mmdkit/anim/pose.hpp"
#include "mmdkit/anim/skeleton.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/model/model.hpp"

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
  if (!n.raw.empty()) return anim::track_match_key(n.raw);
  auto k = anim::track_match_key_utf8(n.text, enc);
  return k ? *k : std::vector<std::uint8_t>{};
}

}  // namespace

Result<BakeResult> bake(const model::Model& model, std::span<const vmd::Motion* const> motions, const BakeOptions& options,
                        const Replay::Progress& progress) {
  if (motions.empty() || !motions[0]) return make_error(ErrorCode::invalid_argument, "bake needs a motion");
  auto sk = anim::build_skeleton(model);
  if (!sk) return std::unexpected(sk.error());
  auto sampler = anim::MotionSampler::create(*sk, motions);
  if (!sampler) return std::unexpected(sampler.error());
  const std::uint32_t last = options.last.value_or(sampler->last_frame());
  if (options.first > last)
    return make_error(ErrorCode::invalid_argument,
                      "first frame " + std::to_string(options.first) + " is after the last " + std::to_string(last));

  BakeResult out;
  out.motion = merge(motions);
  World world(options.settings);
  ModelPhysics& mp = world.add_model(model, *sk);
  Replay replay(world, mp, *sk);
  const std::size_t nb = sk->bone_count();

  // Bones keyed and IK solvers switched off (docs/PHYSICS.md "Bake"), grown to a fixed point:
  //  - the bones physics writes;
  //  - every IK solver whose IK bone (goal), effector or link is moved (written by physics or a
  //    descendant of such a bone: the solver saw its place before physics, a playback would see
  //    it after) or keyed: switched off, and all its links keyed with the rotation IK gave them;
  //  - appenders of a keyed source; "local" appenders (PMX 0x80, model-space source) of a moved
  //    source.
  const auto parents = sk->parents();
  std::vector<std::uint8_t> driven(nb, 0), keyed(nb, 0), moved(nb, 0);
  for (std::uint32_t b : mp.driven_bones()) driven[b] = keyed[b] = moved[b] = 1;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t b = 0; b < nb; ++b)
      if (!moved[b] && parents[b] >= 0 && moved[static_cast<std::size_t>(parents[b])]) moved[b] = grew = true;
  }
  std::vector<std::uint8_t> solver_off(sk->ik_count(), 0);
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t s = 0; s < sk->ik_count(); ++s) {
      if (solver_off[s]) continue;
      const anim::IkSolver& sv = sk->solvers()[s];
      auto touched = [&](std::uint32_t b) { return moved[b] || keyed[b]; };
      bool touches = touched(sv.bone) || touched(sv.effector);
      for (std::uint32_t l = sv.link_begin; l < sv.link_end; ++l) touches = touches || touched(sk->ik_links()[l].bone);
      if (!touches) continue;
      solver_off[s] = 1;
      grew = true;
      for (std::uint32_t l = sv.link_begin; l < sv.link_end; ++l) keyed[sk->ik_links()[l].bone] = 1;
    }
    for (std::size_t b = 0; b < nb; ++b) {
      const anim::BoneDesc& d = sk->desc(b);
      if (keyed[b] || d.append_source < 0 || !(d.append_rotation || d.append_translation)) continue;
      const auto src = static_cast<std::size_t>(d.append_source);
      if (d.append_local ? moved[src] || keyed[src] : keyed[src]) keyed[b] = grew = true;
    }
  }
  std::vector<std::uint32_t> ik_off;
  for (std::size_t s = 0; s < sk->ik_count(); ++s)
    if (solver_off[s]) ik_off.push_back(static_cast<std::uint32_t>(s));
  out.switched_ik = ik_off.size();
  std::vector<std::uint32_t> bones;  // keyed and keyable
  for (std::size_t b = 0; b < nb; ++b) {
    if (!keyed[b]) continue;
    if (sk->desc(b).name_bytes.empty() || sk->desc(b).name_bytes.size() > vmd::kTrackNameSize) {
      out.unkeyable.push_back(sk->names()[b]);
      continue;
    }
    bones.push_back(static_cast<std::uint32_t>(b));
  }
  out.baked_bones = bones.size();
  // Keyed bones in evaluation order (append sources before appenders).
  std::vector<std::uint32_t> order;
  for (std::uint32_t b : sk->order())
    if (std::find(bones.begin(), bones.end(), b) != bones.end()) order.push_back(b);

  // Name entries of the keyed bones (reused when the motion already has the name), and the
  // removal of their old keys inside the range.
  std::map<std::vector<std::uint8_t>, std::uint32_t> names;
  for (std::size_t i = 0; i < out.motion.bone_names.size(); ++i)
    names.emplace(name_key(out.motion.bone_names[i], out.motion.encoding), static_cast<std::uint32_t>(i));
  std::vector<std::uint32_t> name_of(nb, 0);
  std::vector<std::uint8_t> name_keyed(out.motion.bone_names.size() + bones.size(), 0);
  for (std::uint32_t b : bones) {
    const auto& bytes = sk->desc(b).name_bytes;
    auto it = names.find(bytes);
    if (it == names.end()) {
      vmd::TrackName n;
      n.raw = bytes;
      n.text = sk->names()[b];
      it = names.emplace(bytes, static_cast<std::uint32_t>(out.motion.bone_names.size())).first;
      out.motion.bone_names.push_back(std::move(n));
    }
    name_of[b] = it->second;
    name_keyed[it->second] = 1;
  }
  std::erase_if(out.motion.bone_keys, [&](const vmd::BoneKey& k) {
    return k.name < name_keyed.size() && name_keyed[k.name] && k.frame >= options.first && k.frame <= last;
  });

  // The simulation, keys on [first, last].
  anim::PoseWorkspace ws(*sk);
  std::vector<anim::BonePose> local(nb);
  std::vector<std::uint8_t> ik(sk->ik_count(), 1), ik_after(sk->ik_count(), 1);
  const Replay::Sampler sample = [&](std::uint32_t f, std::span<std::uint8_t> off) {
    sampler->sample(f, local, ik);
    anim::sample_physics_off(sampler->bound(), f, off);
  };
  const auto interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve,
                                                            vmd::kLinearCurve, true);
  // The local transform each keyed bone gets in the playback (valued: keyed and keyable).
  std::vector<Quat> value_rot(nb, kIdentityQuat);
  std::vector<Vec3> value_pos(nb, Vec3{});
  std::vector<std::uint8_t> valued(nb, 0);
  for (std::uint32_t b : bones) valued[b] = 1;
  std::map<std::uint32_t, AxisLoss> axis_loss;
  const auto offsets = sk->bind_offsets();
  const std::uint32_t total = last + 1;
  for (std::uint32_t f = 0; f <= last; ++f) {
    if (auto r = replay.evaluate(f, {local, {}, ik}, ws, sample); !r) return std::unexpected(r.error());
    const std::uint32_t every = options.progress_every;
    if (progress && every && total > every && (f + 1) % every == 0) progress(f + 1, total);
    if (f < options.first) continue;
    const auto mr = ws.model_rotations();
    const auto mpos = ws.model_positions();
    const auto lr = ws.local_rotations();
    const auto lt = ws.local_translations();
    // What an appender reads of a (non-local) source in the playback: the source's local
    // rotation and offset (IK off), which are the run's for every bone.
    auto source_rot = [&](std::size_t b) { return valued[b] ? value_rot[b] : lr[b]; };
    auto source_pos = [&](std::size_t b) { return valued[b] ? value_pos[b] : sub(lt[b], offsets[b]); };
    for (std::uint32_t b : order) {
      const anim::BoneDesc& d = sk->desc(b);
      // The local transform the playback must give the bone: the run's (for a bone physics
      // wrote, relative to its parent's result).
      Quat want_rot = lr[b];
      Vec3 want_pos = sub(lt[b], offsets[b]);
      if (driven[b]) {
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
      value_rot[b] = want_rot;
      value_pos[b] = want_pos;
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
          Vec3 t = d.append_local ? sub(mpos[s], sk->bind_positions()[s]) : source_pos(s);
          if (d.append_ratio != 1.0f) t = scaled(t, d.append_ratio);
          key_pos = sub(want_pos, t);
        }
      }
      // A fixed-axis bone's key is projected onto its axis when played back: what leaves the
      // axis cannot be keyed.
      if (d.has_fixed_axis) {
        const Quat q = quat_normalize(key_rot);
        const Quat pq = anim::project_to_axis(q, d.fixed_axis);
        // Angle between the two rotations from ‖q − ±pq‖ = 2·sin(θ/4) (well conditioned near 0).
        const double sign = q[0] * pq[0] + q[1] * pq[1] + q[2] * pq[2] + q[3] * pq[3] < 0 ? -1.0 : 1.0;
        double d2 = 0;
        for (std::size_t c = 0; c < 4; ++c) {
          const double e = static_cast<double>(q[c]) - sign * static_cast<double>(pq[c]);
          d2 += e * e;
        }
        const double deg = 4.0 * std::asin(std::min(1.0, std::sqrt(d2) / 2.0)) * 180.0 / std::numbers::pi;
        if (deg > kFixedAxisTolerance) {
          AxisLoss& loss = axis_loss[b];
          ++loss.frames;
          loss.worst = std::max(loss.worst, deg);
        }
      }
      vmd::BoneKey k;
      k.name = name_of[b];
      k.frame = f;
      k.position = key_pos;
      k.rotation = quat_normalize(key_rot);
      k.interpolation = interpolation;
      out.motion.bone_keys.push_back(k);
    }
  }

  // IK switches: off at `first` (and in any property key inside the range), back to the input's
  // state after `last`.
  if (!ik_off.empty()) {
    auto ik_name = [&](std::uint32_t s) {
      vmd::FixedName<vmd::kIkNameSize> n;
      const std::uint32_t bone = sk->solvers()[s].bone;
      const auto& bytes = sk->desc(bone).name_bytes;
      n.raw.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min(bytes.size(), vmd::kIkNameSize)));
      n.text = sk->names()[bone];
      return n;
    };
    auto visible_at = [&](std::uint32_t f) {
      std::uint8_t v = 1;
      std::uint32_t best = 0;
      bool found = false;
      for (const vmd::PropertyKey& p : out.motion.property_keys)
        if (p.frame <= f && (!found || p.frame >= best)) {
          best = p.frame;
          v = p.visible;
          found = true;
        }
      return v;
    };
    std::vector<std::uint8_t> off_set(sk->ik_count(), 0);
    for (std::uint32_t s : ik_off) off_set[s] = 1;
    for (vmd::PropertyKey& p : out.motion.property_keys) {
      if (p.frame < options.first || p.frame > last) continue;
      for (vmd::IkState& st : p.ik)
        for (std::uint32_t s : ik_off)
          if (std::ranges::equal(until_nul(st.name.raw), until_nul(ik_name(s).raw))) st.enabled = 0;
    }
    sampler->sample(static_cast<double>(last) + 1, local, ik_after);
    vmd::PropertyKey start{options.first, visible_at(options.first), {}};
    vmd::PropertyKey after{last + 1, visible_at(last + 1), {}};
    for (std::uint32_t s : ik_off) {
      start.ik.push_back({ik_name(s), 0});
      after.ik.push_back({ik_name(s), ik_after[s]});
    }
    out.motion.property_keys.push_back(std::move(start));
    if (last < sampler->last_frame()) out.motion.property_keys.push_back(std::move(after));
  }
  out.warnings.assign(world.warnings().begin(), world.warnings().end());
  for (const auto& [b, loss] : axis_loss) {
    char worst[32];
    std::snprintf(worst, sizeof worst, "%.3g", loss.worst);
    out.fixed_axis_loss.push_back(sk->names()[b]);
    out.warnings.push_back({0, "bake", static_cast<std::int64_t>(b), sk->names()[b],
                            "fixed axis: the baked rotation leaves the bone's axis on " + std::to_string(loss.frames) +
                                " frames (up to " + worst +
                                " degrees); a VMD key of this bone is projected onto the axis when played back, so "
                                "the baked motion keeps only the rotation about the axis there"});
  }
  return out;
}

}  // namespace mmdkit::physics

// mmdkit motion — keys from wanted model-space transforms (key_fit.hpp).
#include "motion/key_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/core/text.hpp"

namespace mmdkit::motion::key_fit {

std::vector<std::int32_t> keyed_index(const Problem& p) {
  std::vector<std::int32_t> k(p.model->bones.size(), -1);
  for (std::size_t i = 0; i < p.keyed.size(); ++i) k[p.keyed[i].bone] = static_cast<std::int32_t>(i);
  return k;
}

void initial_keys(Problem& p) {
  const model::Model& m = *p.model;
  const std::size_t K = p.keyed.size();
  const auto keyed_of = keyed_index(p);
  for (std::size_t f = 0; f < p.frames; ++f)
    for (std::size_t k = 0; k < K; ++k) {
      if (p.keyed[k].target != Target::rotation && !p.keyed[k].rotate_ik) continue;
      dm::Q parent = dm::kIdentity;
      for (std::int32_t b = m.bones[p.keyed[k].bone].parent; b >= 0; b = m.bones[static_cast<std::size_t>(b)].parent)
        if (const std::int32_t kp = keyed_of[static_cast<std::size_t>(b)];
            kp >= 0 && p.keyed[static_cast<std::size_t>(kp)].target == Target::rotation) {
          parent = p.want_rot[f * K + static_cast<std::size_t>(kp)];
          break;
        }
      p.key_rot[f * K + k] = dm::normalize(dm::mul(dm::conj(parent), p.want_rot[f * K + k]));
    }
}

Result<vmd::Motion> solve(Problem& p, double* worst_deg, double* worst_units) {
  const model::Model& m = *p.model;
  const std::size_t F = p.frames, K = p.keyed.size();
  const auto keyed_of = keyed_index(p);
  std::vector<std::int32_t> effector_of(m.bones.size(), -1);
  for (const model::IkChain& c : m.ik_chains) effector_of[static_cast<std::size_t>(c.ik_bone)] = c.effector;

  vmd::Motion motion;
  motion.version = vmd::Version::v2;
  const std::string_view sig = vmd::signature_text(vmd::Version::v2);
  std::copy(sig.begin(), sig.end(), motion.signature.begin());
  if (auto raw = encode_text(m.name, Encoding::cp932); raw) {
    if (raw->size() > vmd::kModelNameSizeV2) raw->resize(vmd::kModelNameSizeV2);  // MMD cuts it too
    motion.model_name.raw = std::move(*raw);
    motion.model_name.text = m.name;
  }
  motion.encoding = Encoding::cp932;
  for (const Keyed& k : p.keyed) {
    vmd::TrackName t;
    t.raw = m.bones[k.bone].binding_key;
    t.text = m.bones[k.bone].name;
    motion.bone_names.push_back(std::move(t));
  }
  const auto linear = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve);
  auto build_keys = [&]() {
    motion.bone_keys.clear();
    motion.bone_keys.reserve(F * K);
    for (std::size_t f = 0; f < F; ++f)
      for (std::size_t k = 0; k < K; ++k) {
        vmd::BoneKey key;
        key.name = static_cast<std::uint32_t>(k);
        key.frame = p.first_frame + static_cast<std::uint32_t>(f);
        key.position = dm::to_float(p.key_pos[f * K + k]);
        key.rotation = dm::to_float(dm::normalize(p.key_rot[f * K + k]));
        key.interpolation = linear;
        motion.bone_keys.push_back(key);
      }
  };
  vmd::PropertyKey ik_off;
  ik_off.frame = p.first_frame;
  for (const model::IkChain& c : m.ik_chains) {
    vmd::IkState st;
    st.name.raw = m.bones[static_cast<std::size_t>(c.ik_bone)].binding_key;
    st.name.text = m.bones[static_cast<std::size_t>(c.ik_bone)].name;
    st.enabled = 0;
    ik_off.ik.push_back(std::move(st));
  }

  double worst_rot = 0, worst_pos = 0;
  for (int pass = 0; pass < p.max_passes; ++pass) {
    build_keys();
    anim::MotionInputs in;
    in.motions = {&motion};
    auto data = anim::CharacterData::create(p.model, in);
    if (!data) return std::unexpected(data.error());
    anim::Character ch(*data);
    ch.set_ik(false);
    worst_rot = 0, worst_pos = 0;
    for (std::size_t f = 0; f < F; ++f) {
      if (auto r = ch.evaluate(static_cast<double>(p.first_frame + f)); !r) return std::unexpected(r.error());
      const auto rot = ch.pose().model_rotations();
      const auto pos = ch.pose().model_positions();
      auto arot = [&](std::int32_t b) { return b < 0 ? dm::kIdentity : dm::from_float(rot[static_cast<std::size_t>(b)]); };
      auto apos = [&](std::int32_t b) { return b < 0 ? dm::V{} : dm::from_float(pos[static_cast<std::size_t>(b)]); };
      for (std::size_t k = 0; k < K; ++k) {
        const Keyed& kb = p.keyed[k];
        const std::size_t i = f * K + k;
        const std::int32_t parent = m.bones[kb.bone].parent;
        const auto b = static_cast<std::int32_t>(kb.bone);
        const dm::Q ap = arot(parent), ab = arot(b);
        if (kb.target == Target::rotation || (kb.target == Target::ik && kb.rotate_ik)) {
          // L = M·K·X (morph, key, append): K' = L_wanted · L_now⁻¹ · K, L_wanted relative to the
          // parent's wanted rotation when the parent is fitted too (faster than waiting for it).
          dm::Q tp = ap;
          if (parent >= 0)
            if (const std::int32_t kp = keyed_of[static_cast<std::size_t>(parent)];
                kp >= 0 && p.keyed[static_cast<std::size_t>(kp)].target == Target::rotation)
              tp = p.want_rot[f * K + static_cast<std::size_t>(kp)];
          worst_rot = std::max(worst_rot, dm::angle(dm::mul(dm::conj(ab), p.want_rot[i])));
          p.key_rot[i] = dm::normalize(
              dm::mul(dm::mul(dm::mul(dm::conj(tp), p.want_rot[i]), dm::mul(dm::conj(ab), ap)), p.key_rot[i]));
        }
        dm::V goal{};
        bool has_goal = false;
        if (kb.target == Target::rotation && kb.position) {
          goal = p.want_pos[i];
          has_goal = true;
        } else if (kb.target == Target::ik) {
          const dm::V& w = p.want_pos[i];
          const bool given = kb.has_goal && std::isfinite(w[0]) && std::isfinite(w[1]) && std::isfinite(w[2]);
          goal = given ? w : apos(effector_of[kb.bone]);
          has_goal = true;
        }
        if (has_goal) {
          const dm::V d = dm::sub(goal, apos(b));
          worst_pos = std::max(worst_pos, dm::norm(d));
          p.key_pos[i] = dm::add(p.key_pos[i], dm::rotate(dm::conj(ap), d));
        }
      }
    }
    if (worst_rot < 2e-7 && worst_pos < 2e-6) break;
  }
  build_keys();
  motion.property_keys.clear();
  if (p.ik_off && !ik_off.ik.empty()) motion.property_keys.push_back(std::move(ik_off));
  motion.sections_present = vmd::kSectionCount;
  if (worst_deg) *worst_deg = worst_rot * 180.0 / dm::kPi;
  if (worst_units) *worst_units = worst_pos;
  return motion;
}

std::size_t reduce_linear_keys(vmd::Motion& motion, double tol_deg, double tol_units) {
  const double tol_rad = tol_deg * dm::kPi / 180.0;
  // keys per track, by frame
  std::vector<std::vector<std::size_t>> tracks(motion.bone_names.size());
  for (std::size_t i = 0; i < motion.bone_keys.size(); ++i) tracks[motion.bone_keys[i].name].push_back(i);
  std::vector<std::uint8_t> keep(motion.bone_keys.size(), 1);
  std::size_t dropped = 0;
  auto fits = [&](std::size_t a, std::size_t b, std::size_t i) {
    const vmd::BoneKey &ka = motion.bone_keys[a], &kb = motion.bone_keys[b], &ki = motion.bone_keys[i];
    const float t = static_cast<float>(ki.frame - ka.frame) / static_cast<float>(kb.frame - ka.frame);
    const Quat q = quat_slerp(ka.rotation, kb.rotation, t);
    if (double(quat_angle_between(q, ki.rotation)) > tol_rad + 1e-9) return false;
    for (int c = 0; c < 3; ++c) {
      const auto ci = static_cast<std::size_t>(c);
      const double v = double(ka.position[ci]) + (double(kb.position[ci]) - double(ka.position[ci])) * double(t);
      if (std::abs(v - double(ki.position[ci])) > tol_units + 1e-9) return false;
    }
    return true;
  };
  for (auto& tr : tracks) {
    std::sort(tr.begin(), tr.end(), [&](std::size_t x, std::size_t y) { return motion.bone_keys[x].frame < motion.bone_keys[y].frame; });
    std::size_t a = 0;
    while (a + 1 < tr.size()) {
      // extend b while every key between a and b is reproduced (at most 120 keys per span)
      std::size_t b = a + 1;
      while (b + 1 < tr.size() && b + 1 - a <= 120) {
        bool ok = true;
        for (std::size_t i = a + 1; i <= b && ok; ++i) ok = fits(tr[a], tr[b + 1], tr[i]);
        if (!ok) break;
        ++b;
      }
      for (std::size_t i = a + 1; i < b; ++i) {
        keep[tr[i]] = 0;
        ++dropped;
      }
      a = b;
    }
  }
  if (dropped) {
    std::vector<vmd::BoneKey> kept;
    kept.reserve(motion.bone_keys.size() - dropped);
    for (std::size_t i = 0; i < motion.bone_keys.size(); ++i)
      if (keep[i]) kept.push_back(motion.bone_keys[i]);
    motion.bone_keys = std::move(kept);
  }
  return dropped;
}

}  // namespace mmdkit::motion::key_fit

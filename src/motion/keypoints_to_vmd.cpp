// mmdkit motion — 3D keypoints → VMD (motion/keypoints.hpp keypoints_to_vmd; the method is
// docs/KEYPOINTS.md "Method"). Wanted model-space rotations come from limb directions here; the
// keys are found by motion/key_fit.hpp through anim::Character.
#include <algorithm>
#include <span>
#include <cmath>
#include <limits>
#include <string>

#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/keypoints.hpp"
#include "motion/dmath.hpp"
#include "motion/key_fit.hpp"
#include "motion/keypoints_internal.hpp"

namespace mmdkit::motion {
namespace {

// Canonical points: what the method reads, each a layout joint or the midpoint of two.
enum C : int {
  pelvis, spine_mid, chest, head_base, head_top, nose,
  l_hip, l_knee, l_ankle, l_toe, l_collar, l_shoulder, l_elbow, l_wrist, l_hand, l_pinky, l_index,
  r_hip, r_knee, r_ankle, r_toe, r_collar, r_shoulder, r_elbow, r_wrist, r_hand, r_pinky, r_index,
  kCanonCount
};
constexpr int kSide = r_hip - l_hip;  // offset from a left point to its right one
using Spec = std::array<std::array<int, 2>, kCanonCount>;
constexpr std::array<int, 2> N{-1, -1};

constexpr Spec kH36m{{{0, -1}, {7, -1}, {8, -1}, {9, -1}, {10, -1}, N,
                      {4, -1}, {5, -1}, {6, -1}, N, N, {11, -1}, {12, -1}, {13, -1}, N, N, N,
                      {1, -1}, {2, -1}, {3, -1}, N, N, {14, -1}, {15, -1}, {16, -1}, N, N, N}};
constexpr Spec kSmpl{{{0, -1}, {3, -1}, {12, -1}, {15, -1}, N, N,
                      {1, -1}, {4, -1}, {7, -1}, {10, -1}, {13, -1}, {16, -1}, {18, -1}, {20, -1}, {22, -1}, N, N,
                      {2, -1}, {5, -1}, {8, -1}, {11, -1}, {14, -1}, {17, -1}, {19, -1}, {21, -1}, {23, -1}, N, N}};
constexpr Spec kCoco{{{11, 12}, N, {5, 6}, N, N, {0, -1},
                      {11, -1}, {13, -1}, {15, -1}, N, N, {5, -1}, {7, -1}, {9, -1}, N, N, N,
                      {12, -1}, {14, -1}, {16, -1}, N, N, {6, -1}, {8, -1}, {10, -1}, N, N, N}};
// MediaPipe: the hand point is mid(pinky, index); pinky 17/18 and index 19/20 also give the
// hand's roll (the knuckle line).
constexpr Spec kMediapipe{{{23, 24}, N, {11, 12}, N, N, {0, -1},
                           {23, -1}, {25, -1}, {27, -1}, {31, -1}, N, {11, -1}, {13, -1}, {15, -1}, {17, 19}, {17, -1}, {19, -1},
                           {24, -1}, {26, -1}, {28, -1}, {32, -1}, N, {12, -1}, {14, -1}, {16, -1}, {18, 20}, {18, -1}, {20, -1}}};

const Spec& spec_of(KeypointLayout l) {
  switch (l) {
    case KeypointLayout::h36m17: return kH36m;
    case KeypointLayout::coco17: return kCoco;
    case KeypointLayout::mediapipe33: return kMediapipe;
    case KeypointLayout::smpl24: return kSmpl;
  }
  return kH36m;
}

bool finite(const dm::V& v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

std::int32_t bone_named(const model::Model& m, std::string_view name) {
  for (std::size_t i = 0; i < m.bones.size(); ++i)
    if (m.bones[i].name == name) return static_cast<std::int32_t>(i);
  return -1;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// The checks of the arguments: the layout's joint count, the array sizes, fps and scale.
Result<void> check_arguments(const Keypoints& kin, std::size_t J, const KeypointOptions& o) {
  if (kin.joints != J)
    return make_error(ErrorCode::invalid_argument, "layout " + std::string(keypoint_layout_name(o.layout)) + " has " +
                                                       std::to_string(J) + " joints, the array " + std::to_string(kin.joints));
  if (kin.frames == 0) return make_error(ErrorCode::invalid_value, "the keypoints have no frames");
  if (kin.positions.size() != std::size_t{kin.frames} * J * 3 ||
      (!kin.confidence.empty() && kin.confidence.size() != std::size_t{kin.frames} * J))
    return make_error(ErrorCode::invalid_argument, "positions / confidence sizes disagree with frames × joints");
  if (!(o.fps > 0) || !std::isfinite(o.fps)) return make_error(ErrorCode::invalid_argument, "fps must be > 0");
  if (!(o.scale >= 0) || !std::isfinite(o.scale)) return make_error(ErrorCode::invalid_argument, "scale must be ≥ 0");
  return {};
}

// MMD's X, Y, Z: which input axis each is, and its sign (KeypointOptions::axes).
struct Axes {
  std::array<int, 3> axis{};
  std::array<double, 3> sign{};
};

Result<Axes> parse_axes(const KeypointOptions& o) {
  Axes x;
  for (int i = 0; i < 3; ++i) {
    std::string_view a = o.axes[static_cast<std::size_t>(i)];
    x.sign[static_cast<std::size_t>(i)] = 1;
    if (!a.empty() && (a[0] == '-' || a[0] == '+')) {
      x.sign[static_cast<std::size_t>(i)] = a[0] == '-' ? -1 : 1;
      a.remove_prefix(1);
    }
    if (a != "x" && a != "y" && a != "z" && a != "X" && a != "Y" && a != "Z")
      return make_error(ErrorCode::invalid_argument, "axes entry '" + o.axes[static_cast<std::size_t>(i)] + "' is not x, y or z with an optional sign");
    x.axis[static_cast<std::size_t>(i)] = std::tolower(static_cast<unsigned char>(a[0])) - 'x';
  }
  if (x.axis[0] == x.axis[1] || x.axis[1] == x.axis[2] || x.axis[0] == x.axis[2])
    return make_error(ErrorCode::invalid_argument, "axes name one input axis twice");
  return x;
}

// The observed points at 30 fps in MMD axes (P: frame-major, joint, xyz), which canonical points
// are seen (`have`), and the model's rest points (`rest`, the seen ones).
struct Points {
  std::vector<double> P;
  std::size_t F = 0, J = 0;
  const Spec* spec = nullptr;
  std::array<bool, kCanonCount> have{};
  std::array<dm::V, kCanonCount> rest{};
  // Canonical point c of frame f: a joint, or the midpoint of two.
  dm::V canon(std::size_t f, int c) const {
    const auto& s = (*spec)[static_cast<std::size_t>(c)];
    const double* a = &P[(f * J + static_cast<std::size_t>(s[0])) * 3];
    if (s[1] < 0) return {a[0], a[1], a[2]};
    const double* b = &P[(f * J + static_cast<std::size_t>(s[1])) * 3];
    return {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
  }
};

// Positions in MMD axes, missing ones held (a required joint never seen is an error), resampled
// to 30 fps.
Result<Points> observed_points(const Keypoints& kin, const KeypointOptions& o, const Axes& ax,
                               std::span<const std::string_view> names, KeypointReport& rep) {
  Points pts;
  const std::size_t J = names.size();
  pts.J = J;
  const std::size_t F_in = kin.frames;
  std::vector<double>& P = pts.P;
  P.resize(F_in * J * 3);
  for (std::size_t i = 0; i < F_in * J; ++i)
    for (std::size_t c = 0; c < 3; ++c)
      P[i * 3 + c] = ax.sign[c] * double(kin.positions[i * 3 + static_cast<std::size_t>(ax.axis[c])]);
  const Spec& spec = spec_of(o.layout);
  pts.spec = &spec;
  std::vector<std::size_t> never;
  rep.missing = kp::hold_missing(P, F_in, J, kin.confidence, o.min_confidence, never);
  std::array<bool, kCanonCount>& have = pts.have;
  for (int c = 0; c < kCanonCount; ++c) {
    have[static_cast<std::size_t>(c)] = spec[static_cast<std::size_t>(c)][0] >= 0;
    for (int s : spec[static_cast<std::size_t>(c)])
      if (s >= 0 && std::find(never.begin(), never.end(), static_cast<std::size_t>(s)) != never.end()) {
        const bool required = c == pelvis || c == chest || (c >= l_hip && c <= l_ankle) || (c >= r_hip && c <= r_ankle) ||
                              (c >= l_shoulder && c <= l_wrist) || (c >= r_shoulder && c <= r_wrist);
        if (required)
          return make_error(ErrorCode::invalid_value, "joint " + std::to_string(s) + " '" + std::string(names[static_cast<std::size_t>(s)]) +
                                                          "' has no valid position in any frame (nothing to hold)");
        have[static_cast<std::size_t>(c)] = false;
      }
  }
  // Resampled to 30 fps (linear).
  std::size_t F = F_in;
  if (std::abs(o.fps - 30.0) > 1e-9) {
    F = static_cast<std::size_t>(std::floor(double(F_in - 1) * 30.0 / o.fps + 1e-9)) + 1;
    if (F > (std::size_t{1} << 24)) return make_error(ErrorCode::limit_exceeded, "too many frames at 30 fps");
    std::vector<double> R(F * J * 3);
    for (std::size_t f = 0; f < F; ++f) {
      const double t = double(f) * o.fps / 30.0;
      const std::size_t a = std::min(static_cast<std::size_t>(t), F_in - 1), b = std::min(a + 1, F_in - 1);
      const double w = t - double(a);
      for (std::size_t i = 0; i < J * 3; ++i) R[f * J * 3 + i] = P[a * J * 3 + i] * (1 - w) + P[b * J * 3 + i] * w;
    }
    P = std::move(R);
  }
  pts.F = F;
  return pts;
}

// The model's rest points (the layout placed on the model's bones), and the bones the method needs.
Result<void> rest_points(const model::Model& m, const KeypointOptions& o, Points& pts) {
  const auto rest_layout = kp::layout_on_model(m, o.layout, {}, {});
  const Spec& spec = *pts.spec;
  auto& have = pts.have;
  for (int c = 0; c < kCanonCount; ++c) {
    if (!have[static_cast<std::size_t>(c)]) continue;
    const auto& s = spec[static_cast<std::size_t>(c)];
    dm::V v = rest_layout[static_cast<std::size_t>(s[0])];
    if (s[1] >= 0) v = dm::scale(dm::add(v, rest_layout[static_cast<std::size_t>(s[1])]), 0.5);
    pts.rest[static_cast<std::size_t>(c)] = v;
    if (!finite(v)) have[static_cast<std::size_t>(c)] = false;
  }
  struct Need {
    const char* bone;
    int point;
  };
  for (Need n : {Need{"センター", -1}, Need{"上半身", chest}, Need{"下半身", pelvis}, Need{"左足", l_hip}, Need{"左ひざ", l_knee},
                 Need{"左足首", l_ankle}, Need{"右足", r_hip}, Need{"右ひざ", r_knee}, Need{"右足首", r_ankle}, Need{"左腕", l_shoulder},
                 Need{"左ひじ", l_elbow}, Need{"左手首", l_wrist}, Need{"右腕", r_shoulder}, Need{"右ひじ", r_elbow}, Need{"右手首", r_wrist}})
    if (bone_named(m, n.bone) < 0 || (n.point >= 0 && !have[static_cast<std::size_t>(n.point)]))
      return make_error(ErrorCode::invalid_value, std::string("the model has no bone '") + n.bone +
                                                      "' (the method needs センター, 上半身, 下半身 and both legs and arms)");
  return {};
}

// Scale (input units per MMD unit: the leg lengths' median against the model's, unless given) and
// floor (a low percentile of the lower ankle, moved onto the model's ankle height); the points are
// scaled, smoothed when asked, and moved. Returns the model's rest ankle height.
double scale_and_floor(Points& pts, const KeypointOptions& o, KeypointReport& rep) {
  const std::size_t F = pts.F;
  const auto& rest = pts.rest;
  auto leg = [&](auto point) {
    return (dm::norm(dm::sub(point(l_knee), point(l_hip))) + dm::norm(dm::sub(point(l_ankle), point(l_knee))) +
            dm::norm(dm::sub(point(r_knee), point(r_hip))) + dm::norm(dm::sub(point(r_ankle), point(r_knee)))) / 2;
  };
  double s = o.scale;
  if (!(s > 0)) {
    std::vector<double> lens(F);
    for (std::size_t f = 0; f < F; ++f) lens[f] = leg([&](int c) { return pts.canon(f, c); });
    const double model_leg = leg([&](int c) { return rest[static_cast<std::size_t>(c)]; });
    s = model_leg > 0 ? median(lens) / model_leg : 1.0;
    if (!(s > 0) || !std::isfinite(s)) s = 1.0;
  }
  rep.scale = s;
  for (double& v : pts.P) v /= s;
  if (o.smoothing) kp::one_euro(pts.P, F, pts.J, *o.smoothing, 30.0);
  const double rest_ankle_y = (rest[l_ankle][1] + rest[r_ankle][1]) / 2;
  std::vector<double> low(F);
  for (std::size_t f = 0; f < F; ++f) low[f] = std::min(pts.canon(f, l_ankle)[1], pts.canon(f, r_ankle)[1]);
  std::sort(low.begin(), low.end());
  rep.floor = low[std::min(F - 1, static_cast<std::size_t>(0.05 * double(F)))];
  const double shift = rest_ankle_y - rep.floor;
  for (std::size_t i = 0; i < F * pts.J; ++i) pts.P[i * 3 + 1] += shift;
  return rest_ankle_y;
}

struct SideBones {
  std::int32_t shoulder, arm, arm_twist, elbow, hand_twist, wrist, leg, knee, ankle;
  bool hand_roll;  // the hand's orientation is seen (wrist, hand point and the knuckle line)
};

// The keyed bones (their key_fit slots) and the model bones the method reads.
struct KeyedBones {
  std::vector<std::int32_t> slot;  // per model bone: its index in Problem::keyed, −1 if not keyed
  std::int32_t center = -1, groove = -1, lower = -1, upper = -1, neck = -1, head = -1;
  std::array<SideBones, 2> side{};
  std::array<std::int32_t, 2> foot_ik{-1, -1};
};

// Chooses the keyed bones: rotations of the body, head and limbs the points show, translations of
// センター / グルーブ, and (leg IK) the IK bones, the feet's with a goal. Sizes the problem's tables.
KeyedBones choose_bones(const model::Model& m, const Points& pts, const KeypointOptions& o, key_fit::Problem& prob,
                        KeypointReport& rep) {
  const auto& have = pts.have;
  const std::size_t F = pts.F;
  KeyedBones kb;
  kb.center = bone_named(m, "センター");
  kb.groove = bone_named(m, "グルーブ");
  kb.lower = bone_named(m, "下半身");
  kb.upper = bone_named(m, "上半身");
  kb.slot.assign(m.bones.size(), -1);
  auto add = [&](std::int32_t b, key_fit::Target t) {
    if (b < 0 || kb.slot[static_cast<std::size_t>(b)] >= 0) return;
    kb.slot[static_cast<std::size_t>(b)] = static_cast<std::int32_t>(prob.keyed.size());
    prob.keyed.push_back({static_cast<std::size_t>(b), t, false, false});
  };
  add(kb.lower, key_fit::Target::rotation);
  add(kb.upper, key_fit::Target::rotation);
  kb.neck = have[head_base] || have[nose] ? bone_named(m, "首") : -1;
  kb.head = have[head_base] && have[head_top] ? bone_named(m, "頭") : -1;
  add(kb.neck, key_fit::Target::rotation);
  add(kb.head, key_fit::Target::rotation);
  for (int k = 0; k < 2; ++k) {
    const std::string p = k == 0 ? "左" : "右";
    const int o2 = k * kSide;
    SideBones& sb = kb.side[static_cast<std::size_t>(k)];
    sb.shoulder = have[static_cast<std::size_t>(l_collar + o2)] ? bone_named(m, p + "肩") : -1;
    sb.arm = bone_named(m, p + "腕");
    sb.arm_twist = bone_named(m, p + "腕捩");
    sb.elbow = bone_named(m, p + "ひじ");
    sb.wrist = have[static_cast<std::size_t>(l_hand + o2)] ? bone_named(m, p + "手首") : -1;
    sb.hand_roll = sb.wrist >= 0 && have[static_cast<std::size_t>(l_pinky + o2)] && have[static_cast<std::size_t>(l_index + o2)];
    sb.hand_twist = sb.hand_roll ? bone_named(m, p + "手捩") : -1;
    sb.leg = bone_named(m, p + "足");
    sb.knee = bone_named(m, p + "ひざ");
    sb.ankle = have[static_cast<std::size_t>(l_toe + o2)] ? bone_named(m, p + "足首") : -1;
    for (std::int32_t b : {sb.shoulder, sb.arm, sb.arm_twist, sb.elbow, sb.hand_twist, sb.wrist, sb.leg, sb.knee, sb.ankle})
      add(b, key_fit::Target::rotation);
  }
  rep.bones = prob.keyed.size();
  add(kb.center, key_fit::Target::fixed_translation);
  add(kb.groove, key_fit::Target::fixed_translation);
  if (o.leg_ik)
    for (const model::IkChain& c : m.ik_chains) {
      add(c.ik_bone, key_fit::Target::ik);
      for (int k = 0; k < 2; ++k)
        if (c.effector == bone_named(m, k == 0 ? "左足首" : "右足首")) kb.foot_ik[static_cast<std::size_t>(k)] = c.ik_bone;
    }
  for (std::int32_t b : kb.foot_ik)
    if (b >= 0) prob.keyed[static_cast<std::size_t>(kb.slot[static_cast<std::size_t>(b)])].has_goal = true;
  const std::size_t K = prob.keyed.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  prob.want_rot.assign(F * K, dm::kIdentity);
  prob.want_pos.assign(F * K, dm::V{nan, nan, nan});
  prob.key_rot.assign(F * K, dm::kIdentity);
  prob.key_pos.assign(F * K, dm::V{});
  return kb;
}

// The wanted world rotations of every frame (from the limb directions), the センター / グルーブ
// keys, and each ankle's observed position per frame (for ground contact).
std::array<std::vector<dm::V>, 2> want_rotations(const model::Model& m, const Points& pts, const KeyedBones& kb,
                                                 key_fit::Problem& prob) {
  const std::size_t F = pts.F;
  const std::size_t K = prob.keyed.size();
  const auto& have = pts.have;
  const auto& rest = pts.rest;
  const auto& slot = kb.slot;
  const auto& side = kb.side;
  const std::int32_t b_center = kb.center, b_groove = kb.groove, b_lower = kb.lower, b_upper = kb.upper,
                     b_neck = kb.neck, b_head = kb.head;
  const dm::V front{0, 0, -1}, back{0, 0, 1};
  const double straight_lo = 10.0 * dm::kPi / 180, straight_hi = 30.0 * dm::kPi / 180;
  auto want = [&](std::size_t f, std::int32_t b, const dm::Q& q) {
    if (b >= 0) prob.want_rot[f * K + static_cast<std::size_t>(slot[static_cast<std::size_t>(b)])] = q;
  };
  // Child world rotation turning the parent's frame by the shortest arc onto the observed direction.
  auto arc_from = [&](const dm::Q& parent, const dm::V& rest_dir, const dm::V& dir) {
    return dm::normalize(dm::mul(dm::arc(dm::rotate(parent, rest_dir), dir), parent));
  };
  // A limb's upper bone: the bend plane fixes its twist; on a straight limb the shortest arc.
  auto limb = [&](const dm::Q& parent, const dm::V& e1, const dm::V& e_bend, const dm::V& d1, const dm::V& d2) {
    const dm::Q straight = arc_from(parent, e1, d1);
    const double n1 = dm::norm(d1), n2 = dm::norm(d2);
    if (!(n1 > 0) || !(n2 > 0)) return straight;
    const double bend = std::acos(std::clamp(dm::dot(d1, d2) / (n1 * n2), -1.0, 1.0));
    const double w = std::clamp((bend - straight_lo) / (straight_hi - straight_lo), 0.0, 1.0);
    if (w == 0) return straight;
    const dm::Q bent = dm::two_vector(e1, dm::cross(e1, e_bend), d1, dm::cross(d1, d2));
    return dm::slerp(straight, bent, w);
  };
  const dm::V lower_head = dm::from_float(m.bones[static_cast<std::size_t>(b_lower)].position);
  // The twist bones' axes: a twist bone's fixed axis when it has one (the evaluator projects its
  // rotation onto it: a twist about another axis would be cut and move the limb below), else the
  // rest segment (腕捩: shoulder → elbow; 手捩: elbow → wrist).
  auto twist_axis = [&](std::int32_t bone, int from, int to) {
    dm::V a = dm::sub(rest[static_cast<std::size_t>(to)], rest[static_cast<std::size_t>(from)]);
    if (bone >= 0 && m.bones[static_cast<std::size_t>(bone)].has_fixed_axis) {
      const dm::V fa = dm::from_float(m.bones[static_cast<std::size_t>(bone)].fixed_axis);
      if (dm::norm(fa) > 1e-9) a = dm::dot(fa, a) < 0 ? dm::scale(fa, -1) : fa;
    }
    return dm::norm(a) > 0 ? dm::scale(a, 1 / dm::norm(a)) : dm::V{1, 0, 0};
  };
  // A twist bone t between a segment bone s and the next bone e: s's world rotation W (what puts
  // e where it belongs) and the twist tw about t's axis are split so that t's key is tw alone and
  // e stays at W's place: with v = t − s and u = e − t (rest heads), s = W·C·tw⁻¹ and t = W·C
  // (`removed`: the twist is taken out of W, 腕 / 腕捩), or s = W·C and t = W·C·tw (the twist is
  // added below W, ひじ / 手捩), C the shortest arc taking the offset the split gives onto v + u
  // (identity when t's head lies on its axis through s's, as in most models).
  struct TwistSplit {
    dm::Q segment, twist;
  };
  auto twist_split = [&](const dm::Q& w, const dm::Q& tw, std::int32_t s_bone, std::int32_t t_bone, std::int32_t e_bone,
                         bool removed) {
    const dm::V hs = dm::from_float(m.bones[static_cast<std::size_t>(s_bone)].position);
    const dm::V ht = dm::from_float(m.bones[static_cast<std::size_t>(t_bone)].position);
    const dm::V he = dm::from_float(m.bones[static_cast<std::size_t>(e_bone)].position);
    const dm::V v = dm::sub(ht, hs), u = dm::sub(he, ht);
    const dm::V got = removed ? dm::add(dm::rotate(dm::conj(tw), v), u) : dm::add(v, dm::rotate(tw, u));
    const dm::Q c = dm::arc(got, dm::add(v, u));
    const dm::Q wc = dm::normalize(dm::mul(w, c));
    if (removed) return TwistSplit{dm::normalize(dm::mul(wc, dm::conj(tw))), wc};
    return TwistSplit{wc, dm::normalize(dm::mul(wc, tw))};
  };
  std::array<dm::V, 2> arm_axis{}, forearm_axis{};
  for (int k = 0; k < 2; ++k) {
    const SideBones& sb = side[static_cast<std::size_t>(k)];
    arm_axis[static_cast<std::size_t>(k)] = twist_axis(sb.arm_twist, l_shoulder + k * kSide, l_elbow + k * kSide);
    forearm_axis[static_cast<std::size_t>(k)] = twist_axis(sb.hand_twist, l_elbow + k * kSide, l_wrist + k * kSide);
  }
  std::array<std::vector<dm::V>, 2> ankle_obs;
  for (auto& a : ankle_obs) a.resize(F);
  for (std::size_t f = 0; f < F; ++f) {
    auto pt = [&](int c) { return pts.canon(f, c); };
    auto rs = [&](int c) { return rest[static_cast<std::size_t>(c)]; };
    const int up_from = have[spine_mid] ? spine_mid : pelvis;
    const dm::Q w_lower = dm::two_vector(dm::sub(rs(l_hip), rs(r_hip)), dm::sub(rs(have[spine_mid] ? spine_mid : chest), rs(pelvis)),
                                         dm::sub(pt(l_hip), pt(r_hip)), dm::sub(pt(have[spine_mid] ? spine_mid : chest), pt(pelvis)));
    const dm::Q w_upper = dm::two_vector(dm::sub(rs(chest), rs(up_from)), dm::sub(rs(l_shoulder), rs(r_shoulder)),
                                         dm::sub(pt(chest), pt(up_from)), dm::sub(pt(l_shoulder), pt(r_shoulder)));
    want(f, b_lower, w_lower);
    want(f, b_upper, w_upper);
    if (b_neck >= 0) {
      const int to = have[head_base] ? head_base : nose;
      const dm::Q w_neck = arc_from(w_upper, dm::sub(rs(to), rs(chest)), dm::sub(pt(to), pt(chest)));
      want(f, b_neck, w_neck);
      if (b_head >= 0) want(f, b_head, arc_from(w_neck, dm::sub(rs(head_top), rs(head_base)), dm::sub(pt(head_top), pt(head_base))));
    }
    for (int k = 0; k < 2; ++k) {
      const int o2 = k * kSide;
      const SideBones& sb = side[static_cast<std::size_t>(k)];
      dm::Q parent = w_upper;
      if (sb.shoulder >= 0) {
        parent = arc_from(w_upper, dm::sub(rs(l_shoulder + o2), rs(l_collar + o2)), dm::sub(pt(l_shoulder + o2), pt(l_collar + o2)));
        want(f, sb.shoulder, parent);
      }
      const dm::V e1 = dm::sub(rs(l_elbow + o2), rs(l_shoulder + o2)), e2 = dm::sub(rs(l_wrist + o2), rs(l_elbow + o2));
      const dm::V d1 = dm::sub(pt(l_elbow + o2), pt(l_shoulder + o2)), d2 = dm::sub(pt(l_wrist + o2), pt(l_elbow + o2));
      const dm::Q w_arm = limb(parent, e1, front, d1, d2);
      if (sb.arm_twist >= 0) {
        // 腕捩: the upper arm's twist about 腕捩's axis; 腕 keeps the rest (rotated by the small C
        // that keeps the elbow where w_arm puts it when 腕捩's head is off that axis).
        const dm::Q local = dm::mul(dm::conj(parent), w_arm);
        const dm::Q tw = dm::twist(local, arm_axis[static_cast<std::size_t>(k)]);
        const TwistSplit sp = twist_split(w_arm, tw, sb.arm, sb.arm_twist, sb.elbow, true);
        want(f, sb.arm, sp.segment);
        want(f, sb.arm_twist, sp.twist);
      } else {
        want(f, sb.arm, w_arm);
      }
      const dm::Q w_elbow = arc_from(w_arm, e2, d2);
      want(f, sb.elbow, w_elbow);
      if (sb.wrist >= 0 && sb.hand_roll) {
        // The hand's whole orientation: its direction (wrist → hand point) and its knuckle line
        // (pinky → index). Its twist about the forearm goes onto 手捩 when the model has it.
        const dm::Q w_hand = dm::two_vector(dm::sub(rs(l_hand + o2), rs(l_wrist + o2)), dm::sub(rs(l_index + o2), rs(l_pinky + o2)),
                                             dm::sub(pt(l_hand + o2), pt(l_wrist + o2)), dm::sub(pt(l_index + o2), pt(l_pinky + o2)));
        if (sb.hand_twist >= 0) {
          const dm::Q local = dm::mul(dm::conj(w_elbow), w_hand);
          const dm::Q tw = dm::twist(local, forearm_axis[static_cast<std::size_t>(k)]);
          const TwistSplit sp = twist_split(w_elbow, tw, sb.elbow, sb.hand_twist, sb.wrist, false);
          want(f, sb.elbow, sp.segment);
          want(f, sb.hand_twist, sp.twist);
        }
        want(f, sb.wrist, w_hand);
      } else if (sb.wrist >= 0) {
        want(f, sb.wrist, arc_from(w_elbow, dm::sub(rs(l_hand + o2), rs(l_wrist + o2)), dm::sub(pt(l_hand + o2), pt(l_wrist + o2))));
      }
      const dm::V g1 = dm::sub(rs(l_knee + o2), rs(l_hip + o2)), g2 = dm::sub(rs(l_ankle + o2), rs(l_knee + o2));
      const dm::V h1 = dm::sub(pt(l_knee + o2), pt(l_hip + o2)), h2 = dm::sub(pt(l_ankle + o2), pt(l_knee + o2));
      const dm::Q w_leg = limb(w_lower, g1, back, h1, h2);
      want(f, sb.leg, w_leg);
      const dm::Q w_knee = arc_from(w_leg, g2, h2);
      want(f, sb.knee, w_knee);
      if (sb.ankle >= 0)
        want(f, sb.ankle, arc_from(w_knee, dm::sub(rs(l_toe + o2), rs(l_ankle + o2)), dm::sub(pt(l_toe + o2), pt(l_ankle + o2))));
      ankle_obs[static_cast<std::size_t>(k)][f] = pt(l_ankle + o2);
    }
    // センター / グルーブ: the pelvis point, less what 下半身's rotation moves it by
    const dm::V c = dm::sub(dm::sub(pt(pelvis), dm::rotate(w_lower, dm::sub(rs(pelvis), lower_head))), lower_head);
    dm::V tc = c, tg{0, 0, 0};
    if (b_groove >= 0) {
      tc[1] = 0;
      tg = {0, c[1], 0};
    }
    prob.key_pos[f * K + static_cast<std::size_t>(slot[static_cast<std::size_t>(b_center)])] = tc;
    if (b_groove >= 0) prob.key_pos[f * K + static_cast<std::size_t>(slot[static_cast<std::size_t>(b_groove)])] = tg;
  }
  return ankle_obs;
}

// Ground contact: a foot near the floor and nearly still holds its place (its IK bone's goal).
void ground_contact(const KeyedBones& kb, const std::array<std::vector<dm::V>, 2>& ankle_obs, double rest_ankle_y,
                    std::size_t F, key_fit::Problem& prob, KeypointReport& rep) {
  const std::size_t K = prob.keyed.size();
  for (int k = 0; k < 2; ++k) {
    const std::int32_t ik = kb.foot_ik[static_cast<std::size_t>(k)];
    if (ik < 0) continue;
    const auto& a = ankle_obs[static_cast<std::size_t>(k)];
    const std::size_t slot_k = static_cast<std::size_t>(kb.slot[static_cast<std::size_t>(ik)]);
    bool in = false;
    dm::V hold{};
    for (std::size_t f = 0; f < F; ++f) {
      const double speed = f ? std::hypot(a[f][0] - a[f - 1][0], a[f][2] - a[f - 1][2]) : 0.0;
      const bool contact = a[f][1] < rest_ankle_y + 0.4 && speed < 0.08;
      if (contact && !in) hold = {a[f][0], rest_ankle_y, a[f][2]};
      in = contact;
      if (contact) {
        prob.want_pos[f * K + slot_k] = hold;
        ++rep.contact_frames;
      }
    }
  }
}

}  // namespace

Result<vmd::Motion> keypoints_to_vmd(const Keypoints& kin, std::shared_ptr<const model::Model> model_ptr,
                                     const KeypointOptions& o, KeypointReport* report) {
  if (!model_ptr) return make_error(ErrorCode::invalid_argument, "no model");
  const model::Model& m = *model_ptr;
  const auto names = keypoint_joint_names(o.layout);
  if (auto c = check_arguments(kin, names.size(), o); !c) return std::unexpected(c.error());
  auto axes = parse_axes(o);
  if (!axes) return std::unexpected(axes.error());
  KeypointReport rep;
  auto pts = observed_points(kin, o, *axes, names, rep);
  if (!pts) return std::unexpected(pts.error());
  if (auto r = rest_points(m, o, *pts); !r) return std::unexpected(r.error());
  const double rest_ankle_y = scale_and_floor(*pts, o, rep);
  key_fit::Problem prob;
  prob.model = model_ptr;
  prob.frames = pts->F;
  prob.ik_off = !o.leg_ik;
  const KeyedBones kb = choose_bones(m, *pts, o, prob, rep);
  const auto ankle_obs = want_rotations(m, *pts, kb, prob);
  ground_contact(kb, ankle_obs, rest_ankle_y, pts->F, prob, rep);
  key_fit::initial_keys(prob);
  auto motion = key_fit::solve(prob);
  if (!motion) return std::unexpected(motion.error());
  if (o.reduce) rep.keys_dropped = key_fit::reduce_linear_keys(*motion, o.reduce_deg, o.reduce_units);
  rep.keys = motion->bone_keys.size();
  rep.frames = pts->F;
  if (report) *report = rep;
  return motion;
}

}  // namespace mmdkit::motion

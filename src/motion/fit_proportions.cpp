// mmdkit — `fit` (motion/fit.hpp): proportions of a motion moved to another model.
#include "mmdkit/motion/fit.hpp"

#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>

#include "mmdkit/core/math.hpp"
#include "mmdkit/model/model.hpp"

namespace mmdkit::motion {

namespace {

const model::Bone* find(const model::Model& m, std::string_view name) {
  for (const model::Bone& b : m.bones)
    if (b.name == name) return &b;
  return nullptr;
}

Vec3 sub(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double len(const Vec3& v) {
  const double x = static_cast<double>(v[0]), y = static_cast<double>(v[1]), z = static_cast<double>(v[2]);
  return std::sqrt(x * x + y * y + z * z);
}

// Shortest-arc rotation carrying unit vector a onto unit vector b.
Quat rotation_to(const Vec3& a, const Vec3& b) {
  const double d = double(a[0]) * double(b[0]) + double(a[1]) * double(b[1]) + double(a[2]) * double(b[2]);
  Vec3 c{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  if (d < -1 + 1e-9) {  // opposite: any perpendicular axis
    Vec3 axis = std::abs(a[0]) < 0.9f ? Vec3{0, -a[2], a[1]} : Vec3{a[2], 0, -a[0]};
    const double l = len(axis);
    return {float(double(axis[0]) / l), float(double(axis[1]) / l), float(double(axis[2]) / l), 0.0f};
  }
  return quat_normalize({c[0], c[1], c[2], float(1 + d)});
}

// Rest direction of the segment bone → `to` (or the bone's tail) in model m.
std::optional<Vec3> stance(const model::Model& m, std::string_view bone, std::string_view to, const Vec3& fallback) {
  const model::Bone* b = find(m, bone);
  if (!b) return std::nullopt;
  Vec3 end{};
  if (const model::Bone* t = find(m, to)) {
    end = t->position;
  } else if (b->tail_bone >= 0 && static_cast<std::size_t>(b->tail_bone) < m.bones.size()) {
    end = m.bones[static_cast<std::size_t>(b->tail_bone)].position;
  } else if (len(b->tail_offset) > 0) {
    end = {b->position[0] + b->tail_offset[0], b->position[1] + b->tail_offset[1], b->position[2] + b->tail_offset[2]};
  } else {
    return fallback;
  }
  const Vec3 d = sub(end, b->position);
  const double l = len(d);
  if (!(l > 0)) return fallback;
  return Vec3{float(double(d[0]) / l), float(double(d[1]) / l), float(double(d[2]) / l)};
}

}  // namespace

Result<vmd::Motion> fit(const vmd::Motion& motion, const model::Model& from, const model::Model& to,
                        const FitOptions& o, FitReport* report) {
  for (std::size_t i = 0; i < motion.bone_keys.size(); ++i)
    if (motion.bone_keys[i].name >= motion.bone_names.size())
      return make_error(ErrorCode::invalid_argument, "name index out of range", "bone keyframes", static_cast<std::int64_t>(i));
  FitReport r;
  vmd::Motion out = motion;
  // Per name index: the operation.
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < out.bone_names.size(); ++i) index.emplace(out.bone_names[i].text, i);

  if (o.legs) {
    const model::Bone *fl = find(from, "左足"), *fk = find(from, "左ひざ"), *fa = find(from, "左足首");
    const model::Bone *tl = find(to, "左足"), *tk = find(to, "左ひざ"), *ta = find(to, "左足首");
    if (fl && fk && fa && tl && tk && ta) {
      const double lf = len(sub(fa->position, fl->position)), lt = len(sub(ta->position, tl->position));
      const double yf = double(fa->position[1]) - double(fl->position[1]),
                   yt = double(ta->position[1]) - double(tl->position[1]);
      r.xz_ratio = lf == 0 ? 1 : lt / lf;
      r.y_ratio = yf == 0 ? 1 : yt / yf;
    } else {
      r.notes.push_back("leg ratio 1: 左足, 左ひざ or 左足首 missing in a model");
    }
    static constexpr std::array<std::string_view, 9> kMoved{"全ての親", "センター", "グルーブ", "左足ＩＫ", "右足ＩＫ",
                                                           "左つま先ＩＫ", "右つま先ＩＫ", "左足IK親", "右足IK親"};
    std::vector<bool> scale(out.bone_names.size(), false);
    for (std::string_view n : kMoved) {
      auto it = index.find(std::string(n));
      if (it == index.end()) continue;
      scale[it->second] = true;
      r.scaled.emplace_back(n);
    }
    for (vmd::BoneKey& k : out.bone_keys) {
      if (!scale[k.name]) continue;
      k.position = {float(double(k.position[0]) * r.xz_ratio), float(double(k.position[1]) * r.y_ratio),
                    float(double(k.position[2]) * r.xz_ratio)};
    }
  }
  if (o.arms) {
    std::vector<std::optional<std::pair<Quat, Quat>>> op(out.bone_names.size());  // r' = first · r · second
    for (std::string_view side : {"左", "右"}) {
      const std::string s(side);
      const Vec3 fallback = side == "左" ? Vec3{1, 0, 0} : Vec3{-1, 0, 0};
      auto correction = [&](const std::string& bone, const std::string& next) -> Quat {
        const auto df = stance(from, bone, next, fallback), dt = stance(to, bone, next, fallback);
        if (!df || !dt) {
          r.notes.push_back("no arm correction for " + bone + ": missing in a model");
          return kIdentityQuat;
        }
        return rotation_to(*dt, *df);
      };
      const Quat t_arm = correction(s + "腕", s + "ひじ");
      const Quat t_elbow = correction(s + "ひじ", s + "手首");
      const Quat t_wrist = correction(s + "手首", s + "中指１");
      const std::array<std::pair<std::string, std::pair<Quat, Quat>>, 5> rules{{
          {s + "腕", {kIdentityQuat, t_arm}},
          {s + "腕捩", {quat_conjugate(t_arm), t_arm}},
          {s + "ひじ", {quat_conjugate(t_arm), t_elbow}},
          {s + "手捩", {quat_conjugate(t_elbow), t_elbow}},
          {s + "手首", {quat_conjugate(t_elbow), t_wrist}},
      }};
      for (const auto& [name, q] : rules) {
        auto it = index.find(name);
        if (it == index.end()) continue;
        op[it->second] = q;
        r.arm_corrected.push_back(name);
      }
    }
    for (vmd::BoneKey& k : out.bone_keys) {
      if (!op[k.name]) continue;
      const auto& [a, b] = *op[k.name];
      k.rotation = quat_normalize(quat_multiply(a, quat_multiply(quat_normalize(k.rotation), b)));
    }
  }
  if (report) *report = std::move(r);
  return out;
}

}  // namespace mmdkit::motion

// mmdkit motion — a model's evaluated motion as a BVH (motion/bvh.hpp bvh_from_character; rules
// in docs/BVH.md "Writing"). Evaluation goes through anim::Character only.
#include <cmath>
#include <set>
#include <string>

#include "mmdkit/anim/character.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/bvh.hpp"
#include "motion/dmath.hpp"

namespace mmdkit::motion {
namespace {

constexpr double kDeg = 180.0 / dm::kPi;

// (z, x, y) in radians with q = Rz(z) · Rx(x) · Ry(y).
std::array<double, 3> euler_zxy(const dm::Q& q) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  const double r01 = 2 * (x * y - w * z), r11 = 1 - 2 * (x * x + z * z), r21 = 2 * (y * z + w * x);
  const double r20 = 2 * (x * z - w * y), r22 = 1 - 2 * (x * x + y * y);
  const double r10 = 2 * (x * y + w * z), r00 = 1 - 2 * (y * y + z * z);
  const double cx = std::sqrt(r01 * r01 + r11 * r11);
  const double ax = std::atan2(r21, cx);
  if (cx < 1e-12) return {std::atan2(r10, r00), ax, 0.0};
  return {std::atan2(-r01, r11), ax, std::atan2(-r20, r22)};
}

// `a` (degrees) moved by whole turns to lie within 180° of `previous`.
double unwrap(double a, double previous) {
  while (a - previous > 180.0) a -= 360.0;
  while (a - previous < -180.0) a += 360.0;
  return a;
}

}  // namespace

Result<Bvh> bvh_from_character(std::shared_ptr<const anim::CharacterData> data, const BvhExportOptions& o) {
  if (!data) return make_error(ErrorCode::invalid_argument, "no character data");
  if (o.last_frame < o.first_frame)
    return make_error(ErrorCode::invalid_argument, "the last frame comes before the first");
  if (!std::isfinite(o.scale) || !(o.scale > 0)) return make_error(ErrorCode::invalid_argument, "scale must be > 0");
  const model::Model& m = data->model();
  const std::size_t n = m.bones.size();
  const std::uint64_t frames = std::uint64_t{o.last_frame} - o.first_frame + 1;

  // Depth-first order of the bones (roots and children in index order).
  std::vector<std::vector<std::size_t>> children(n);
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t p = m.bones[i].parent;
    if (p >= 0 && static_cast<std::size_t>(p) < n)
      children[static_cast<std::size_t>(p)].push_back(i);
    else
      roots.push_back(i);
  }
  std::vector<std::size_t> order;  // BVH joint → bone
  order.reserve(n);
  std::vector<std::size_t> stack(roots.rbegin(), roots.rend());
  while (!stack.empty()) {
    const std::size_t b = stack.back();
    stack.pop_back();
    order.push_back(b);
    for (auto it = children[b].rbegin(); it != children[b].rend(); ++it) stack.push_back(*it);
  }
  std::vector<std::int32_t> joint_of(n, -1);
  for (std::size_t j = 0; j < order.size(); ++j) joint_of[order[j]] = static_cast<std::int32_t>(j);

  anim::Character ch(data);
  ch.set_ik(o.ik);
  // One frame's local transforms in BVH space (scaled), per joint.
  std::vector<BvhTransform> local(order.size());
  auto eval = [&](std::uint32_t frame) -> Result<void> {
    if (auto r = ch.evaluate(frame); !r) return std::unexpected(r.error());
    const auto rot = ch.pose().model_rotations();
    const auto pos = ch.pose().model_positions();
    for (std::size_t j = 0; j < order.size(); ++j) {
      const std::size_t b = order[j];
      const dm::Q r = dm::flip_z(dm::from_float(rot[b]));
      const dm::V p = dm::scale(dm::flip_z(dm::from_float(pos[b])), o.scale);
      const std::int32_t pb = m.bones[b].parent;
      if (joint_of[b] >= 0 && pb >= 0 && static_cast<std::size_t>(pb) < n) {
        const dm::Q pr = dm::flip_z(dm::from_float(rot[static_cast<std::size_t>(pb)]));
        const dm::V pp = dm::scale(dm::flip_z(dm::from_float(pos[static_cast<std::size_t>(pb)])), o.scale);
        local[j] = {dm::normalize(dm::mul(dm::conj(pr), r)), dm::rotate(dm::conj(pr), dm::sub(p, pp))};
      } else {
        local[j] = {r, p};
      }
    }
    return {};
  };

  Bvh bvh;
  bvh.frame_time = 1.0 / 30.0;
  const std::vector<std::string> names = bvh_joint_names(m, o.names);
  for (std::size_t j = 0; j < order.size(); ++j) {
    const std::size_t b = order[j];
    const model::Bone& bone = m.bones[b];
    BvhJoint jt;
    jt.name = names[b];
    jt.parent = bone.parent >= 0 && static_cast<std::size_t>(bone.parent) < n ? joint_of[static_cast<std::size_t>(bone.parent)] : -1;
    dm::V off = dm::from_float(bone.position);
    if (jt.parent >= 0) off = dm::sub(off, dm::from_float(m.bones[static_cast<std::size_t>(bone.parent)].position));
    jt.offset = dm::scale(dm::flip_z(off), o.scale);
    if (children[b].empty()) {
      dm::V tail = bone.tail_bone >= 0 && static_cast<std::size_t>(bone.tail_bone) < n
                       ? dm::sub(dm::from_float(m.bones[static_cast<std::size_t>(bone.tail_bone)].position), dm::from_float(bone.position))
                       : dm::from_float(bone.tail_offset);
      if (!(dm::norm(tail) > 1e-6)) tail = {0, 1, 0};
      jt.end_site = dm::scale(dm::flip_z(tail), o.scale);
    }
    bvh.joints.push_back(std::move(jt));
  }
  // Pass 1: which joints move away from their bind offset (they get position channels).
  std::vector<std::uint8_t> moves(order.size(), 0);
  const double tol = 1e-6 * o.scale;
  for (std::uint64_t f = 0; f < frames; ++f) {
    if (auto r = eval(static_cast<std::uint32_t>(o.first_frame + f)); !r) return std::unexpected(r.error());
    for (std::size_t j = 0; j < order.size(); ++j) {
      if (moves[j]) continue;
      const dm::V d = dm::sub(local[j].translation, bvh.joints[j].offset);
      if (std::abs(d[0]) > tol || std::abs(d[1]) > tol || std::abs(d[2]) > tol) moves[j] = 1;
    }
  }
  for (std::size_t j = 0; j < order.size(); ++j) {
    BvhJoint& jt = bvh.joints[j];
    jt.first_channel = bvh.channel_count;
    if (jt.parent < 0 || moves[j])
      jt.channels = {BvhChannel::x_position, BvhChannel::y_position, BvhChannel::z_position};
    jt.channels.insert(jt.channels.end(), {BvhChannel::z_rotation, BvhChannel::x_rotation, BvhChannel::y_rotation});
    bvh.channel_count += static_cast<std::uint32_t>(jt.channels.size());
  }
  if (frames * bvh.channel_count > kBvhMaxValues)
    return make_error(ErrorCode::limit_exceeded, std::to_string(frames) + " frames × " + std::to_string(bvh.channel_count) +
                                                     " channels is more than " + std::to_string(kBvhMaxValues) + " values");
  bvh.frame_count = static_cast<std::uint32_t>(frames);
  bvh.values.resize(static_cast<std::size_t>(frames) * bvh.channel_count);
  // Pass 2: the values.
  for (std::uint64_t f = 0; f < frames; ++f) {
    if (auto r = eval(static_cast<std::uint32_t>(o.first_frame + f)); !r) return std::unexpected(r.error());
    double* v = bvh.values.data() + f * bvh.channel_count;
    for (std::size_t j = 0; j < order.size(); ++j) {
      const BvhJoint& jt = bvh.joints[j];
      double* c = v + jt.first_channel;
      if (jt.channels.size() == 6) {
        const dm::V d = dm::sub(local[j].translation, jt.offset);
        c[0] = d[0], c[1] = d[1], c[2] = d[2];
        c += 3;
      }
      const auto e = euler_zxy(local[j].rotation);
      for (int k = 0; k < 3; ++k) {
        const double deg = e[static_cast<std::size_t>(k)] * kDeg;
        c[k] = f ? unwrap(deg, c[k - static_cast<std::ptrdiff_t>(bvh.channel_count)]) : deg;
      }
    }
  }
  return bvh;
}

}  // namespace mmdkit::motion

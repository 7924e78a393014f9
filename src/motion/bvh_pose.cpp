// mmdkit motion — forward kinematics of a Bvh (motion/bvh.hpp bvh_local_pose / bvh_world_pose).
#include "mmdkit/motion/bvh.hpp"
#include "motion/dmath.hpp"

namespace mmdkit::motion {

void bvh_local_pose(const Bvh& bvh, std::uint32_t frame, std::vector<BvhTransform>& out) {
  out.assign(bvh.joints.size(), BvhTransform{});
  const bool have = frame < bvh.frame_count;
  const double* v = have ? bvh.values.data() + static_cast<std::size_t>(frame) * bvh.channel_count : nullptr;
  for (std::size_t i = 0; i < bvh.joints.size(); ++i) {
    const BvhJoint& j = bvh.joints[i];
    dm::V t = j.offset;
    dm::Q r = dm::kIdentity;
    for (std::size_t c = 0; c < j.channels.size() && have; ++c) {
      const double x = v[j.first_channel + c];
      switch (j.channels[c]) {
        case BvhChannel::x_position: t[0] += x; break;
        case BvhChannel::y_position: t[1] += x; break;
        case BvhChannel::z_position: t[2] += x; break;
        case BvhChannel::x_rotation: r = dm::mul(r, dm::axis_angle({1, 0, 0}, x * dm::kPi / 180.0)); break;
        case BvhChannel::y_rotation: r = dm::mul(r, dm::axis_angle({0, 1, 0}, x * dm::kPi / 180.0)); break;
        case BvhChannel::z_rotation: r = dm::mul(r, dm::axis_angle({0, 0, 1}, x * dm::kPi / 180.0)); break;
      }
    }
    out[i] = {r, t};
  }
}

namespace {
void to_world(const Bvh& bvh, std::vector<BvhTransform>& out) {
  for (std::size_t i = 0; i < bvh.joints.size(); ++i) {
    const std::int32_t p = bvh.joints[i].parent;
    if (p < 0) continue;
    const BvhTransform& pw = out[static_cast<std::size_t>(p)];
    BvhTransform& w = out[i];
    w.translation = dm::add(pw.translation, dm::rotate(pw.rotation, w.translation));
    w.rotation = dm::mul(pw.rotation, w.rotation);
  }
}
}  // namespace

void bvh_world_pose(const Bvh& bvh, std::uint32_t frame, std::vector<BvhTransform>& out) {
  bvh_local_pose(bvh, frame, out);
  to_world(bvh, out);
}

void bvh_rest_pose(const Bvh& bvh, std::vector<BvhTransform>& out) {
  out.assign(bvh.joints.size(), BvhTransform{});
  for (std::size_t i = 0; i < bvh.joints.size(); ++i) out[i].translation = bvh.joints[i].offset;
  to_world(bvh, out);
}

}  // namespace mmdkit::motion

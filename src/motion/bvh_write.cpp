// mmdkit motion — Bvh → BVH text (motion/bvh.hpp write_bvh).
#include <charconv>
#include <string>

#include "mmdkit/motion/bvh.hpp"

namespace mmdkit::motion {
namespace {

void number(std::string& out, double v, int digits) {
  if (v == 0) v = 0;  // no "-0"
  char buf[40];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
  if (ec != std::errc{}) {
    out += '0';
    return;
  }
  out.append(buf, p);
}

void offset_line(std::string& out, const std::string& indent, const std::array<double, 3>& o, int digits) {
  out += indent;
  out += "OFFSET";
  for (double v : o) {
    out += ' ';
    number(out, v, digits);
  }
  out += '\n';
}

}  // namespace

Result<std::string> write_bvh(const Bvh& bvh, const BvhWriteOptions& options) {
  const int digits = options.digits < 1 ? 1 : (options.digits > 17 ? 17 : options.digits);
  std::uint32_t channels = 0;
  std::vector<std::vector<std::size_t>> children(bvh.joints.size());
  for (std::size_t i = 0; i < bvh.joints.size(); ++i) {
    const BvhJoint& j = bvh.joints[i];
    if (j.parent >= static_cast<std::int32_t>(i))
      return make_error(ErrorCode::invalid_argument, "joint '" + j.name + "': its parent comes after it", "hierarchy",
                        static_cast<std::int64_t>(i));
    if (j.first_channel != channels)
      return make_error(ErrorCode::invalid_argument, "joint '" + j.name + "': first_channel disagrees with the layout",
                        "hierarchy", static_cast<std::int64_t>(i));
    channels += static_cast<std::uint32_t>(j.channels.size());
    if (j.parent >= 0) children[static_cast<std::size_t>(j.parent)].push_back(i);
  }
  if (channels != bvh.channel_count ||
      bvh.values.size() != static_cast<std::size_t>(bvh.frame_count) * bvh.channel_count)
    return make_error(ErrorCode::invalid_argument, "values do not hold frame_count × channel_count numbers", "motion");
  // Joints must be listed depth-first (a joint's subtree right after it) to write them in order.
  std::string out = "HIERARCHY\n";
  std::vector<std::size_t> order;
  auto emit = [&](auto& self, std::size_t i, int depth) -> void {
    order.push_back(i);
    const BvhJoint& j = bvh.joints[i];
    const std::string ind(static_cast<std::size_t>(depth), '\t');
    out += ind + (j.parent < 0 ? "ROOT " : "JOINT ") + j.name + "\n" + ind + "{\n";
    offset_line(out, ind + "\t", j.offset, digits);
    out += ind + "\tCHANNELS " + std::to_string(j.channels.size());
    for (BvhChannel c : j.channels) out += " " + std::string(bvh_channel_name(c));
    out += "\n";
    for (std::size_t c : children[i]) self(self, c, depth + 1);
    if (j.end_site) {
      out += ind + "\tEnd Site\n" + ind + "\t{\n";
      offset_line(out, ind + "\t\t", *j.end_site, digits);
      out += ind + "\t}\n";
    }
    out += ind + "}\n";
  };
  for (std::size_t i = 0; i < bvh.joints.size(); ++i)
    if (bvh.joints[i].parent < 0) emit(emit, i, 0);
  for (std::size_t k = 0; k < order.size(); ++k)
    if (order[k] != k)
      return make_error(ErrorCode::invalid_argument, "joints are not in depth-first order (write them as a reader lists them)",
                        "hierarchy", static_cast<std::int64_t>(k));
  out += "MOTION\nFrames: " + std::to_string(bvh.frame_count) + "\nFrame Time: ";
  number(out, bvh.frame_time, digits);
  out += '\n';
  out.reserve(out.size() + bvh.values.size() * (static_cast<std::size_t>(digits) + 3));
  for (std::uint32_t f = 0; f < bvh.frame_count; ++f) {
    const double* v = bvh.values.data() + static_cast<std::size_t>(f) * bvh.channel_count;
    for (std::uint32_t c = 0; c < bvh.channel_count; ++c) {
      if (c) out += ' ';
      number(out, v[c], digits);
    }
    out += '\n';
  }
  return out;
}

}  // namespace mmdkit::motion

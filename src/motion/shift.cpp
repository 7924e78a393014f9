// mmdkit — `shift` (motion/shift.hpp).
#include "mmdkit/motion/shift.hpp"

#include <string>

#include "mmdkit/motion/trim.hpp"

namespace mmdkit::motion {

namespace {

template <class Key>
Result<void> move(std::vector<Key>& keys, std::int64_t by, vmd::Section section) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::int64_t f = static_cast<std::int64_t>(keys[i].frame) + by;
    if (f < 0 || f > static_cast<std::int64_t>(UINT32_MAX))
      return make_error(ErrorCode::invalid_argument,
                        "key at frame " + std::to_string(keys[i].frame) + " would move to frame " + std::to_string(f) +
                            (f < 0 ? " (before frame 0; --clamp drops what lies before and keys frame 0)"
                                   : " (beyond the largest VMD frame 4294967295)"),
                        std::string(vmd::section_name(section)), static_cast<std::int64_t>(i));
    keys[i].frame = static_cast<std::uint32_t>(f);
  }
  return {};
}

}  // namespace

Result<vmd::Motion> shift(const vmd::Motion& motion, const ShiftOptions& o) {
  vmd::Motion out;
  const auto range = vmd::frame_range(motion);
  if (o.clamp && o.by < 0 && range) {
    const std::int64_t first = -o.by;
    if (first > static_cast<std::int64_t>(UINT32_MAX))
      return make_error(ErrorCode::invalid_argument, "shift by " + std::to_string(o.by) + " is out of range");
    const std::uint32_t a = static_cast<std::uint32_t>(first);
    auto t = trim(motion, TrimOptions{a, std::max(a, (*range)[1]), false});
    if (!t) return std::unexpected(t.error());
    out = std::move(*t);
  } else {
    out = motion;
  }
  if (auto r = move(out.bone_keys, o.by, vmd::Section::bone); !r) return std::unexpected(r.error());
  if (auto r = move(out.morph_keys, o.by, vmd::Section::morph); !r) return std::unexpected(r.error());
  if (auto r = move(out.camera_keys, o.by, vmd::Section::camera); !r) return std::unexpected(r.error());
  if (auto r = move(out.light_keys, o.by, vmd::Section::light); !r) return std::unexpected(r.error());
  if (auto r = move(out.self_shadow_keys, o.by, vmd::Section::self_shadow); !r) return std::unexpected(r.error());
  if (auto r = move(out.property_keys, o.by, vmd::Section::property); !r) return std::unexpected(r.error());
  return out;
}

}  // namespace mmdkit::motion

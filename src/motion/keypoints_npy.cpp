// mmdkit motion — keypoint arrays from NPY and NPZ (motion/keypoints.hpp). NPY: the format of
// numpy/lib/format.py (NEP 1): "\x93NUMPY", major, minor, header length (u16 for 1.0, u32 for
// 2.0 / 3.0), a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}, the
// data. NPZ: a zip (PKWARE APPNOTE) of NPY members; np.savez stores them (method 0),
// np.savez_compressed deflates them (method 8, refused: save with np.savez or .npy).
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <string>

#include "mmdkit/motion/keypoints.hpp"

namespace mmdkit::motion {
namespace {

std::unexpected<Error> npy_fail(ErrorCode code, std::string message, std::int64_t offset) {
  return make_error(code, std::move(message), "npy", -1, offset);
}

// Value of `key` in the header dict text ("'descr': '<f4'" → "'<f4'"), up to the next top-level comma.
std::string_view dict_value(std::string_view h, std::string_view key) {
  std::size_t k = h.find("'" + std::string(key) + "'");
  if (k == std::string_view::npos) k = h.find("\"" + std::string(key) + "\"");
  if (k == std::string_view::npos) return {};
  std::size_t c = h.find(':', k);
  if (c == std::string_view::npos) return {};
  std::size_t b = h.find_first_not_of(" ", c + 1);
  if (b == std::string_view::npos) return {};
  std::size_t e = b;
  if (h[b] == '(') {
    e = h.find(')', b);
    if (e == std::string_view::npos) return {};
    return h.substr(b, e - b + 1);
  }
  if (h[b] == '\'' || h[b] == '"') {
    e = h.find(h[b], b + 1);
    if (e == std::string_view::npos) return {};
    return h.substr(b + 1, e - b - 1);
  }
  e = h.find_first_of(",}", b);
  if (e == std::string_view::npos) return {};
  std::string_view v = h.substr(b, e - b);
  while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  return v;
}

Keypoints from_values(std::uint64_t frames, std::uint64_t joints, std::uint64_t channels, auto get) {
  Keypoints k;
  k.frames = static_cast<std::uint32_t>(frames);
  k.joints = static_cast<std::uint32_t>(joints);
  k.positions.resize(frames * joints * 3);
  if (channels == 4) k.confidence.resize(frames * joints);
  for (std::uint64_t f = 0; f < frames; ++f)
    for (std::uint64_t j = 0; j < joints; ++j) {
      for (std::uint64_t c = 0; c < 3; ++c) k.positions[(f * joints + j) * 3 + c] = get(f, j, c);
      if (channels == 4) k.confidence[f * joints + j] = get(f, j, 3);
    }
  return k;
}

}  // namespace

Result<Keypoints> read_keypoints_npy(ByteSpan b) {
  static constexpr std::uint8_t kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (b.size() < 6 || std::memcmp(b.data(), kMagic, 6) != 0)
    return npy_fail(ErrorCode::bad_signature, "not an NPY file (no \\x93NUMPY signature)", 0);
  if (b.size() < 10) return npy_fail(ErrorCode::truncated, "the file ends inside the NPY preamble", 6);
  const std::uint8_t major = b[6];
  std::size_t header_len = 0, header_at = 0;
  if (major == 1) {
    header_len = b[8] | (std::size_t{b[9]} << 8);
    header_at = 10;
  } else if (major == 2 || major == 3) {
    if (b.size() < 12) return npy_fail(ErrorCode::truncated, "the file ends inside the NPY preamble", 8);
    header_len = b[8] | (std::size_t{b[9]} << 8) | (std::size_t{b[10]} << 16) | (std::size_t{b[11]} << 24);
    header_at = 12;
  } else {
    return npy_fail(ErrorCode::unsupported, "NPY format version " + std::to_string(major) + " (1, 2 and 3 are read)", 6);
  }
  if (header_len > b.size() - header_at)
    return npy_fail(ErrorCode::truncated, "the header needs " + std::to_string(header_len) + " bytes, " +
                                              std::to_string(b.size() - header_at) + " left",
                    static_cast<std::int64_t>(header_at));
  const std::string_view h(reinterpret_cast<const char*>(b.data() + header_at), header_len);
  const std::string_view descr = dict_value(h, "descr"), order = dict_value(h, "fortran_order"), shape = dict_value(h, "shape");
  if (descr.empty() || order.empty() || shape.empty())
    return npy_fail(ErrorCode::invalid_value, "the header is not a dict with descr, fortran_order and shape: " + std::string(h.substr(0, 120)),
                    static_cast<std::int64_t>(header_at));
  std::size_t item = 0;
  bool big = false, is_double = false;
  if (descr == "<f4" || descr == "=f4" || descr == "|f4") item = 4;
  else if (descr == ">f4") item = 4, big = true;
  else if (descr == "<f8" || descr == "=f8" || descr == "|f8") item = 8, is_double = true;
  else if (descr == ">f8") item = 8, big = true, is_double = true;
  else
    return npy_fail(ErrorCode::invalid_value, "dtype '" + std::string(descr) + "' (float32 or float64 are read)",
                    static_cast<std::int64_t>(header_at));
  const bool fortran = order == "True";
  // shape "(F, J, C)"
  std::vector<std::uint64_t> dims;
  for (std::size_t i = 1; i + 1 < shape.size();) {
    while (i + 1 < shape.size() && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i + 1 >= shape.size()) break;
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(shape.data() + i, shape.data() + shape.size() - 1, v);
    if (ec != std::errc{})
      return npy_fail(ErrorCode::invalid_value, "shape " + std::string(shape) + " does not parse", static_cast<std::int64_t>(header_at));
    dims.push_back(v);
    i = static_cast<std::size_t>(p - shape.data());
    if (shape[i] == 'L') ++i;
  }
  std::string shown = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) shown += (i ? ", " : "") + std::to_string(dims[i]);
  shown += ")";
  if (dims.size() != 3 || (dims[2] != 3 && dims[2] != 4))
    return npy_fail(ErrorCode::invalid_value, "shape " + shown + ": expected (frames, joints, 3) or (frames, joints, 4)",
                    static_cast<std::int64_t>(header_at));
  const std::size_t data_at = header_at + header_len;
  const std::size_t left = b.size() - data_at;
  if (dims[0] > kKeypointsMaxValues || dims[1] > kKeypointsMaxValues || dims[0] * dims[1] * dims[2] > kKeypointsMaxValues)
    return npy_fail(ErrorCode::limit_exceeded, "shape " + shown + " has more than " + std::to_string(kKeypointsMaxValues) + " values",
                    static_cast<std::int64_t>(header_at));
  const std::uint64_t need = dims[0] * dims[1] * dims[2] * item;
  if (need > left)
    return npy_fail(ErrorCode::count_too_large,
                    "shape " + shown + " needs " + std::to_string(need) + " bytes of data, " + std::to_string(left) + " left",
                    static_cast<std::int64_t>(data_at));
  const std::uint8_t* d = b.data() + data_at;
  auto get = [&](std::uint64_t f, std::uint64_t j, std::uint64_t c) -> float {
    const std::uint64_t idx = fortran ? f + dims[0] * (j + dims[1] * c) : (f * dims[1] + j) * dims[2] + c;
    std::uint8_t buf[8];
    std::memcpy(buf, d + idx * item, item);
    if (big != (std::endian::native == std::endian::big)) std::reverse(buf, buf + item);
    if (is_double) {
      double v;
      std::memcpy(&v, buf, 8);
      return static_cast<float>(v);
    }
    float v;
    std::memcpy(&v, buf, 4);
    return v;
  };
  return from_values(dims[0], dims[1], dims[2], get);
}

Result<Keypoints> read_keypoints_npz(ByteSpan b, std::string_view wanted) {
  auto fail = [](std::string m, std::int64_t off) { return make_error(ErrorCode::invalid_value, std::move(m), "npz", -1, off); };
  auto u16 = [&](std::size_t o) { return static_cast<std::uint32_t>(b[o] | (b[o + 1] << 8)); };
  auto u32 = [&](std::size_t o) { return u16(o) | (u16(o + 2) << 16); };
  // Walk the local file headers (PK\3\4) from the start.
  struct Member {
    std::string name;
    std::size_t data = 0, size = 0;
    std::uint32_t method = 0;
  };
  std::vector<Member> members;
  std::size_t p = 0;
  while (p + 4 <= b.size() && u32(p) == 0x04034b50) {
    if (p + 30 > b.size()) return fail("the zip ends inside a local file header", static_cast<std::int64_t>(p));
    const std::uint32_t flags = u16(p + 6), method = u16(p + 8);
    std::uint64_t csize = u32(p + 18);
    const std::uint32_t nlen = u16(p + 26), xlen = u16(p + 28);
    if (p + 30 + nlen + xlen > b.size()) return fail("the zip ends inside a member name", static_cast<std::int64_t>(p));
    Member m;
    m.name.assign(reinterpret_cast<const char*>(b.data() + p + 30), nlen);
    // ZIP64 (numpy writes it for large members): the extra field 0x0001 holds the sizes.
    if (csize == 0xFFFFFFFFu) {
      std::size_t x = p + 30 + nlen;
      const std::size_t xe = x + xlen;
      while (x + 4 <= xe) {
        const std::uint32_t id = u16(x), len = u16(x + 2);
        if (id == 1 && len >= 16 && x + 4 + 16 <= xe) csize = u32(x + 12) | (std::uint64_t{u32(x + 16)} << 32);
        x += 4 + len;
      }
    }
    if (flags & 0x08) return fail("member '" + m.name + "' has a data descriptor (sizes after the data): not read", static_cast<std::int64_t>(p));
    m.data = p + 30 + nlen + xlen;
    if (csize > b.size() - m.data) return fail("member '" + m.name + "' is cut (the zip ends inside it)", static_cast<std::int64_t>(p));
    m.size = static_cast<std::size_t>(csize);
    m.method = method;
    members.push_back(m);
    p = m.data + m.size;
  }
  if (members.empty()) return make_error(ErrorCode::bad_signature, "not an NPZ file (no zip member at byte 0)", "npz", -1, 0);
  auto base = [](std::string n) {
    if (n.size() > 4 && n.ends_with(".npy")) n.resize(n.size() - 4);
    return n;
  };
  const Member* pick = nullptr;
  if (!wanted.empty()) {
    for (const Member& m : members)
      if (base(m.name) == base(std::string(wanted))) pick = &m;
  } else {
    constexpr const char* kNames[] = {"keypoints", "joints", "positions", "joints3d", "poses_3d"};
    for (const char* n : kNames)
      for (const Member& m : members)
        if (!pick && base(m.name) == n) pick = &m;
    // In a folder of the zip, as `mmdkit dataset` writes them (MOTION/positions, one folder per
    // motion): the one member of that name, when only one folder has it.
    for (const char* n : kNames) {
      if (pick) break;
      const Member* only = nullptr;
      std::size_t count = 0;
      for (const Member& m : members) {
        const std::string stem = base(m.name);
        const std::size_t slash = stem.rfind('/');
        if (slash != std::string::npos && stem.compare(slash + 1, std::string::npos, n) == 0) {
          only = &m;
          ++count;
        }
      }
      if (count == 1) pick = only;
    }
    if (!pick && members.size() == 1) pick = &members[0];
  }
  if (!pick) {
    std::string list;
    for (const Member& m : members) list += (list.empty() ? "" : ", ") + base(m.name);
    return fail((wanted.empty() ? std::string("no member named keypoints, joints, positions, joints3d or poses_3d")
                                : "no member '" + std::string(wanted) + "'") +
                    " (members: " + list + ")",
                -1);
  }
  if (pick->method != 0)
    return make_error(ErrorCode::unsupported,
                      "member '" + pick->name + "' is compressed (np.savez_compressed): save with np.savez or as .npy",
                      "npz", -1, static_cast<std::int64_t>(pick->data));
  auto r = read_keypoints_npy(b.subspan(pick->data, pick->size));
  if (!r) {
    Error e = r.error();
    e.message = "member '" + pick->name + "': " + e.message;
    if (e.offset >= 0) e.offset += static_cast<std::int64_t>(pick->data);
    return std::unexpected(std::move(e));
  }
  return r;
}

}  // namespace mmdkit::motion

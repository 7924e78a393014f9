// mmdkit — texture references: split, shared toons, safe case-insensitive resolution.
#include "mmdkit/model/textures.hpp"

#include <algorithm>
#include <system_error>
#include <vector>

namespace mmdkit::model {
namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lower_str(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = lower(c);
  return r;
}

std::string extension_lower(std::string_view f) {
  std::size_t dot = f.rfind('.');
  return dot == std::string_view::npos ? std::string() : lower_str(f.substr(dot));
}

}  // namespace

TextureField split_texture_field(std::string_view s) {
  TextureField t;
  std::size_t star = s.find('*');
  if (star != std::string_view::npos) {
    t.texture = std::string(s.substr(0, star));
    t.sphere = std::string(s.substr(star + 1));
  } else {
    std::string e = extension_lower(s);
    if (e == ".sph" || e == ".spa")
      t.sphere = std::string(s);
    else
      t.texture = std::string(s);
  }
  if (!t.sphere.empty()) t.sphere_mode = extension_lower(t.sphere) == ".spa" ? 2 : 1;
  return t;
}

std::string shared_toon_name(int index) {
  if (index < 0 || index > 9) return {};
  std::string n = std::to_string(index + 1);
  if (n.size() < 2) n = "0" + n;
  return "toon" + n + ".bmp";
}

int shared_toon_index(std::string_view name) noexcept {
  if (name.size() != 10) return -1;
  for (int i = 0; i < 10; ++i) {
    std::string want = shared_toon_name(i);
    bool eq = true;
    for (std::size_t k = 0; k < 10 && eq; ++k) eq = lower(name[k]) == want[k];
    if (eq) return i;
  }
  return -1;
}

std::string normalize_texture_path(std::string_view ref) {
  std::string out;
  std::size_t i = 0;
  std::string r(ref);
  std::replace(r.begin(), r.end(), '\\', '/');
  bool absolute = !r.empty() && r[0] == '/';
  std::vector<std::string> parts;
  while (i <= r.size()) {
    std::size_t j = r.find('/', i);
    if (j == std::string::npos) j = r.size();
    std::string part = r.substr(i, j - i);
    if (!part.empty() && part != ".") parts.push_back(part);
    i = j + 1;
  }
  if (absolute) out = "/";
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k) out += '/';
    out += parts[k];
  }
  return out;
}

TextureLookup resolve_texture(const std::filesystem::path& folder, std::string_view reference) {
  namespace fs = std::filesystem;
  TextureLookup res;
  if (reference.empty()) return res;
  std::string r(reference);
  std::replace(r.begin(), r.end(), '\\', '/');
  auto escapes = [&](std::string why) {
    res.status = TextureStatus::escapes;
    res.message = std::move(why);
    return res;
  };
  if (r[0] == '/') return escapes("'" + std::string(reference) + "' is an absolute path");
  if (r.size() >= 2 && r[1] == ':') return escapes("'" + std::string(reference) + "' names a drive");
  std::vector<std::string> parts;
  {
    std::string norm = normalize_texture_path(r);
    std::size_t i = 0;
    while (i <= norm.size()) {
      std::size_t j = norm.find('/', i);
      if (j == std::string::npos) j = norm.size();
      std::string part = norm.substr(i, j - i);
      if (part == "..") {
        if (parts.empty()) return escapes("'" + std::string(reference) + "' leaves the model's folder");
        parts.pop_back();
      } else if (!part.empty()) {
        parts.push_back(part);
      }
      i = j + 1;
    }
  }
  if (parts.empty()) return res;
  std::error_code ec;
  fs::path cur = folder;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    fs::path exact = cur / fs::path(parts[k]);
    if (fs::exists(exact, ec)) {
      cur = exact;
      continue;
    }
    // Case-insensitive match among the entries.
    std::string want = lower_str(parts[k]);
    std::vector<fs::path> hits;
    for (fs::directory_iterator it(cur, ec), end; !ec && it != end; it.increment(ec))
      if (lower_str(it->path().filename().string()) == want) hits.push_back(it->path());
    if (hits.empty()) {
      res.status = TextureStatus::missing;
      res.message = "'" + std::string(reference) + "' not found in " + folder.string();
      return res;
    }
    std::sort(hits.begin(), hits.end());
    cur = hits.front();
  }
  // Links must not lead out of the folder.
  fs::path base = fs::weakly_canonical(folder, ec);
  fs::path real = fs::weakly_canonical(cur, ec);
  if (!ec) {
    auto [b, r2] = std::mismatch(base.begin(), base.end(), real.begin(), real.end());
    if (b != base.end()) return escapes("'" + std::string(reference) + "' leads out of the model's folder");
  }
  if (!fs::is_regular_file(cur, ec)) {
    res.status = TextureStatus::missing;
    res.message = "'" + std::string(reference) + "' is not a regular file";
    return res;
  }
  res.status = TextureStatus::found;
  res.path = cur;
  return res;
}

}  // namespace mmdkit::model

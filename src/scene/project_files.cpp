// mmdkit — the names of a converted project's files in one folder (project.hpp project_file_names).
#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include "mmdkit/scene/project.hpp"

namespace mmdkit::scene {

namespace {

// `name` as a file name stem: the characters Windows forbids made '_', trailing spaces and dots
// dropped (Windows drops them), a leading dot made '_' (not hidden); `fallback` when empty.
std::string file_stem(const std::string& name, const std::string& fallback) {
  std::string s;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    s += (u < 0x20 || std::string_view("/\\:*?\"<>|").find(c) != std::string_view::npos) ? '_' : c;
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '.')) s.pop_back();
  if (!s.empty() && s.front() == '.') s.front() = '_';
  return s.empty() ? fallback : s;
}

std::string ascii_lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// `stem` + `ext`, numbered (_2, _3, ...) when the name (ASCII case ignored) is taken.
std::string unique_name(const std::string& stem, const std::string& ext, std::set<std::string>& taken) {
  std::string name = stem + ext;
  for (int n = 2; taken.contains(ascii_lower(name)); ++n) name = stem + "_" + std::to_string(n) + ext;
  taken.insert(ascii_lower(name));
  return name;
}

}  // namespace

ProjectFileNames project_file_names(const Project& p) {
  ProjectFileNames out;
  std::set<std::string> taken{"scene.json", "camera.vmd"};
  for (std::size_t i = 0; i < p.models.size(); ++i)
    out.motions.push_back(unique_name(file_stem(p.models[i].name, "model" + std::to_string(i)), ".vmd", taken));
  for (const ProjectAccessory& a : p.accessories) {
    const bool from_x = !a.x_file.empty() && ascii_lower(a.x_file.extension().string()) == ".x";
    out.accessories.push_back(from_x ? unique_name(file_stem(a.name, "accessory" + std::to_string(a.index)), ".vac", taken)
                                     : std::string());
  }
  return out;
}

}  // namespace mmdkit::scene

// mmdkit CLI — MTL materials of `pose` (obj_materials.hpp).
#include "cli/obj_materials.hpp"

#include <map>
#include <set>
#include <system_error>

#include "mmdkit/model/textures.hpp"

namespace mmdkit::cli {

namespace fs = std::filesystem;

std::string obj_safe_file_name(std::string_view name) {
  std::string r(name);
  for (char& c : r)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) c = '_';
  return r;
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// "materials 0, 2, 5" (at most 8 listed).
std::string material_list(const std::vector<std::size_t>& mats) {
  std::string s = mats.size() == 1 ? "material " : "materials ";
  for (std::size_t k = 0; k < mats.size(); ++k) {
    if (k == 8) {
      s += ", ... (" + std::to_string(mats.size()) + " in all)";
      break;
    }
    s += (k ? ", " : "") + std::to_string(mats[k]);
  }
  return s;
}

// One texture file (by its normalized, lower-case reference) and what the MTL says for it.
struct Ref {
  std::string reference;  // as the first material wrote it
  model::TextureLookup lookup;
  std::string written;    // the MTL path ('/' separators); empty = not written
  std::vector<std::size_t> materials;
};

class Planner {
 public:
  Planner(const fs::path& model_dir, const fs::path& out_dir, const std::string& copy_folder, ObjMaterialPlan& plan)
      : model_dir_(model_dir), out_dir_(out_dir), copy_folder_(copy_folder), plan_(plan) {}

  // The MTL path of `reference` (empty when it cannot be written), noting material `mat`.
  std::string use(const std::string& reference, std::size_t mat) {
    const std::string norm = model::normalize_texture_path(reference);
    const std::string key = lower(norm);
    auto [it, fresh] = refs_.try_emplace(key);
    Ref& r = it->second;
    if (fresh) {
      order_.push_back(key);
      r.reference = reference;
      r.lookup = model::resolve_texture(model_dir_, reference);
      if (r.lookup.status == model::TextureStatus::escapes) {
        // refused: not written
      } else if (!copy_folder_.empty()) {
        if (r.lookup.status == model::TextureStatus::found) r.written = copy_target(norm, r.lookup.path);
      } else {
        const fs::path target = r.lookup.status == model::TextureStatus::found ? r.lookup.path : model_dir_ / norm;
        std::error_code ec;
        const fs::path rel = fs::relative(fs::absolute(target, ec), fs::absolute(out_dir_, ec), ec);
        r.written = (ec || rel.empty() ? fs::absolute(target, ec) : rel).generic_string();
      }
    }
    r.materials.push_back(mat);
    return r.written;
  }

  void finish() {
    std::error_code ec;
    const std::string folder = fs::absolute(model_dir_, ec).lexically_normal().string();
    for (const std::string& key : order_) {
      const Ref& r = refs_.at(key);
      const std::string who = " (" + material_list(r.materials) + ")";
      if (r.lookup.status == model::TextureStatus::escapes) {
        plan_.warnings.push_back("texture '" + r.reference + "' refused: " + r.lookup.message + who);
      } else if (r.lookup.status == model::TextureStatus::missing) {
        plan_.warnings.push_back("texture '" + r.reference + "' not found in " + folder + " (" +
                                 material_list(r.materials) +
                                 (copy_folder_.empty() ? "; kept as a reference)" : "; not copied)"));
      }
      if (!r.written.empty() && r.written.find_first_of(" \t") != std::string::npos)
        plan_.warnings.push_back("texture path '" + r.written + "' contains a space" + who +
                                 ": OBJ readers that split file names at spaces cut it; --copy-textures writes "
                                 "names without spaces");
    }
  }

 private:
  // out_dir/copy_folder/<norm with blanks as '_'>, unique among the copies (suffix _2, _3, ...).
  std::string copy_target(const std::string& norm, const fs::path& from) {
    const fs::path safe = fs::path(obj_safe_file_name(norm));
    fs::path rel = safe;
    for (int n = 2; !taken_.insert(lower(rel.generic_string())).second; ++n)
      rel = safe.parent_path() / (safe.stem().string() + "_" + std::to_string(n) + safe.extension().string());
    plan_.copies.emplace_back(from, out_dir_ / copy_folder_ / rel);
    return (fs::path(copy_folder_) / rel).generic_string();
  }

  fs::path model_dir_, out_dir_;
  std::string copy_folder_;
  ObjMaterialPlan& plan_;
  std::map<std::string, Ref> refs_;
  std::vector<std::string> order_;
  std::set<std::string> taken_;
};

}  // namespace

ObjMaterialPlan plan_obj_materials(const model::Model& mdl, std::span<const anim::MaterialValues> values,
                                   const fs::path& model_dir, const fs::path& out_dir, const std::string& copy_folder) {
  ObjMaterialPlan plan;
  Planner p(model_dir, out_dir, copy_folder, plan);
  for (std::size_t i = 0; i < mdl.materials.size(); ++i) {
    const model::Material& m = mdl.materials[i];
    exporter::ObjMaterial o;
    o.name = exporter::obj_material_name(i, m.name);
    o.comment = m.name;
    if (i < values.size()) o.values = values[i];
    if (!m.texture.empty()) o.texture = p.use(m.texture, i);
    if (!m.sphere.empty() && m.sphere_mode != model::SphereMode::off) {
      if (m.sphere_mode == model::SphereMode::subtexture) {
        plan.warnings.push_back("material " + std::to_string(i) + ": sphere map '" + m.sphere +
                                "' is a sub-texture (mode 3, additional UV 1): MTL cannot hold it, not written");
      } else {
        o.sphere = p.use(m.sphere, i);
        o.sphere_add = m.sphere_mode == model::SphereMode::add;
      }
    }
    plan.materials.push_back(std::move(o));
  }
  p.finish();
  return plan;
}

}  // namespace mmdkit::cli

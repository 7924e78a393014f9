// mmdkit CLI — model and motions for `sample` and `pose` (animation_input.hpp).
#include "cli/animation_input.hpp"

#include <cstring>
#include <filesystem>

#include "cli/app.hpp"
#include "cli/io.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/model/check.hpp"

namespace mmdkit::cli {

namespace {

namespace fs = std::filesystem;

std::string lower_ext(const std::string& p) {
  std::string e = fs::path(p).extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

int fail(std::ostream& err, const Error& e, const std::string& file) {
  Error x = e;
  if (x.file.empty()) x.file = file;
  err << "mmdkit: error: " << x.to_string() << "\n";
  return kExitBadInput;
}

// Skeleton and morphs without the geometry (PMX vertices and faces are skipped while reading).
Result<void> load_skeleton_only(const std::string& path, AnimationInput& a) {
  Result<anim::SkeletonDesc> desc = make_error(ErrorCode::bad_signature, "not a PMX or PMD model", "header", -1, 0);
  {
    auto bytes = read_file(path);
    if (!bytes) return std::unexpected(bytes.error());
    if (bytes->size() >= 4 && std::memcmp(bytes->data(), "PMX ", 4) == 0) {
      auto r = pmx::read(*bytes, pmx::ReadOptions{.strict = false, .skip_geometry = true});
      if (!r) return std::unexpected(r.error());
      desc = anim::skeleton_desc_from_pmx(r->model);
      for (const pmx::Morph& mo : r->model.morphs) {
        a.morph_names.push_back(mo.name.text);
        auto key = anim::track_match_key_utf8(mo.name.text);
        a.morph_keys.push_back(key ? std::move(*key) : std::vector<std::uint8_t>{});
      }
    } else if (bytes->size() >= 3 && std::memcmp(bytes->data(), "Pmd", 3) == 0) {
      auto r = pmd::read(*bytes);
      if (!r) return std::unexpected(r.error());
      desc = anim::skeleton_desc_from_pmd(r->model);
      for (const pmd::Morph& mo : r->model.morphs) {
        if (mo.type == 0) continue;  // the base morph is not a morph one can key
        a.morph_names.push_back(mo.name.text);
        a.morph_keys.push_back(anim::track_match_key(mo.name.raw));
      }
    }
  }
  if (!desc) return std::unexpected(desc.error());
  auto sk = anim::build_skeleton(std::move(*desc));
  if (!sk) return std::unexpected(sk.error());
  a.skeleton = std::move(*sk);
  return {};
}

Result<void> load_view(const std::string& path, AnimationInput& a) {
  auto view = model::load_file(path);
  if (!view) return std::unexpected(view.error());
  // NaN / infinity in vertices or morph offsets would reach the posed mesh ("nan" in an OBJ):
  // refused with the record `check` names. (Bones: build_skeleton refuses them; other sections
  // such as rigid bodies do not take part in posing.)
  for (const model::Finding& f : model::check_view(*view)) {
    if (f.kind != model::FindingKind::non_finite || (f.section != "vertices" && f.section != "morphs")) continue;
    return make_error(ErrorCode::invalid_value, "field " + f.field + ": " + f.message + " (see mmdkit check)",
                      f.section, f.record);
  }
  auto sk = anim::build_skeleton(*view);
  if (!sk) return std::unexpected(sk.error());
  a.skeleton = std::move(*sk);
  for (const model::Morph& m : view->morphs) {
    a.morph_names.push_back(m.name);
    a.morph_keys.push_back(m.binding_key);
  }
  a.view = std::move(*view);
  return {};
}

}  // namespace

std::expected<AnimationInput, int> load_animation(const AnimationRequest& req, std::ostream& err) {
  auto refuse_stdin = [&](const std::string& p) {
    err << "mmdkit: " << req.command << " reads files only, not the standard input ('" << p
        << "'): give the model and motions as files\n";
    return std::unexpected(kExitUsage);
  };
  if (is_std_stream(req.model)) return refuse_stdin(req.model);
  for (const std::string& p : req.motions)
    if (is_std_stream(p)) return refuse_stdin(p);

  AnimationInput a;
  if (auto r = req.geometry ? load_view(req.model, a) : load_skeleton_only(req.model, a); !r)
    return std::unexpected(fail(err, r.error(), req.model));

  std::vector<vmd::Motion> motions;
  for (const std::string& p : req.motions) {
    const bool is_vpd = lower_ext(p) == ".vpd";
    if (is_vpd && (a.pose || (req.pose_alone && req.motions.size() > 1))) {
      err << "mmdkit: " << req.command << ": "
          << (req.pose_alone ? "a VPD pose cannot be combined with other motions or poses" : "at most one VPD pose")
          << "\n";
      return std::unexpected(kExitUsage);
    }
    auto bytes = read_file(p);
    if (!bytes) return std::unexpected(fail(err, bytes.error(), p));
    if (is_vpd) {
      auto r = vpd::read(*bytes);
      if (!r) return std::unexpected(fail(err, r.error(), p));
      a.pose = std::move(*r);
    } else {
      auto r = vmd::read(*bytes);
      if (!r) return std::unexpected(fail(err, r.error(), p));
      bytes->clear();
      bytes->shrink_to_fit();
      for (const Warning& w : r->warnings) {
        Warning x = w;
        x.file = p;
        err << "mmdkit: warning: " << x.to_string() << "\n";
      }
      motions.push_back(std::move(r->motion));
    }
  }
  std::vector<const vmd::Motion*> mptr;
  for (const auto& m : motions) mptr.push_back(&m);
  auto sampler = anim::MotionSampler::create(a.skeleton, mptr);
  if (!sampler) return std::unexpected(fail(err, sampler.error(), req.motions.empty() ? req.model : req.motions.front()));
  a.sampler = std::move(*sampler);
  auto morphs = anim::bind_motions(mptr, {}, a.morph_keys);
  if (!morphs) return std::unexpected(fail(err, morphs.error(), req.model));
  a.morphs = std::move(*morphs);
  for (const auto& m : motions)
    if (!m.camera_keys.empty()) {
      a.camera = anim::build_camera_track(m.camera_keys);
      break;
    }
  return a;
}

}  // namespace mmdkit::cli

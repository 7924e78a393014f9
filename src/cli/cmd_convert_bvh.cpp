// mmdkit CLI — BVH conversions of `convert` (cmd_convert_bvh.hpp).
#include "cli/cmd_convert_bvh.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <string_view>
#include <vector>

#include "cli/animation_input.hpp"
#include "cli/app.hpp"
#include "cli/io.hpp"
#include "cli/model_view_input.hpp"
#include "cli/progress.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/motion/bvh.hpp"

namespace mmdkit::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBvhOptions[] = {"--model", "--frames", "--scale", "--map", "--no-ik", "--no-leg-ik", "--names"};

// The output as the summary line names it.
std::string output_name(const std::string& output) {
  return is_std_stream(output) ? std::string("the standard output") : output;
}

// "A-B" or "A" (whole frames ≥ 0).
bool parse_range(const std::string& text, std::uint32_t& a, std::uint32_t& b) {
  const std::size_t dash = text.find('-');
  auto num = [](std::string_view t, std::uint32_t& v) {
    if (t.empty()) return false;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return ec == std::errc{} && p == t.data() + t.size();
  };
  if (dash == std::string::npos) {
    if (!num(text, a)) return false;
    b = a;
    return true;
  }
  return num(std::string_view(text).substr(0, dash), a) && num(std::string_view(text).substr(dash + 1), b) && a <= b;
}

std::vector<fs::path> inputs_of(std::initializer_list<std::string> paths) {
  std::vector<fs::path> v;
  for (const std::string& p : paths)
    if (!p.empty() && !is_std_stream(p)) v.emplace_back(p);
  return v;
}

int vmd_to_bvh(const std::string& input, const std::string& output, bool force, const BvhConvertArgs& a,
               const Streams& s) {
  const auto inputs = inputs_of({input, a.model});
  if (!is_std_stream(output))
    if (auto r = check_output(output, inputs, force); !r) return report_error(s.err, r.error(), output);
  AnimationRequest req{.model = a.model, .motions = {input}, .geometry = false, .quiet = a.quiet, .command = "convert"};
  auto data = load_animation(req, s.err);
  if (!data) return data.error();
  motion::BvhExportOptions o;
  o.ik = !a.no_ik;
  o.names = a.names == "english" ? motion::BvhNames::english : motion::BvhNames::japanese;
  o.scale = a.scale > 0 ? a.scale : 1.0;
  o.first_frame = 0;
  o.last_frame = (*data)->last_frame();
  if (!a.frames.empty() && !parse_range(a.frames, o.first_frame, o.last_frame))
    return usage_error(s.err, "convert", "--frames '" + a.frames + "' is not A-B (whole frames, A <= B) or one frame");
  auto bvh = motion::bvh_from_character(*data, o);
  if (!bvh) return report_error(s.err, bvh.error(), input);
  auto text = motion::write_bvh(*bvh);
  if (!text) return report_error(s.err, text.error(), output);
  if (auto r = write_output(output, ByteSpan(reinterpret_cast<const std::uint8_t*>(text->data()), text->size()), inputs,
                            force, s.out);
      !r)
    return report_error(s.err, r.error(), output);
  summary(s.err, a.quiet, "convert",
          "wrote " + output_name(output) + " (BVH: " + std::to_string(bvh->joints.size()) + " joints, " +
              std::to_string(bvh->frame_count) + (bvh->frame_count == 1 ? " frame" : " frames") + ", scale " +
              fmt::format("{}", o.scale) + ", " + std::to_string(text->size()) + " bytes)");
  return kExitOk;
}

int bvh_to_vmd(const std::string& input, const std::string& output, bool force, const BvhConvertArgs& a,
               const Streams& s) {
  const auto inputs = inputs_of({input, a.model, a.map});
  if (!is_std_stream(output))
    if (auto r = check_output(output, inputs, force); !r) return report_error(s.err, r.error(), output);
  auto bytes = read_input(input, s.in);
  if (!bytes) return report_error(s.err, bytes.error(), input_label(input));
  auto bvh = motion::read_bvh(std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  if (!bvh) return report_error(s.err, bvh.error(), input_label(input));
  if (is_std_stream(a.model)) return usage_error(s.err, "convert", "--model must be a file, not the standard input");
  auto read = read_model_view(a.model, a.quiet, s.err);
  if (!read) return read.error();
  const std::shared_ptr<const model::Model>& shared = *read;
  motion::BvhBoneMap map;
  if (!a.map.empty()) {
    auto text = read_file(a.map);
    if (!text) return report_error(s.err, text.error(), a.map);
    auto m = motion::read_bvh_bone_map(std::string_view(reinterpret_cast<const char*>(text->data()), text->size()));
    if (!m) return report_error(s.err, m.error(), a.map);
    map = std::move(*m);
  } else {
    auto m = motion::automatic_bvh_bone_map(*bvh, *shared);
    if (!m) return report_error(s.err, m.error(), input_label(input));
    map = std::move(*m);
  }
  motion::BvhImportOptions o;
  o.scale = a.scale;
  o.leg_ik = !a.no_leg_ik;
  motion::BvhImportReport report;
  auto vmd = motion::bvh_to_vmd(*bvh, shared, map, o, &report);
  if (!vmd) {  // a map error is the map file's (with its line) when the map came from one
    const bool of_map = !a.map.empty() && vmd.error().section == "map" && vmd.error().line > 0;
    return report_error(s.err, vmd.error(), of_map ? a.map : input_label(input));
  }
  if (std::abs(bvh->frame_time - 1.0 / 30.0) > 1e-6 && !a.quiet)
    s.err << "mmdkit: warning: " << input_label(input) << ": frame time " << bvh->frame_time
          << " s is not 1/30 s: BVH frame i becomes VMD frame i (not resampled)\n";
  for (const std::string& j : report.unmatched_joints)
    if (!a.quiet) s.err << "mmdkit: warning: " << (a.map.empty() ? input_label(input) : a.map) << ": joint '" << j
          << "' of the map is not in the BVH\n";
  auto out = vmd::write(*vmd);
  if (!out) return report_error(s.err, out.error(), output);
  if (auto r = write_output(output, *out, inputs, force, s.out); !r) return report_error(s.err, r.error(), output);
  summary(s.err, a.quiet, "convert",
          "wrote " + output_name(output) + " (VMD: " + std::to_string(report.mapped_bones) + " bones mapped (" +
              map.source + "), " + std::to_string(report.ik_bones) + " IK bones keyed, " +
              std::to_string(report.frames) + " frames, scale " + fmt::format("{}", report.scale) + ", " +
              std::to_string(out->size()) + " bytes)");
  return kExitOk;
}

}  // namespace

void add_bvh_convert_options(CLI::App& sub, BvhConvertArgs& a) {
  sub.add_option("--model", a.model, "BVH: the model (PMX/PMD) whose skeleton the BVH is of / is read onto");
  sub.add_option("--frames", a.frames, "VMD -> BVH: frames A-B written (default 0 .. the last key frame)");
  sub.add_option("--scale", a.scale, "BVH: BVH units per MMD unit (default 1 when writing; automatic when reading)")
      ->check(CLI::PositiveNumber);
  sub.add_option("--map", a.map, "BVH -> VMD: joint map, lines 'BVH_JOINT<TAB>MMD_BONE' (default: automatic)");
  sub.add_flag("--no-ik", a.no_ik, "VMD -> BVH: evaluate with every IK solver off");
  sub.add_option("--names", a.names,
                 "VMD -> BVH: joint names, japanese (the bones' names, default) or english (ASCII: the model's English "
                 "names, MMD's standard bones in English, else transliterated; docs/BVH.md)")
      ->check(CLI::IsMember({"japanese", "english"}));
  sub.add_flag("--no-leg-ik", a.no_leg_ik, "BVH -> VMD: no leg IK keys, IK switched off by a property key");
}

bool is_bvh_conversion(const std::string& input, const std::string& output) {
  return lower_extension(input) == ".bvh" || lower_extension(output) == ".bvh";
}

int refuse_bvh_options(const CLI::App& sub, const Streams& s) {
  for (const char* o : kBvhOptions)
    if (sub.count(o) > 0)
      return usage_error(s.err, "convert", std::string(o) + " applies only to BVH conversions (.bvh input or output)");
  return kExitOk;
}

int run_bvh_conversion(const std::string& input, const std::string& output, bool force, const BvhConvertArgs& a,
                       const Streams& s) {
  const bool in_bvh = lower_extension(input) == ".bvh", out_bvh = lower_extension(output) == ".bvh";
  if (in_bvh && out_bvh) return usage_error(s.err, "convert", "BVH converts to and from .vmd, not to .bvh");
  if (a.model.empty()) return usage_error(s.err, "convert", "BVH conversions need --model MODEL (PMX or PMD)");
  if (out_bvh) {
    if (lower_extension(input) == ".bvh") return usage_error(s.err, "convert", "BVH converts from a VMD motion");
    if (!a.map.empty() || a.no_leg_ik)
      return usage_error(s.err, "convert", "--map and --no-leg-ik apply to BVH -> VMD only");
    return vmd_to_bvh(input, output, force, a, s);
  }
  if (lower_extension(output) != ".vmd" && !is_std_stream(output))
    return usage_error(s.err, "convert", "a BVH converts to .vmd (got '" + output + "')");
  if (is_std_stream(output) && is_terminal_stdout(output, s.out))
    return usage_error(s.err, "convert", "refusing to write binary vmd data to a terminal; redirect it or give a file");
  if (!a.frames.empty() || a.no_ik || a.names != "japanese")
    return usage_error(s.err, "convert", "--frames, --no-ik and --names apply to VMD -> BVH only");
  return bvh_to_vmd(input, output, force, a, s);
}

}  // namespace mmdkit::cli

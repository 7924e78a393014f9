// mmdkit Python bindings — the motion layer (include/mmdkit/motion/) as the submodule
// mmdkit._mmdkit.motion, wrapped by python/mmdkit/motion.py: the editing operations on
// mmdkit.Motion objects (each returns a NEW Motion), VMD ↔ VPD, the proportions fit, BVH
// (mmdkit.motion.Bvh; VMD → BVH through anim::Character, BVH → VMD on a model) and 3D keypoints
// from a NumPy (F, J, 3|4) array. Every operation runs with the GIL released (the inputs are
// read, never changed, while it runs).
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "document.hpp"
#include "model_arg.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/bvh.hpp"
#include "mmdkit/motion/filter.hpp"
#include "mmdkit/motion/fit.hpp"
#include "mmdkit/motion/keypoints.hpp"
#include "mmdkit/motion/lipsync.hpp"
#include "mmdkit/motion/merge.hpp"
#include "mmdkit/motion/mirror.hpp"
#include "mmdkit/motion/vpd_pose.hpp"
#include "mmdkit/motion/reduce.hpp"
#include "mmdkit/motion/rename.hpp"
#include "mmdkit/motion/resample.hpp"
#include "mmdkit/motion/shift.hpp"
#include "mmdkit/motion/trim.hpp"
#include "mmdkit/version.hpp"
#if MMDKIT_HAS_RENDER
#include "mmdkit/render/audio.hpp"
#endif

namespace mmdkit::python {

namespace {

using Motion = Document<vmd::Motion>;
using Pose = Document<vpd::Pose>;

/// The result of an operation as a new mmdkit.Motion.
py::object new_motion(Result<vmd::Motion> r) { return py::cast(Motion{unwrap(std::move(r)), {}}); }

/// A geometry-free model view of a `model` argument (model_arg.hpp).
std::shared_ptr<const model::Model> model_arg(const py::handle& obj) {
  std::vector<Warning> ignored;
  return std::make_shared<const model::Model>(model_of(obj, /*geometry=*/false, ignored));
}

const vmd::Motion& motion_arg(const py::handle& obj, const char* what) {
  if (!py::isinstance<Motion>(obj)) raise_argument(std::string(what) + " must be an mmdkit.Motion");
  return obj.cast<const Motion&>().data;
}

py::dict trim_report(const motion::TrimReport& r) {
  py::dict d;
  d["keys_in"] = r.keys_in;
  d["keys_out"] = r.keys_out;
  d["split_curves"] = r.split_curves;
  d["max_curve_error"] = r.max_curve_error;
  d["max_translation_error"] = r.max_translation_error;
  d["max_rotation_error_deg"] = r.max_rotation_error_deg;
  d["max_translation_error_whole"] = r.max_translation_error_whole;
  d["max_rotation_error_deg_whole"] = r.max_rotation_error_deg_whole;
  d["max_view_angle_error_deg"] = r.max_view_angle_error_deg;
  return d;
}

// --- BVH -----------------------------------------------------------------------------------------

struct PyBvh {
  motion::Bvh bvh;
};

py::object bvh_values(py::object self) {
  auto& b = self.cast<PyBvh&>().bvh;
  return flat(self, b.values, {static_cast<py::ssize_t>(b.frame_count), static_cast<py::ssize_t>(b.channel_count)});
}

}  // namespace

void bind_motion(py::module_& top) {
  py::module_ m = top.def_submodule("motion", "The motion layer (python/mmdkit/motion.py wraps it; docs/PYTHON.md).");

  m.def(
      "trim",
      [](const py::object& mo, std::uint32_t first, std::uint32_t last, bool exact) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        if (first > last) raise_argument("trim: the first frame is after the last");
        motion::TrimReport rep;
        auto r = without_gil([&] { return motion::trim(in, {first, last, exact}, &rep); });
        return py::make_tuple(new_motion(std::move(r)), trim_report(rep));
      },
      py::arg("motion"), py::arg("first"), py::arg("last"), py::arg("exact") = false);
  m.def(
      "shift",
      [](const py::object& mo, std::int64_t by, bool clamp) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        return new_motion(without_gil([&] { return motion::shift(in, {by, clamp}); }));
      },
      py::arg("motion"), py::arg("by"), py::arg("clamp") = false);
  m.def(
      "merge",
      [](const py::object& a, const py::object& b) {
        const vmd::Motion& x = motion_arg(a, "a");
        const vmd::Motion& y = motion_arg(b, "b");
        motion::MergeReport rep;
        auto r = without_gil([&] { return motion::merge(x, y, &rep); });
        py::dict d;
        d["replaced"] = rep.replaced;
        d["new_bone_tracks"] = rep.new_bone_tracks;
        d["new_morph_tracks"] = rep.new_morph_tracks;
        return py::make_tuple(new_motion(std::move(r)), d);
      },
      py::arg("a"), py::arg("b"));
  m.def(
      "mirror",
      [](const py::object& mo, bool morph_names) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        return new_motion(without_gil([&] { return motion::mirror(in, {morph_names}); }));
      },
      py::arg("motion"), py::arg("morph_names") = false);
  m.def(
      "resample",
      [](const py::object& mo, double fps, std::uint32_t every) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        if (!(std::isfinite(fps) && fps > 0)) raise_argument("resample: fps must be a number > 0");
        if (every == 0) raise_argument("resample: every must be at least 1");
        return new_motion(without_gil([&] { return motion::resample(in, {fps, every}); }));
      },
      py::arg("motion"), py::arg("fps") = 30.0, py::arg("every") = 1);
  m.def(
      "reduce",
      [](const py::object& mo, double tol_units, double tol_deg, double tol_weight) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        for (double t : {tol_units, tol_deg, tol_weight})
          if (!(std::isfinite(t) && t >= 0)) raise_argument("reduce: tolerances must be numbers >= 0");
        motion::ReduceReport rep;
        auto r = without_gil([&] { return motion::reduce(in, {tol_units, tol_deg, tol_weight}, &rep); });
        py::dict d;
        d["bone_keys_in"] = rep.bone_keys_in;
        d["bone_keys_out"] = rep.bone_keys_out;
        d["morph_keys_in"] = rep.morph_keys_in;
        d["morph_keys_out"] = rep.morph_keys_out;
        d["max_translation_error"] = rep.max_translation_error;
        d["max_rotation_error_deg"] = rep.max_rotation_error_deg;
        d["max_weight_error"] = rep.max_weight_error;
        return py::make_tuple(new_motion(std::move(r)), d);
      },
      py::arg("motion"), py::arg("tol_units") = 0.01, py::arg("tol_deg") = 0.1, py::arg("tol_weight") = 0.005);
  m.def(
      "rename",
      [](const py::object& mo, const std::vector<std::pair<std::string, std::string>>& pairs, bool merge) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        motion::NameMap map;
        for (const auto& [a, b] : pairs) map.push_back({a, b, 0});
        motion::RenameReport rep;
        auto r = without_gil([&] { return motion::rename(in, map, &rep, {merge}); });
        return py::make_tuple(new_motion(std::move(r)), rep.unused);
      },
      py::arg("motion"), py::arg("pairs"), py::arg("merge") = false);
  m.def(
      "parse_name_map",
      [](const std::string& text) {
        auto map = unwrap(motion::parse_name_map(text));
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& e : map) out.emplace_back(e.from, e.to);
        return out;
      },
      py::arg("text"));
  m.def(
      "filter",
      [](const py::object& mo, std::optional<std::vector<std::string>> bones, std::optional<std::vector<std::string>> morphs,
         std::vector<std::string> drop_bones, std::vector<std::string> drop_morphs, bool camera, bool light,
         bool self_shadow, bool property) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        motion::FilterOptions o;
        o.bones = std::move(bones);
        o.morphs = std::move(morphs);
        o.drop_bones = std::move(drop_bones);
        o.drop_morphs = std::move(drop_morphs);
        o.camera = camera;
        o.light = light;
        o.self_shadow = self_shadow;
        o.property = property;
        motion::FilterReport rep;
        auto r = without_gil([&] { return motion::filter(in, o, &rep); });
        return py::make_tuple(new_motion(std::move(r)), rep.unmatched);
      },
      py::arg("motion"), py::arg("bones") = py::none(), py::arg("morphs") = py::none(),
      py::arg("drop_bones") = std::vector<std::string>{}, py::arg("drop_morphs") = std::vector<std::string>{},
      py::arg("camera") = true, py::arg("light") = true, py::arg("self_shadow") = true, py::arg("property") = true);
  m.def(
      "pose_from_motion",
      [](const py::object& mo, const py::object& model, double frame, const std::string& model_file) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        if (!(std::isfinite(frame) && frame >= 0)) raise_argument("frame must be a finite number >= 0");
        auto view = model_arg(model);
        motion::PoseFromMotionOptions o;
        o.frame = frame;
        o.model_file = model_file;
        return py::cast(Pose{unwrap(without_gil([&] { return motion::pose_from_motion(view, in, o); })), {}});
      },
      py::arg("motion"), py::arg("model"), py::arg("frame") = 0.0, py::arg("model_file") = "");
  m.def(
      "motion_from_pose",
      [](const py::object& pose, std::uint32_t frame) {
        if (!py::isinstance<Pose>(pose)) raise_argument("pose must be an mmdkit.Pose");
        const vpd::Pose& p = pose.cast<const Pose&>().data;
        return new_motion(without_gil([&] { return motion::motion_from_pose(p, frame); }));
      },
      py::arg("pose"), py::arg("frame") = 0);
  m.def(
      "fit",
      [](const py::object& mo, const py::object& from, const py::object& to, bool legs, bool arms) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        auto a = model_arg(from);
        auto b = model_arg(to);
        motion::FitReport rep;
        auto r = without_gil([&] { return motion::fit(in, *a, *b, {legs, arms}, &rep); });
        py::dict d;
        d["xz_ratio"] = rep.xz_ratio;
        d["y_ratio"] = rep.y_ratio;
        d["scaled"] = rep.scaled;
        d["arm_corrected"] = rep.arm_corrected;
        d["notes"] = rep.notes;
        return py::make_tuple(new_motion(std::move(r)), d);
      },
      py::arg("motion"), py::arg("source"), py::arg("target"), py::arg("legs") = true, py::arg("arms") = true);

  // --- keypoints ---------------------------------------------------------------------------------
  m.def(
      "from_keypoints",
      [](const py::array& arr, const std::string& layout, const py::object& model, std::array<std::string, 3> axes,
         double scale, double fps, float min_confidence, bool smooth, double min_cutoff, double beta, bool leg_ik,
         bool reduce, double reduce_deg, double reduce_units) {
        auto l = motion::parse_keypoint_layout(layout);
        if (!l) raise_argument("layout '" + layout + "' is not h36m17, coco17, mediapipe33 or smpl24");
        if (arr.ndim() != 3 || (arr.shape(2) != 3 && arr.shape(2) != 4)) {
          std::string shape = "(";
          for (py::ssize_t i = 0; i < arr.ndim(); ++i) shape += (i ? ", " : "") + std::to_string(arr.shape(i));
          if (arr.ndim() == 1) shape += ",";
          raise_argument("shape " + shape + "): expected (frames, joints, 3) or (frames, joints, 4)");
        }
        auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(arr);
        if (!a) raise_argument("keypoints must be a numeric array");
        motion::Keypoints k;
        k.frames = static_cast<std::uint32_t>(a.shape(0));
        k.joints = static_cast<std::uint32_t>(a.shape(1));
        const std::size_t ch = static_cast<std::size_t>(a.shape(2));
        const float* p = a.data();
        const std::size_t n = std::size_t{k.frames} * k.joints;
        k.positions.resize(n * 3);
        if (ch == 4) k.confidence.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
          for (std::size_t c = 0; c < 3; ++c) k.positions[i * 3 + c] = p[i * ch + c];
          if (ch == 4) k.confidence[i] = p[i * ch + 3];
        }
        motion::KeypointOptions o;
        o.layout = *l;
        o.axes = axes;
        o.scale = scale;
        o.fps = fps;
        o.min_confidence = min_confidence;
        if (smooth) o.smoothing = motion::OneEuro{min_cutoff, beta, 1.0};
        o.leg_ik = leg_ik;
        o.reduce = reduce;
        o.reduce_deg = reduce_deg;
        o.reduce_units = reduce_units;
        auto view = model_arg(model);
        motion::KeypointReport rep;
        auto r = without_gil([&] { return motion::keypoints_to_vmd(k, view, o, &rep); });
        py::dict d;
        d["frames"] = rep.frames;
        d["bones"] = rep.bones;
        d["missing"] = rep.missing;
        d["scale"] = rep.scale;
        d["floor"] = rep.floor;
        d["contact_frames"] = rep.contact_frames;
        d["keys"] = rep.keys;
        d["keys_dropped"] = rep.keys_dropped;
        return py::make_tuple(new_motion(std::move(r)), d);
      },
      py::arg("keypoints"), py::arg("layout"), py::arg("model"), py::arg("axes") = std::array<std::string, 3>{"x", "y", "-z"},
      py::arg("scale") = 0.0, py::arg("fps") = 30.0, py::arg("min_confidence") = 0.3f, py::arg("smooth") = false,
      py::arg("min_cutoff") = 1.5, py::arg("beta") = 0.3, py::arg("leg_ik") = true, py::arg("reduce") = true,
      py::arg("reduce_deg") = 0.5, py::arg("reduce_units") = 0.02);

  // --- BVH ---------------------------------------------------------------------------------------
  py::class_<PyBvh>(m, "Bvh", "A BVH file (docs/BVH.md): hierarchy and frames.")
      .def_static(
          "from_text", [](const std::string& text) { return PyBvh{unwrap(without_gil([&] { return motion::read_bvh(text); }))}; },
          py::arg("text"))
      .def(
          "to_text",
          [](const PyBvh& b, int digits) {
            return unwrap(without_gil([&] { return motion::write_bvh(b.bvh, {digits}); }));
          },
          py::arg("digits") = 9)
      .def_property_readonly("joint_names",
                             [](const PyBvh& b) {
                               std::vector<std::string> n;
                               for (const auto& j : b.bvh.joints) n.push_back(j.name);
                               return n;
                             })
      .def_property_readonly("parents",
                             [](const PyBvh& b) {
                               std::vector<std::int32_t> p;
                               for (const auto& j : b.bvh.joints) p.push_back(j.parent);
                               return p;
                             })
      .def_property_readonly("offsets",
                             [](const PyBvh& b) {
                               py::array_t<double> a({static_cast<py::ssize_t>(b.bvh.joints.size()), py::ssize_t{3}});
                               auto w = a.mutable_unchecked<2>();
                               for (std::size_t i = 0; i < b.bvh.joints.size(); ++i)
                                 for (py::ssize_t c = 0; c < 3; ++c)
                                   w(static_cast<py::ssize_t>(i), c) = b.bvh.joints[i].offset[static_cast<std::size_t>(c)];
                               return a;
                             })
      .def_property_readonly("channels",
                             [](const PyBvh& b) {
                               std::vector<std::vector<std::string>> out;
                               for (const auto& j : b.bvh.joints) {
                                 out.emplace_back();
                                 for (auto c : j.channels) out.back().emplace_back(motion::bvh_channel_name(c));
                               }
                               return out;
                             })
      .def_property_readonly("frame_count", [](const PyBvh& b) { return b.bvh.frame_count; })
      .def_property_readonly("frame_time", [](const PyBvh& b) { return b.bvh.frame_time; })
      .def_property_readonly("values", &bvh_values);
  m.def(
      "bvh_from_motion",
      [](const py::object& model, const py::object& mo, std::optional<std::uint32_t> first, std::optional<std::uint32_t> last,
         double scale, bool ik, const std::string& names) {
        const vmd::Motion& in = motion_arg(mo, "motion");
        if (!(std::isfinite(scale) && scale > 0)) raise_argument("scale must be a number > 0");
        if (names != "japanese" && names != "english") raise_argument("names must be 'japanese' or 'english', not '" + names + "'");
        auto view = model_arg(model);
        return PyBvh{unwrap(without_gil([&]() -> Result<motion::Bvh> {
          anim::MotionInputs inputs;
          inputs.motions = {&in};
          auto data = anim::CharacterData::create(view, inputs);
          if (!data) return std::unexpected(data.error());
          motion::BvhExportOptions o;
          o.scale = scale;
          o.ik = ik;
          o.names = names == "english" ? motion::BvhNames::english : motion::BvhNames::japanese;
          o.first_frame = first.value_or(0);
          o.last_frame = last.value_or((*data)->last_frame());
          if (o.first_frame > o.last_frame) return make_error(ErrorCode::invalid_argument, "first frame after the last");
          return motion::bvh_from_character(*data, o);
        }))};
      },
      py::arg("model"), py::arg("motion"), py::arg("first") = py::none(), py::arg("last") = py::none(),
      py::arg("scale") = 1.0, py::arg("ik") = true, py::arg("names") = "japanese");
  m.def(
      "motion_from_bvh",
      [](const PyBvh& b, const py::object& model, std::optional<std::string> map_text, double scale, bool leg_ik) {
        auto view = model_arg(model);
        motion::BvhImportReport rep;
        auto r = without_gil([&]() -> Result<vmd::Motion> {
          motion::BvhBoneMap map;
          if (map_text) {
            auto mm = motion::read_bvh_bone_map(*map_text);
            if (!mm) return std::unexpected(mm.error());
            map = std::move(*mm);
          } else {
            auto mm = motion::automatic_bvh_bone_map(b.bvh, *view);
            if (!mm) return std::unexpected(mm.error());
            map = std::move(*mm);
          }
          motion::BvhImportOptions o;
          o.scale = scale;
          o.leg_ik = leg_ik;
          return motion::bvh_to_vmd(b.bvh, view, map, o, &rep);
        });
        py::dict d;
        d["mapped_bones"] = rep.mapped_bones;
        d["ik_bones"] = rep.ik_bones;
        d["frames"] = rep.frames;
        d["scale"] = rep.scale;
        d["unmatched_joints"] = rep.unmatched_joints;
        return py::make_tuple(new_motion(std::move(r)), d);
      },
      py::arg("bvh"), py::arg("model"), py::arg("map") = py::none(), py::arg("scale") = 0.0, py::arg("leg_ik") = true);
  // Lip sync (motion/lipsync.hpp): a score or audio file, or samples; returns (Motion, weights
  // (F, 6) float32 a i u e o closed, report dict).
  m.def(
      "lipsync",
      [](std::optional<std::string> path, std::optional<py::array_t<float, py::array::c_style | py::array::forcecast>> samples,
         double sample_rate, const py::object& model, std::optional<std::string> map_text, std::optional<std::string> closed_morph,
         double gain, double smooth, double blend, double lead_ms, double fps, double tol_weight) {
        auto view = model_arg(model);
        std::vector<float> pcm;
        if (samples) {
          if (samples->ndim() != 1) raise_argument("samples must be a 1-D array (mono)");
          pcm.assign(samples->data(), samples->data() + samples->size());
        }
        motion::MouthTrack track;
        bool from_score = false;
        std::size_t notes = 0;
        std::vector<std::string> warnings;
        motion::AudioLipReport ar;
        motion::LipMotionReport lr;
        auto r = without_gil([&]() -> Result<vmd::Motion> {
          Result<motion::MouthMorphs> morphs = map_text ? motion::parse_mouth_map(*map_text, *view) : motion::find_mouth_morphs(*view);
          if (!morphs) return std::unexpected(morphs.error());
          if (closed_morph) {
            std::optional<std::size_t> found;
            for (std::size_t k = 0; k < view->morphs.size() && !found; ++k)
              if (view->morphs[k].name == *closed_morph || view->morphs[k].name_en == *closed_morph) found = k;
            if (!found) return make_error(ErrorCode::invalid_argument, "closed_morph: the model has no morph named '" + *closed_morph + "'");
            morphs->morph[5] = found;
          }
          std::string ext = path ? std::filesystem::path(*path).extension().string() : std::string();
          for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          if (path && (ext == ".ust" || ext == ".vsqx" || ext == ".vsq3" || ext == ".vsq4" || ext == ".lab")) {
            auto bytes = read_file(*path);
            if (!bytes) return std::unexpected(bytes.error());
            auto score = motion::read_score(ByteSpan(bytes->data(), bytes->size()), ext);
            if (!score) return std::unexpected(score.error());
            motion::ScoreLipOptions so;
            so.fps = fps;
            so.gain = gain;
            so.lead_ms = lead_ms;
            auto keys = motion::score_keys(*score, so);
            if (!keys) return std::unexpected(keys.error());
            track = motion::score_track(*keys);
            from_score = true;
            notes = score->notes.size();
            warnings = score->warnings;
            return motion::lipsync_motion(*keys, *view, *morphs);
          }
          if (path) {
#if MMDKIT_HAS_RENDER
            auto decoded = render::decode_audio_mono(*path, static_cast<int>(motion::kLipSampleRate));
            if (!decoded) return std::unexpected(decoded.error());
            pcm = std::move(*decoded);
            sample_rate = motion::kLipSampleRate;
#else
            return make_error(ErrorCode::unsupported, "audio files need FFmpeg (this build has no render layer); pass samples");
#endif
          }
          motion::AudioLipOptions ao;
          ao.fps = fps;
          ao.gain = gain;
          ao.smooth = smooth;
          ao.blend = blend;
          auto t = motion::analyze_audio(pcm, sample_rate, ao, &ar);
          if (!t) return std::unexpected(t.error());
          track = std::move(*t);
          motion::LipMotionOptions lo;
          lo.tol_weight = tol_weight;
          return motion::lipsync_motion(track, *view, *morphs, lo, &lr);
        });
        py::dict rep;
        if (from_score) {
          rep["source"] = "score";
          rep["notes"] = notes;
          rep["warnings"] = warnings;
        } else {
          rep["source"] = "audio";
          rep["frames"] = ar.frames;
          rep["voiced_frames"] = ar.voiced_frames;
          rep["open_frames"] = ar.open_frames;
          rep["silent"] = ar.silent;
          rep["peak_rms_db"] = ar.peak_rms_db;
          rep["voice_energy_fraction"] = ar.voice_energy_fraction;
          rep["poor"] = !ar.silent && ar.voice_energy_fraction < motion::kPoorVoiceFraction;
          rep["median_f1"] = ar.median_f1;
          rep["median_f2"] = ar.median_f2;
          rep["voice_scale"] = ar.voice_scale;
          rep["keys"] = lr.keys;
          rep["max_weight_error"] = lr.max_weight_error;
        }
        py::object motion_obj = new_motion(std::move(r));
        py::array_t<float> w({static_cast<py::ssize_t>(track.frames.size()), static_cast<py::ssize_t>(motion::kMouthChannels)});
        if (!track.frames.empty()) std::memcpy(w.mutable_data(), track.frames.data(), track.frames.size() * sizeof(track.frames[0]));
        return py::make_tuple(motion_obj, w, rep);
      },
      py::arg("path"), py::arg("samples"), py::arg("sample_rate"), py::arg("model"), py::arg("map"), py::arg("closed_morph"),
      py::arg("gain"), py::arg("smooth"), py::arg("blend"), py::arg("lead_ms"), py::arg("fps"), py::arg("tol_weight"));
}

}  // namespace mmdkit::python

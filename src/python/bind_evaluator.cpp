// mmdkit Python bindings — evaluation (mmdkit.Evaluator) on the library pipeline anim::Character
// (mmdkit/anim/character.hpp): the same loading, binding and per-frame evaluation as `mmdkit
// sample` and `mmdkit pose`, with the results written straight into NumPy arrays the caller
// allocated, the GIL released while C++ works.
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <variant>

#include "document.hpp"
#include "model_arg.hpp"
#include "mmdkit/anim/character.hpp"
#include "mmdkit/anim/input_files.hpp"
#include "mmdkit/core/math.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/motion/keypoints.hpp"

#include <cmath>
#include <optional>

#include "mmdkit/version.hpp"
#if MMDKIT_HAS_PHYSICS
#include "mmdkit/physics/character_physics.hpp"
#endif

namespace mmdkit::python {

namespace {

/// One bound character (immutable, shareable) and the warnings of the files it was read from.
struct Evaluator {
  std::shared_ptr<const anim::CharacterData> data;
  std::vector<Warning> warnings;
  bool ik = true;
  std::uint32_t physics_fps = 0;  ///< physics steps per second; 0 = no physics
};

/// Evaluates frames of one Character, through the physics layer when the evaluator asks for it
/// (physics/character_physics.hpp: frame F is frame F of a run from frame 0; whole frames only).
class FrameRunner {
 public:
  FrameRunner(anim::Character& ch, std::uint32_t physics_fps) : ch_(ch) {
#if MMDKIT_HAS_PHYSICS
    if (physics_fps != 0) {
      physics::Settings settings;
      settings.steps_per_second = physics_fps;
      physics_.emplace(ch, settings);
    }
#else
    (void)physics_fps;
#endif
  }
  Result<void> evaluate(double frame) {
#if MMDKIT_HAS_PHYSICS
    if (physics_) {
      if (!(frame >= 0) || frame != std::floor(frame) || frame > 4294967295.0)
        return make_error(ErrorCode::invalid_argument, "with physics, frames must be whole frames >= 0 (30 fps)");
      return physics_->evaluate(static_cast<std::uint32_t>(frame));
    }
#endif
    return ch_.evaluate(frame);
  }

 private:
  anim::Character& ch_;
#if MMDKIT_HAS_PHYSICS
  std::optional<physics::CharacterPhysics> physics_;
#endif
};

Evaluator make_evaluator(const py::handle& model_arg, const py::list& motion_args, bool geometry, bool ik,
                         std::uint32_t physics_fps) {
  Evaluator ev;
  ev.ik = ik;
  if (physics_fps != 0 && physics_fps != 60 && physics_fps != 120 && physics_fps != 240)
    raise_argument("physics_fps must be 60, 120 or 240, not " + std::to_string(physics_fps));
#if !MMDKIT_HAS_PHYSICS
  if (physics_fps != 0) raise_argument("physics=True: this mmdkit was built without the physics layer (MMDKIT_WITH_PHYSICS=OFF)");
#endif
  ev.physics_fps = physics_fps;
  auto view = std::make_shared<model::Model>(model_of(model_arg, geometry, ev.warnings));
  std::vector<anim::MotionFile> loaded;  // motions read from paths, alive until bound
  loaded.reserve(motion_args.size());
  anim::MotionInputs inputs;
  for (std::size_t i = 0; i < motion_args.size(); ++i) {
    py::handle m = motion_args[i];
    const vmd::Motion* motion = nullptr;
    const vpd::Pose* pose = nullptr;
    if (py::isinstance<py::str>(m)) {
      const std::string path = m.cast<std::string>();
      loaded.push_back(unwrap(without_gil([&] {
        return anim::read_motion_file(path, anim::InputOptions{.encoding = std::nullopt, .geometry = geometry}, ev.warnings);
      })));
      if (loaded.back().motion) motion = &*loaded.back().motion;
      else pose = &*loaded.back().pose;
    } else if (py::isinstance<Document<vmd::Motion>>(m)) {
      motion = &m.cast<const Document<vmd::Motion>&>().data;
    } else if (py::isinstance<Document<vpd::Pose>>(m)) {
      pose = &m.cast<const Document<vpd::Pose>&>().data;
    } else {
      raise_argument("motions[" + std::to_string(i) + "] must be a path, Motion or Pose");
    }
    if (pose != nullptr) {
      if (inputs.pose != nullptr) raise(Error{ErrorCode::invalid_argument, "a second VPD pose (at most one)", "inputs", static_cast<std::int64_t>(i), -1, {}});
      inputs.pose = pose;
      inputs.pose_input = i;
      inputs.motions.push_back(nullptr);
    } else {
      inputs.motions.push_back(motion);
    }
  }
  ev.data = unwrap(without_gil([&] { return anim::CharacterData::create(std::move(view), inputs); }));
  // Motions that key no bone and no morph of the model (a camera motion, one made for another
  // model): every frame is the rest pose. `mmdkit sample` / `pose` / `export` / `bake` refuse
  // them and mmdkit.dataset fails such a file (cli/animation_input.hpp); the library object stays
  // usable and says so among its warnings.
  const anim::BindingReport& rep = ev.data->report();
  if (motion_args.size() > 0 && rep.keyed_bones == 0 && rep.keyed_morphs == 0) {
    Warning w{ErrorCode::invalid_value,
              std::string(motion_args.size() > 1 ? "the motions key" : "the motion keys") +
                  " no bone or morph of the model: every frame is the rest pose" +
                  (ev.data->camera_track().empty() ? "" : " (a camera motion)"),
              {}, -1, -1, {}};
    if (motion_args.size() == 1 && py::isinstance<py::str>(motion_args[0])) w.file = motion_args[0].cast<std::string>();
    ev.warnings.push_back(std::move(w));
  }
  return ev;
}

/// A float32 / float64 C-contiguous array of the expected shape, or None.
template <class T>
T* out_ptr(const py::object& a, std::vector<py::ssize_t> shape, const char* what) {
  if (a.is_none()) return nullptr;
  auto arr = py::array::ensure(a);
  if (!arr || !arr.dtype().is(py::dtype::of<T>()) || !(arr.flags() & py::array::c_style) || !arr.writeable())
    raise_argument(std::string(what) + ": expected a writeable C-contiguous " +
                   (sizeof(T) == 4 ? "float32" : "float64") + " array");
  if (arr.ndim() != static_cast<py::ssize_t>(shape.size()))
    raise_argument(std::string(what) + ": wrong number of dimensions");
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (arr.shape(static_cast<py::ssize_t>(i)) != shape[i]) raise_argument(std::string(what) + ": wrong shape");
  return static_cast<T*>(arr.mutable_data());
}

/// Refuses a frame MMD has no meaning for: NaN, infinite or negative (MMD's timeline starts at
/// frame 0; `mmdkit sample --frames` refuses them too). ArgumentError (a ValueError) naming the
/// frame and its position.
void check_frame(double frame, py::ssize_t at) {
  if (std::isfinite(frame) && frame >= 0) return;
  const std::string where = at >= 0 ? " (frames[" + std::to_string(at) + "])" : std::string();
  const std::string text = py::repr(py::float_(frame)).cast<std::string>();
  if (!std::isfinite(frame)) raise_argument("frame " + text + where + " is not a finite number");
  raise_argument("frame " + text + where +
                   " is negative: MMD frames start at 0 (30 per second)");
}

/// Evaluates `frames` and writes, per frame f and selected bone k (bone index bones[k]):
/// positions[f,k] = model matrix translation, rotations[f,k] = normalized model rotation
/// (as `mmdkit sample`), matrices[f,k] = the model matrix indexed [row, column] (the pipeline's
/// column-major floats transposed: translation at [0..2, 3]); morph_weights[f,m];
/// camera target / rotation / distance / fov / position. Arrays that are None are skipped.
void sample_into(const Evaluator& ev, const py::array_t<double, py::array::c_style | py::array::forcecast>& frames_arg,
                 const py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>& bones_arg,
                 const py::object& positions, const py::object& rotations, const py::object& matrices,
                 const py::object& morph_weights, const py::object& cam_target, const py::object& cam_rotation,
                 const py::object& cam_distance, const py::object& cam_fov, const py::object& cam_position) {
  const auto nf = frames_arg.size();
  const auto nb = bones_arg.size();
  const auto bone_count = static_cast<std::int64_t>(ev.data->bone_names().size());
  const auto nm = static_cast<py::ssize_t>(ev.data->morph_names().size());
  const double* frames = frames_arg.data();
  const std::int32_t* bones = bones_arg.data();
  for (py::ssize_t f = 0; f < nf; ++f) check_frame(frames[f], f);
  for (py::ssize_t k = 0; k < nb; ++k)
    if (bones[k] < 0 || bones[k] >= bone_count)
      raise_argument("bone index " + std::to_string(bones[k]) + " out of range (model has " +
                     std::to_string(bone_count) + " bones)");
  float* pos = out_ptr<float>(positions, {nf, nb, 3}, "positions");
  float* rot = out_ptr<float>(rotations, {nf, nb, 4}, "rotations");
  float* mat = out_ptr<float>(matrices, {nf, nb, 4, 4}, "matrices");
  float* mw = out_ptr<float>(morph_weights, {nf, nm}, "morph_weights");
  float* ct = out_ptr<float>(cam_target, {nf, 3}, "camera target");
  float* cr = out_ptr<float>(cam_rotation, {nf, 3}, "camera rotation");
  float* cd = out_ptr<float>(cam_distance, {nf}, "camera distance");
  float* cf = out_ptr<float>(cam_fov, {nf}, "camera fov");
  float* cp = out_ptr<float>(cam_position, {nf, 3}, "camera position");
  auto r = without_gil([&]() -> Result<void> {
    // Every character of the call alike: bone transforms only; morph weights and the camera when
    // their arrays are given (the rest is not computed).
    const bool want_scene = ct || cr || cd || cf || cp;
    const auto configure = [&](anim::Character& c) {
      c.set_ik(ev.ik);
      c.set_skinning_matrices(false);
      c.set_morphs(mw != nullptr);
      c.set_camera_and_light(want_scene);
    };
    anim::Character ch(ev.data);
    configure(ch);
    FrameRunner runner(ch, ev.physics_fps);
    // Without physics, kMaxFrameBatch frames at a time, each by its own character
    // (Character::evaluate_frames: the same values as one by one, less time); with physics in order.
    const py::ssize_t batch = ev.physics_fps != 0 ? 1 : static_cast<py::ssize_t>(anim::kMaxFrameBatch);
    std::vector<std::unique_ptr<anim::Character>> more;
    std::vector<anim::Character*> chars{&ch};
    for (py::ssize_t k = 1; k < std::min(batch, nf); ++k) {
      more.push_back(std::make_unique<anim::Character>(ev.data));
      configure(*more.back());
      chars.push_back(more.back().get());
    }
    for (py::ssize_t f = 0; f < nf; ++f) {
      if (batch == 1) {
        if (auto e = runner.evaluate(frames[f]); !e) return e;
      } else if (f % batch == 0) {
        const auto n = static_cast<std::size_t>(std::min(batch, nf - f));
        if (auto e = anim::Character::evaluate_frames(std::span(chars.data(), n), std::span(frames + f, n)); !e) return e;
      }
      const anim::Character& evc = *chars[static_cast<std::size_t>(f % batch)];
      const auto mats = evc.pose().model_matrices();
      const auto rots = evc.pose().model_rotations();
      for (py::ssize_t k = 0; k < nb; ++k) {
        const auto b = static_cast<std::size_t>(bones[k]);
        const std::size_t i = static_cast<std::size_t>(f * nb + k);
        if (pos) std::memcpy(pos + i * 3, &mats[b][12], 3 * sizeof(float));
        if (rot) {
          const Quat q = quat_normalize(rots[b]);
          std::memcpy(rot + i * 4, q.data(), 4 * sizeof(float));
        }
        if (mat) {  // column-major in the pipeline; NumPy gets M[row, col] (translation M[:3, 3])
          float* o = mat + i * 16;
          for (int c = 0; c < 4; ++c)
            for (int rr = 0; rr < 4; ++rr) o[rr * 4 + c] = mats[b][static_cast<std::size_t>(c * 4 + rr)];
        }
      }
      if (mw && nm > 0) std::memcpy(mw + f * nm, evc.morph_weights().data(), static_cast<std::size_t>(nm) * sizeof(float));
      const anim::CameraState& cam = evc.camera();
      if (ct) std::memcpy(ct + f * 3, cam.target.data(), 3 * sizeof(float));
      if (cr) std::memcpy(cr + f * 3, cam.rotation.data(), 3 * sizeof(float));
      if (cd) cd[f] = cam.distance;
      if (cf) cf[f] = cam.fov_degrees;
      if (cp) std::memcpy(cp + f * 3, cam.position.data(), 3 * sizeof(float));
    }
    return {};
  });
  unwrap(std::move(r));
}

py::tuple pose_at(const Evaluator& ev, double frame) {
  check_frame(frame, -1);
  if (!ev.data->has_geometry()) raise_argument("pose(): the evaluator was made with geometry=False");
  const auto nv = static_cast<py::ssize_t>(ev.data->model().vertices.size());
  py::array_t<float> positions({nv, py::ssize_t{3}});
  py::array_t<float> normals({nv, py::ssize_t{3}});
  float* p = positions.mutable_data();
  float* n = normals.mutable_data();
  auto r = without_gil([&]() -> Result<void> {
    anim::Character ch(ev.data);
    ch.set_ik(ev.ik);
    FrameRunner runner(ch, ev.physics_fps);
    if (auto e = runner.evaluate(frame); !e) return e;
    if (auto e = ch.skin(); !e) return e;
    std::memcpy(p, ch.positions().data(), ch.positions().size() * sizeof(Vec3));
    std::memcpy(n, ch.normals().data(), ch.normals().size() * sizeof(Vec3));
    return {};
  });
  unwrap(std::move(r));
  return py::make_tuple(positions, normals);
}

motion::KeypointLayout keypoint_layout(const std::string& name) {
  auto l = motion::parse_keypoint_layout(name);
  if (!l) raise_argument("unknown joint layout '" + name + "' (known: coco17, h36m17, mediapipe33, smpl24)");
  return *l;
}

/// The joints of a keypoint layout (motion::keypoints_on_model, docs/KEYPOINTS.md "Joints on an
/// MMD model") at each of `frames`: (F, J, 3) float32, model space, MMD units; NaN for a joint the
/// model cannot give. Evaluated as sample_into (IK as the evaluator says; physics in order).
py::array_t<float> keypoints_at(const Evaluator& ev, const py::array_t<double, py::array::c_style | py::array::forcecast>& frames_arg,
                                const std::string& layout_name) {
  const motion::KeypointLayout layout = keypoint_layout(layout_name);
  if (frames_arg.ndim() != 1) raise_argument("frames must be a 1-D array");
  const py::ssize_t nf = frames_arg.shape(0);
  const double* frames = frames_arg.data();
  for (py::ssize_t f = 0; f < nf; ++f) check_frame(frames[f], f);
  const auto nj = static_cast<py::ssize_t>(motion::keypoint_joint_names(layout).size());
  py::array_t<float> out({nf, nj, py::ssize_t{3}});
  float* o = out.mutable_data();
  unwrap(without_gil([&]() -> Result<void> {
    anim::Character ch(ev.data);
    ch.set_ik(ev.ik);
    ch.set_skinning_matrices(false);
    ch.set_morphs(false);
    ch.set_camera_and_light(false);
    FrameRunner runner(ch, ev.physics_fps);
    for (py::ssize_t f = 0; f < nf; ++f) {
      if (auto e = runner.evaluate(frames[f]); !e) return e;
      const std::vector<float> pts = motion::keypoints_on_model(ch, layout);
      std::memcpy(o + f * nj * 3, pts.data(), pts.size() * sizeof(float));
    }
    return {};
  }));
  return out;
}

}  // namespace

void bind_evaluator(py::module_& m) {
  py::class_<Evaluator>(m, "_Evaluator", "The bound character behind mmdkit.Evaluator.")
      .def(py::init(&make_evaluator), py::arg("model"), py::arg("motions"), py::arg("geometry"), py::arg("ik"),
           py::arg("physics_fps") = 0)
      .def_property_readonly("bone_names",
                             [](const Evaluator& e) {
                               py::list out;
                               for (const auto& n : e.data->bone_names()) out.append(py::str(n));
                               return out;
                             })
      .def_property_readonly("morph_names",
                             [](const Evaluator& e) {
                               py::list out;
                               for (const auto& n : e.data->morph_names()) out.append(py::str(n));
                               return out;
                             })
      .def_property_readonly("last_frame", [](const Evaluator& e) { return e.data->last_frame(); })
      .def_property_readonly("has_geometry", [](const Evaluator& e) { return e.data->has_geometry(); })
      .def_property_readonly("vertex_count", [](const Evaluator& e) { return e.data->model().vertices.size(); })
      .def_property_readonly("warnings", [](const Evaluator& e) { return error_dicts(e.warnings); })
      .def_property_readonly("keyed_bones", [](const Evaluator& e) { return e.data->report().keyed_bones; })
      .def_property_readonly("keyed_morphs", [](const Evaluator& e) { return e.data->report().keyed_morphs; })
      .def_property_readonly("camera_keys", [](const Evaluator& e) { return e.data->camera_track().size(); })
      .def_property_readonly("unmatched",
                             [](const Evaluator& e) {
                               py::list out;
                               for (const auto& t : e.data->report().unmatched)
                                 out.append(py::make_tuple(t.input, t.morph ? "morph" : "bone", t.name));
                               return out;
                             })
      .def(
          "unmatched_messages",
          [](const Evaluator& e, const std::vector<std::string>& inputs) {
            return anim::unmatched_messages(e.data->report(), inputs);
          },
          py::arg("inputs"))
      .def("sample_into", &sample_into, py::arg("frames"), py::arg("bones"), py::arg("positions"),
           py::arg("rotations"), py::arg("matrices"), py::arg("morph_weights"), py::arg("camera_target"),
           py::arg("camera_rotation"), py::arg("camera_distance"), py::arg("camera_fov"), py::arg("camera_position"))
      .def("pose", &pose_at, py::arg("frame"))
      .def("keypoints", &keypoints_at, py::arg("frames"), py::arg("layout"));
  m.def(
      "_keypoint_names",
      [](const std::string& layout) {
        py::list out;
        for (std::string_view n : motion::keypoint_joint_names(keypoint_layout(layout))) out.append(py::str(std::string(n)));
        return out;
      },
      py::arg("layout"));
}

}  // namespace mmdkit::python

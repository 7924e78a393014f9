// mmdkit Python bindings — drawing (mmdkit.Renderer, python/mmdkit/render.py) on the library's render
// session (mmdkit/render/scene_renderer.hpp): the scene loading, physics and drawing of `mmdkit
// render`, so the same inputs give the same pixels. Frames come back as NumPy arrays; the GIL is
// released while a frame is evaluated, drawn and read back.
#include "common.hpp"
#include "mmdkit/version.hpp"

#if MMDKIT_HAS_RENDER

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <thread>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <unistd.h>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/thread_pool.hpp"
#include "mmdkit/model/model.hpp"
#include "mmdkit/render/context.hpp"
#include "mmdkit/render/image.hpp"
#include "mmdkit/render/scene_renderer.hpp"
#include "mmdkit/render/video.hpp"
#include "mmdkit/scene/description.hpp"
#include "mmdkit/scene/scene.hpp"
#if MMDKIT_HAS_PHYSICS
#include "mmdkit/physics/scene_physics.hpp"
#endif

namespace mmdkit::python {

namespace {

namespace fs = std::filesystem;

/// Raises mmdkit.render.RenderError (an mmdkit.Error and a RuntimeError) for a context that cannot
/// be made: no EGL, no Mesa driver, GL below 3.3 (the message names the Debian package).
[[noreturn]] void raise_render(const Error& e) {
  py::object cls = py::module_::import("mmdkit.render").attr("RenderError");
  py::object exc = cls(e.message, std::string(error_code_name(e.code)), e.file.empty() ? py::none() : py::object(py::str(e.file)));
  PyErr_SetObject(cls.ptr(), exc.ptr());
  throw py::error_already_set();
}

/// The thread that owns a session's GL context: an EGL context is current on one thread at a
/// time, Python may call from any thread, so every GL call (creation, drawing, read-back,
/// destruction) runs here, one job at a time, while the calling thread waits without the GIL.
class GlThread {
 public:
  GlThread() : thread_([this] { loop(); }) {}
  ~GlThread() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  GlThread(const GlThread&) = delete;
  GlThread& operator=(const GlThread&) = delete;

  /// Runs fn() on the thread and returns its value (fn must not throw).
  template <class Fn>
  auto run(Fn&& fn) -> decltype(fn()) {
    std::packaged_task<decltype(fn())()> task(std::forward<Fn>(fn));
    auto result = task.get_future();
    {
      std::lock_guard lock(mutex_);
      jobs_.emplace_back([&task] { task(); });
    }
    cv_.notify_all();
    return result.get();
  }

 private:
  void loop() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stop_ = false;
  std::thread thread_;
};

/// One scene with its GL context and renderers (the set-up of `mmdkit render`).
struct Session {
  std::unique_ptr<GlThread> gl = std::make_unique<GlThread>();  ///< first: destroyed last
  std::unique_ptr<render::Context> context;
  std::unique_ptr<scene::Scene> scene;
#if MMDKIT_HAS_PHYSICS
  std::unique_ptr<physics::ScenePhysics> physics;
#endif
  bool physics_on = false;
  std::uint32_t samples_per_frame = 1;  ///< physics samples per frame (2 at fps 60)
  int fps = 30;                         ///< 30 or 60 (the argument, or the scene's view)
  std::unique_ptr<render::SceneRenderer> renderer;
  std::unique_ptr<ThreadPool> pool;
  std::vector<Warning> warnings;
  Image image;
  std::string audio;  ///< the scene's audio file (a scene file's "audio")

  Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session() {
    // GL objects go on the thread whose context they belong to.
    py::gil_scoped_release release;
    gl->run([this] {
      renderer.reset();
      context.reset();
      return 0;
    });
  }

  Result<void> evaluate(double frame) {
    if (!std::isfinite(frame) || frame < 0) return make_error(ErrorCode::invalid_argument, "frame must be a number >= 0");
    if (auto r = context->make_current(); !r) return r;
#if MMDKIT_HAS_PHYSICS
    if (physics) {
      const double sample = frame * double(samples_per_frame);
      if (sample != std::floor(sample) || frame > 4294967295.0)
        return make_error(ErrorCode::invalid_argument,
                          samples_per_frame == 1
                              ? std::string("with physics frames must be whole frames (30 fps); physics=False renders any fraction")
                              : "with physics frames must be multiples of 1/" + std::to_string(samples_per_frame) + " frame");
      return physics->evaluate_sample(static_cast<std::uint64_t>(sample), samples_per_frame);
    }
#endif
    return scene->evaluate(frame);
  }

  Result<void> draw(double frame) {
    if (auto r = evaluate(frame); !r) return r;
    return renderer->draw(*scene, pool.get());
  }
};

std::unique_ptr<Session> make_session(const std::string& source, const std::vector<std::string>& motions,
                                      const std::string& camera, int width, int height, int msaa,
                                      const std::string& aa, int shadow_map,
                                      std::optional<std::array<float, 3>> background, bool edges, bool shadows,
                                      int physics, const std::string& toon_dir, int fps) {
  // 0 (width, height, fps) and no background: the scene file's view settings, else 1280x720, 30,
  // white (docs/SCENE.md "View"; as `render --scene`).
  if (width != 0 || height != 0)
    if (width < 1 || height < 1 || width > 16384 || height > 16384)
      raise_argument("size must be (width, height) with 1..16384 pixels each");
  if (msaa != -1 && (msaa < 1 || msaa > 64)) raise_argument("msaa must be 1..64 (or None)");
  if (shadow_map != -1 && (shadow_map < 16 || shadow_map > 8192)) raise_argument("shadow_map must be 16..8192 (or None)");
  if (fps != 0 && fps != 30 && fps != 60) raise_argument("fps must be 30 or 60");
  if (background)
    for (float c : *background)
      if (!(c >= 0 && c <= 1)) raise_argument("background must be RGB values in 0..1 (or an 'RRGGBB' string)");
  std::error_code ec;
  if (!toon_dir.empty() && !fs::is_directory(toon_dir, ec))
    raise(Error{ErrorCode::io_error, "toon_dir: folder not found", {}, -1, -1, toon_dir});
  auto s = std::make_unique<Session>();
  // The scene: a scene file (.json, docs/SCENE.md), else MODEL [MOTION...] [camera] as `render`.
  scene::SceneDescription d;
  std::string ext = fs::path(source).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".json") {
    if (!motions.empty() || !camera.empty()) raise_argument("a scene file gives the motions and camera: no motions or camera with it");
    d = unwrap(without_gil([&] { return scene::read_scene_file(source); }));
  } else {
    scene::ModelEntry m;
    m.file = source;
    for (const std::string& p : motions) m.motions.emplace_back(p);
    d.models.push_back(std::move(m));
    d.camera = camera;
    unwrap(scene::check_scene_files(d));
  }
  s->audio = d.audio.string();
  if (width == 0) {
    width = d.view.size ? (*d.view.size)[0] : 1280;
    height = d.view.size ? (*d.view.size)[1] : 720;
  }
  if (fps == 0) fps = d.view.fps.value_or(30);
  s->fps = fps;
  scene::LoadOptions options;
  options.geometry = true;
  auto sc = without_gil([&] { return scene::Scene::load(d, options, s->warnings); });
  s->scene = std::make_unique<scene::Scene>(unwrap(std::move(sc)));
  scene::Scene& scene = *s->scene;
  // Physics as `render`: on when a model has rigid bodies, unless physics=False.
  bool bodies = false;
  for (std::size_t i = 0; i < scene.character_count(); ++i)
    bodies = bodies || !scene.character(i).data().model().rigid_bodies.empty();
  s->physics_on = physics == 1 || (physics < 0 && MMDKIT_HAS_PHYSICS && bodies);
  s->samples_per_frame = fps == 60 ? 2 : 1;
  if (s->physics_on) {
#if MMDKIT_HAS_PHYSICS
    physics::Settings settings;
    settings.steps_per_second = 60;
    s->physics = unwrap(physics::ScenePhysics::create(scene, settings));
#else
    raise_argument("physics=True: this mmdkit was built without the physics layer (MMDKIT_WITH_PHYSICS=OFF)");
#endif
  }
  Session& ss = *s;
  auto ctx = without_gil([&] {
    return ss.gl->run([&]() -> Result<void> {
      auto c = render::Context::create();
      if (!c) return std::unexpected(c.error());
      ss.context = std::make_unique<render::Context>(std::move(*c));
      return {};
    });
  });
  if (!ctx) raise_render(ctx.error());
  render::RenderSettings rs;
  rs.width = width;
  rs.height = height;
  // Anti-aliasing and shadow map as `render` chooses them (renderer.hpp choose_quality).
  if (auto q = render::choose_quality(rs, aa, std::max(msaa, 0), std::max(shadow_map, 0)); !q) raise_argument(q.error().message);
  rs.background = background ? *background : d.view.background.value_or(std::array<float, 3>{1.0f, 1.0f, 1.0f});
  rs.edges = edges;
  rs.ground_shadow = rs.self_shadow = shadows;
  rs.ground_shadow = rs.ground_shadow && d.view.ground_shadow;
  rs.translucent_ground_shadow = d.view.ground_shadow_translucent;
  rs.toon_dir = toon_dir;
  unwrap(without_gil([&] {
    return ss.gl->run([&]() -> Result<void> {
      auto r = render::SceneRenderer::create(*ss.context, scene, rs, ss.warnings);
      if (!r) return std::unexpected(r.error());
      ss.renderer = std::make_unique<render::SceneRenderer>(std::move(*r));
      return {};
    });
  }));
  s->pool = std::make_unique<ThreadPool>(0);
  return s;
}

py::array_t<std::uint8_t> frame_array(Session& s, double frame) {
  py::array_t<std::uint8_t> out({s.renderer->settings().height, s.renderer->settings().width, 4});
  std::uint8_t* dst = out.mutable_data();
  unwrap(without_gil([&] { return s.gl->run([&]() -> Result<void> {
    if (auto r = s.draw(frame); !r) return r;
    s.renderer->read(s.image);
    std::memcpy(dst, s.image.rgba.data(), s.image.rgba.size());
    return {};
  }); }));
  return out;
}

py::bytes frame_png(Session& s, double frame) {
  std::vector<std::uint8_t> bytes;
  unwrap(without_gil([&] { return s.gl->run([&]() -> Result<void> {
    if (auto r = s.draw(frame); !r) return r;
    s.renderer->read(s.image);
    auto png = encode_png(s.image, false);
    if (!png) return std::unexpected(png.error());
    bytes = std::move(*png);
    return {};
  }); }));
  return to_py_bytes(bytes);
}

py::array_t<float> frame_depth(Session& s, double frame) {
  py::array_t<float> out({s.renderer->settings().height, s.renderer->settings().width});
  float* dst = out.mutable_data();
  unwrap(without_gil([&] { return s.gl->run([&]() -> Result<void> {
    if (auto r = s.draw(frame); !r) return r;
    std::vector<float> d;
    if (auto r = s.renderer->read_depth(d); !r) return r;
    std::memcpy(dst, d.data(), d.size() * sizeof(float));
    return {};
  }); }));
  return out;
}

py::array_t<std::uint8_t> frame_mask(Session& s, double frame) {
  py::array_t<std::uint8_t> out({s.renderer->settings().height, s.renderer->settings().width});
  std::uint8_t* dst = out.mutable_data();
  unwrap(without_gil([&] { return s.gl->run([&]() -> Result<void> {
    if (auto r = s.draw(frame); !r) return r;
    std::vector<std::uint8_t> m;
    if (auto r = s.renderer->read_mask(m); !r) return r;
    std::memcpy(dst, m.data(), m.size());
    return {};
  }); }));
  return out;
}

// A video file of frames first, first + step, ... <= last: encoded into a temporary file beside
// the target, renamed onto it at the end (removed on any error), as `mmdkit render` does.
void write_video(Session& s, const std::string& path, const std::string& container, double first, double last,
                 int fps, const std::string& audio, bool force) {
  std::error_code ec;
  if (!force && fs::exists(path, ec)) raise(Error{ErrorCode::io_error, "output exists; pass force=True to replace it", {}, -1, -1, path});
  const int w = s.renderer->settings().width, h = s.renderer->settings().height;
  if (w % 2 || h % 2) raise_argument("a video's size must be even in both directions (yuv420p)");
  if (fps != 30 && fps != 60) raise_argument("fps must be 30 or 60");
  if (!(first >= 0) || !(last >= first)) raise_argument("frames must be first <= last, both >= 0");
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const fs::path tmp = dir / ("." + target.filename().string() + ".tmp" + std::to_string(::getpid()));
  auto r = without_gil([&] { return s.gl->run([&]() -> Result<void> {
    render::VideoSettings vs;
    vs.path = tmp;
    vs.container = container;
    vs.width = w;
    vs.height = h;
    vs.fps = fps;
    vs.audio = audio;
    auto writer = render::VideoWriter::open(vs);
    if (!writer) return std::unexpected(writer.error());
    const double step = fps == 60 ? 0.5 : 1.0;
    const auto count = static_cast<std::uint64_t>(std::floor((last - first) / step + 1e-9)) + 1;
    for (std::uint64_t i = 0; i < count; ++i) {
      if (auto e = s.draw(first + double(i) * step); !e) return e;
      s.renderer->read(s.image);
      if (auto e = writer->write(s.image); !e) return e;
    }
    if (auto e = writer->finish(); !e) return e;
    std::error_code rec;
    fs::rename(tmp, target, rec);
    if (rec) return make_error(ErrorCode::io_error, "cannot rename the temporary file onto it: " + rec.message());
    return {};
  }); });
  if (!r) {
    std::error_code rec;
    fs::remove(tmp, rec);
    Error e = r.error();
    if (e.file.empty()) e.file = path;
    raise(e);
  }
}

// A column-major Mat4 as a (4, 4) float64 NumPy array indexed [row, column].
py::array_t<double> mat4_array(const Mat4& m) {
  py::array_t<double> out({py::ssize_t{4}, py::ssize_t{4}});
  double* o = out.mutable_data();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) o[r * 4 + c] = double(m[static_cast<std::size_t>(c * 4 + r)]);
  return out;
}

// One draw of `frame` read back for synthetic training data (mmdkit.dataset.render): the picture,
// optionally the view-space depth (read_depth: same geometry, no MSAA), and the camera drawn with:
// the world → view matrix (MMD's left-handed view space) and the projection
// (render::projection_matrix at width / height), both (4, 4) [row, column], and whether the camera
// is perspective. One evaluation and one draw, so picture, depth and camera belong together.
py::tuple frame_capture(Session& s, double frame, bool want_depth) {
  const int w = s.renderer->settings().width, h = s.renderer->settings().height;
  py::array_t<std::uint8_t> rgba({py::ssize_t{h}, py::ssize_t{w}, py::ssize_t{4}});
  py::object depth = py::none();
  float* dd = nullptr;
  if (want_depth) {
    py::array_t<float> d({py::ssize_t{h}, py::ssize_t{w}});
    dd = d.mutable_data();
    depth = d;
  }
  std::uint8_t* dst = rgba.mutable_data();
  anim::CameraState camera;
  unwrap(without_gil([&] { return s.gl->run([&]() -> Result<void> {
    if (auto r = s.draw(frame); !r) return r;
    camera = s.scene->camera();
    s.renderer->read(s.image);
    std::memcpy(dst, s.image.rgba.data(), s.image.rgba.size());
    if (dd != nullptr) {
      std::vector<float> d;
      if (auto r = s.renderer->read_depth(d); !r) return r;
      std::memcpy(dd, d.data(), d.size() * sizeof(float));
    }
    return {};
  }); }));
  return py::make_tuple(rgba, depth, mat4_array(camera.view),
                        mat4_array(render::projection_matrix(camera, float(w) / float(h))), camera.perspective);
}

// PNG bytes of an (H, W, 3) or (H, W, 4) uint8 array with the library's encoder (core/image.hpp).
py::bytes array_png(const py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>& a) {
  if (a.ndim() != 3 || (a.shape(2) != 3 && a.shape(2) != 4) || a.shape(0) < 1 || a.shape(1) < 1)
    raise_argument("encode_png: expected an (H, W, 3) or (H, W, 4) uint8 array");
  Image img;
  img.height = static_cast<int>(a.shape(0));
  img.width = static_cast<int>(a.shape(1));
  const auto n = static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height);
  const auto ch = static_cast<std::size_t>(a.shape(2));
  img.rgba.assign(n * 4, 255);
  const std::uint8_t* src = a.data();
  for (std::size_t i = 0; i < n; ++i) std::memcpy(img.rgba.data() + i * 4, src + i * ch, ch);
  const bool alpha = ch == 4;
  std::vector<std::uint8_t> bytes;
  unwrap(without_gil([&]() -> Result<void> {
    auto png = encode_png(img, alpha);
    if (!png) return std::unexpected(png.error());
    bytes = std::move(*png);
    return {};
  }));
  return to_py_bytes(bytes);
}

// An image file's pixels (core/image.hpp decode_image: PNG, JPEG, BMP, ...) as (H, W, 4) uint8
// RGBA, top row first; `name` names it in errors.
py::array_t<std::uint8_t> bytes_image(const py::bytes& data, const std::string& name) {
  const std::string_view b = data;
  const auto* p = reinterpret_cast<const std::uint8_t*>(b.data());
  Image img = unwrap(without_gil([&] { return decode_image(std::span(p, b.size()), name); }));
  py::array_t<std::uint8_t> out({py::ssize_t{img.height}, py::ssize_t{img.width}, py::ssize_t{4}});
  std::memcpy(out.mutable_data(), img.rgba.data(), img.rgba.size());
  return out;
}

}  // namespace

void bind_render(py::module_& m) {
  py::class_<Session>(m, "_Renderer", "The render session behind mmdkit.Renderer (scene_renderer.hpp).")
      .def(py::init(&make_session), py::arg("source"), py::arg("motions"), py::arg("camera"), py::arg("width"),
           py::arg("height"), py::arg("msaa"), py::arg("aa"), py::arg("shadow_map"), py::arg("background"), py::arg("edges"), py::arg("shadows"),
           py::arg("physics"), py::arg("toon_dir"), py::arg("fps"))
      .def_property_readonly("width", [](const Session& s) { return s.renderer->settings().width; })
      .def_property_readonly("height", [](const Session& s) { return s.renderer->settings().height; })
      .def_property_readonly("fps", [](const Session& s) { return s.fps; })
      .def_property_readonly("last_frame", [](const Session& s) { return s.scene->last_frame(); })
      .def_property_readonly("physics", [](const Session& s) { return s.physics_on; })
      .def_property_readonly("audio", [](const Session& s) { return s.audio; })
      .def_property_readonly("warnings", [](const Session& s) { return error_dicts(s.warnings); })
      .def_property_readonly("items",
                             [](const Session& s) {
                               py::list out;
                               for (std::size_t k = 0; k < s.renderer->item_count(); ++k)
                                 out.append(py::str(s.renderer->item_file(k).string()));
                               return out;
                             })
      .def("frame", &frame_array, py::arg("frame"))
      .def("png", &frame_png, py::arg("frame"))
      .def("depth", &frame_depth, py::arg("frame"))
      .def("mask", &frame_mask, py::arg("frame"))
      .def("capture", &frame_capture, py::arg("frame"), py::arg("depth"))
      .def("write_video", &write_video, py::arg("path"), py::arg("container"), py::arg("first"), py::arg("last"),
           py::arg("fps"), py::arg("audio"), py::arg("force"))
      .def_static("context_info", [] {
        auto ctx = without_gil([] { return render::Context::create(); });
        if (!ctx) raise_render(ctx.error());
        const render::ContextInfo& i = ctx->info();
        py::dict d;
        d["platform"] = i.platform;
        d["vendor"] = i.vendor;
        d["renderer"] = i.renderer;
        d["version"] = i.version;
        d["software"] = i.software;
        return d;
      });
  m.def("_encode_png", &array_png, py::arg("pixels"));
  m.def("_decode_image", &bytes_image, py::arg("data"), py::arg("name"));
  // The render farm's join (python/mmdkit/farm.py): segments written by _Renderer.write_video with
  // the same settings, joined by stream copy into `out` (written in place: the caller renames it),
  // `audio` (optional) encoded once over the whole length (render/video.hpp join_video_segments).
  m.def(
      "_join_segments",
      [](const std::vector<std::string>& segments, const std::string& out, const std::string& container, int fps,
         const std::string& audio) {
        std::vector<fs::path> paths(segments.begin(), segments.end());
        render::VideoSettings vs;
        vs.path = out;
        vs.container = container;
        vs.fps = fps;
        vs.audio = audio;
        auto r = without_gil([&] { return render::join_video_segments(paths, vs); });
        if (!r) {
          Error e = r.error();
          if (e.file.empty()) e.file = out;
          raise(e);
        }
      },
      py::arg("segments"), py::arg("out"), py::arg("container"), py::arg("fps"), py::arg("audio"));
  // Decoded frames of a video (tests and the farm's equality measure): (N, H * W * 3 / 2) uint8,
  // each row one frame's yuv420p planes Y, U, V (render/video.hpp decode_video), and (W, H).
  m.def(
      "_decode_video",
      [](const std::string& path) {
        auto r = without_gil([&] { return render::decode_video(path); });
        if (!r) raise(r.error());
        const std::size_t n = r->frames.size(), per = std::size_t(r->width) * std::size_t(r->height) * 3 / 2;
        py::array_t<std::uint8_t> a({n, per});
        for (std::size_t i = 0; i < n; ++i) std::memcpy(a.mutable_data() + i * per, r->frames[i].data(), per);
        return py::make_tuple(a, py::make_tuple(r->width, r->height));
      },
      py::arg("path"));
}

}  // namespace mmdkit::python

#else

namespace mmdkit::python {
void bind_render(py::module_&) {}  // built without the render layer: mmdkit.Renderer raises
}  // namespace mmdkit::python

#endif

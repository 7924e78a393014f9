// mmdkit Python bindings — VMD motions (mmdkit.Motion).
#include <array>

#include "document.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_json.hpp"

namespace mmdkit::python {

template <>
struct FormatFns<vmd::Motion> {
  static constexpr const char* name = "vmd";
  static Result<Document<vmd::Motion>> parse(ByteSpan bytes, std::optional<Encoding> enc, bool strict) {
    auto r = vmd::read(bytes, vmd::ReadOptions{.encoding = enc, .strict = strict});
    if (!r) return std::unexpected(r.error());
    return Document<vmd::Motion>{std::move(r->motion), std::move(r->warnings)};
  }
  static Result<std::vector<std::uint8_t>> write(const vmd::Motion& m) { return vmd::write(m); }
  static std::string to_json(const vmd::Motion& m, bool pretty) {
    return vmd::to_json(m, vmd::JsonWriteOptions{.pretty = pretty});
  }
  static Result<vmd::Motion> from_json(std::string_view text) { return vmd::from_json(text); }
  static const formats::FormatOps& ops() { return formats::vmd_ops(); }
};

namespace {
using Motion = Document<vmd::Motion>;

py::object bone_keys(py::object self) {
  auto& keys = self.cast<Motion&>().data.bone_keys;
  py::dict c;
  c["tracks"] = column(self, keys, &vmd::BoneKey::name);
  c["frames"] = column(self, keys, &vmd::BoneKey::frame);
  c["positions"] = column(self, keys, &vmd::BoneKey::position);
  c["rotations"] = column(self, keys, &vmd::BoneKey::rotation);
  c["interpolation"] = column(self, keys, &vmd::BoneKey::interpolation);
  // Curve c (x, y, z, rotation) = bytes 16c, 16c+4, 16c+8, 16c+12 of the block as (x1, y1, x2, y2)
  // (vmd::decode_bone_interpolation): a strided read-only view (n, 4, 4).
  py::array raw = c["interpolation"];
  py::array curves(py::dtype::of<std::uint8_t>(), {raw.shape(0), py::ssize_t{4}, py::ssize_t{4}},
                   {raw.strides(0), py::ssize_t{16}, py::ssize_t{4}}, static_cast<const std::uint8_t*>(raw.data()),
                   raw);
  curves.attr("flags").attr("writeable") = false;
  c["curves"] = curves;
  return make_table("bone_keys", keys.size(), c);
}

py::object morph_keys(py::object self) {
  auto& keys = self.cast<Motion&>().data.morph_keys;
  py::dict c;
  c["tracks"] = column(self, keys, &vmd::MorphKey::name);
  c["frames"] = column(self, keys, &vmd::MorphKey::frame);
  c["weights"] = column(self, keys, &vmd::MorphKey::weight);
  return make_table("morph_keys", keys.size(), c);
}

py::object camera_keys(py::object self) {
  auto& keys = self.cast<Motion&>().data.camera_keys;
  py::dict c;
  c["frames"] = column(self, keys, &vmd::CameraKey::frame);
  c["distances"] = column(self, keys, &vmd::CameraKey::distance);
  c["targets"] = column(self, keys, &vmd::CameraKey::target);
  c["rotations"] = column(self, keys, &vmd::CameraKey::rotation);
  c["interpolation"] = column(self, keys, &vmd::CameraKey::interpolation);
  c["view_angles"] = column(self, keys, &vmd::CameraKey::view_angle);
  c["perspective"] = column(self, keys, &vmd::CameraKey::perspective);
  return make_table("camera_keys", keys.size(), c);
}

py::object light_keys(py::object self) {
  auto& keys = self.cast<Motion&>().data.light_keys;
  py::dict c;
  c["frames"] = column(self, keys, &vmd::LightKey::frame);
  c["colors"] = column(self, keys, &vmd::LightKey::color);
  c["directions"] = column(self, keys, &vmd::LightKey::direction);
  return make_table("light_keys", keys.size(), c);
}

py::object self_shadow_keys(py::object self) {
  auto& keys = self.cast<Motion&>().data.self_shadow_keys;
  py::dict c;
  c["frames"] = column(self, keys, &vmd::SelfShadowKey::frame);
  c["modes"] = column(self, keys, &vmd::SelfShadowKey::mode);
  c["distances"] = column(self, keys, &vmd::SelfShadowKey::distance);
  return make_table("self_shadow_keys", keys.size(), c);
}

py::list property_keys(const Motion& m) {
  py::list out;
  for (const vmd::PropertyKey& k : m.data.property_keys) {
    py::list ik;
    for (const vmd::IkState& s : k.ik) {
      py::dict d;
      d["name"] = to_py_text(s.name);
      d["name_raw"] = to_py_bytes(s.name.raw);  // the old form (= d["name"].raw)
      d["enabled"] = s.enabled;
      ik.append(d);
    }
    py::dict d;
    d["frame"] = k.frame;
    d["visible"] = k.visible;
    d["ik"] = ik;
    out.append(d);
  }
  return out;
}
}  // namespace

void bind_vmd(py::module_& m) {
  py::class_<Motion> cls(m, "Motion",
                         "A VMD motion. Key columns are NumPy views of the motion's records (writes change "
                         "the motion); frames at 30 fps, positions in MMD units in the bone's parent space, "
                         "rotations quaternions [x, y, z, w] as stored, MMD's left-handed Y-up space.");
  def_document(cls);
  def_text_property(cls, "model_name", [](Motion& mo) -> EncodedText& { return mo.data.model_name; },
                    "Model name (mmdkit.Text: decoded str, .raw = the 10- or 20-byte field as stored, garbage "
                    "after the NUL kept). Setting a different text drops the raw bytes (encoded on write).");
  cls.def(py::init([] { return Motion{}; }), "An empty v2 motion.")
      .def_property_readonly("version", [](const Motion& mo) { return mo.data.version == vmd::Version::v1 ? "v1" : "v2"; },
                             "'v1' (10-byte model name) or 'v2' (20-byte model name).")
      .def_property_readonly("signature", [](py::object self) { return fixed(self, self.cast<Motion&>().data.signature); },
                             "The 30 signature bytes as stored (uint8 view).")
      .def_property_readonly("model_name_raw", [](const Motion& mo) { return to_py_bytes(mo.data.model_name.raw); },
                             "Old form of model_name.raw (the field bytes as stored).")
      .def_property_readonly("encoding", [](const Motion& mo) { return std::string(encoding_name(mo.data.encoding)); },
                             "Text encoding of names: 'cp932' or 'gbk'.")
      .def_property(
          "bone_names", [](const Motion& mo) { return texts(mo.data.bone_names); },
          [](Motion& mo, const std::vector<std::string>& v) { set_texts(mo.data.bone_names, v); },
          "Distinct bone track names (mmdkit.Text: the decoded str, .raw the 15-byte field as stored), "
          "indexed by bone_keys.tracks. Assigning a list of the same length renames tracks (changed "
          "names lose their raw bytes).")
      .def_property_readonly("bone_names_raw", [](const Motion& mo) { return raws(mo.data.bone_names); },
                             "Old form of [n.raw for n in bone_names].")
      .def_property(
          "morph_names", [](const Motion& mo) { return texts(mo.data.morph_names); },
          [](Motion& mo, const std::vector<std::string>& v) { set_texts(mo.data.morph_names, v); },
          "Distinct morph track names (mmdkit.Text), indexed by morph_keys.tracks.")
      .def_property_readonly("morph_names_raw", [](const Motion& mo) { return raws(mo.data.morph_names); },
                             "Old form of [n.raw for n in morph_names].")
      .def_property_readonly("bone_keys", &bone_keys,
                             "Table of bone keyframes in file order: tracks (n,) uint32 index into bone_names, "
                             "frames (n,) uint32, positions (n,3) float32 MMD units, rotations (n,4) float32 "
                             "[x,y,z,w], interpolation (n,64) uint8 raw block, curves (n,4,4) uint8 read-only "
                             "[x,y,z,rotation] x [x1,y1,x2,y2] on the 0..127 grid.")
      .def_property_readonly("morph_keys", &morph_keys,
                             "Table of morph keyframes: tracks (n,) uint32, frames (n,) uint32, weights (n,) float32.")
      .def_property_readonly("camera_keys", &camera_keys,
                             "Table of camera keyframes: frames, distances (n,) float32 MMD units, targets (n,3), "
                             "rotations (n,3) radians as stored, interpolation (n,24) uint8, view_angles (n,) "
                             "uint32 degrees, perspective (n,) uint8 (0 = on).")
      .def_property_readonly("light_keys", &light_keys,
                             "Table of light keyframes: frames, colors (n,3) (UI value / 256), directions (n,3).")
      .def_property_readonly("self_shadow_keys", &self_shadow_keys,
                             "Table of self-shadow keyframes: frames, modes (n,) uint8, distances (n,) float32.")
      .def_property_readonly("property_keys", &property_keys,
                             "Property keyframes as a list of dicts (copies): frame, visible, ik [{name "
                             "(mmdkit.Text), enabled}] (each IK dict also has the old 'name_raw').")
      .def_property_readonly("trailing", [](const Motion& mo) { return to_py_bytes(mo.data.trailing); },
                             "Bytes after the last section that parsed (written back unchanged).")
      .def_property_readonly(
          "frame_range",
          [](const Motion& mo) -> py::object {
            auto r = vmd::frame_range(mo.data);
            if (!r) return py::none();
            return py::make_tuple((*r)[0], (*r)[1]);
          },
          "(first, last) frame over all keys, or None when there are no keys.");
}

}  // namespace mmdkit::python

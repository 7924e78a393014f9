// mmdkit Python bindings — VPD poses (mmdkit.Pose).
#include "document.hpp"
#include "mmdkit/formats/vpd.hpp"
#include "mmdkit/formats/vpd_json.hpp"

namespace mmdkit::python {

template <>
struct FormatFns<vpd::Pose> {
  static constexpr const char* name = "vpd";
  static Result<Document<vpd::Pose>> parse(ByteSpan bytes, std::optional<Encoding> enc, bool /*strict*/) {
    auto r = vpd::read(bytes, vpd::ReadOptions{.encoding = enc});
    if (!r) return std::unexpected(r.error());
    return Document<vpd::Pose>{std::move(*r), {}};
  }
  static Result<std::vector<std::uint8_t>> write(const vpd::Pose& p) { return vpd::write(p); }
  static std::string to_json(const vpd::Pose& p, bool pretty) {
    return vpd::to_json(p, vpd::JsonWriteOptions{.pretty = pretty});
  }
  static Result<vpd::Pose> from_json(std::string_view text) { return vpd::from_json(text); }
  static const formats::FormatOps& ops() { return formats::vpd_ops(); }
};

namespace {
using Pose = Document<vpd::Pose>;

}  // namespace

void bind_vpd(py::module_& m) {
  py::class_<Pose> cls(m, "Pose",
                       "A VPD pose. translations (n,3) float32 MMD units (offset from the bind pose, parent "
                       "space), rotations (n,4) float32 [x,y,z,w] as stored; views of the pose's records. "
                       "Values changed through the views are written in MMD's canonical number form, "
                       "unchanged ones with their stored text.");
  def_document(cls);
  def_text_property(cls, "model_file", [](Pose& p) -> EncodedText& { return p.data.model_file; },
                    "Parent model file name (mmdkit.Text; .raw = the bytes before ';' as stored).");
  cls.def(py::init([] { return Pose{}; }), "An empty pose (CP932, CRLF).")
      .def_property_readonly("encoding", [](const Pose& p) { return std::string(encoding_name(p.data.encoding)); })
      .def_property_readonly("model_file_raw", [](const Pose& p) { return to_py_bytes(p.data.model_file.raw); },
                             "Old form of model_file.raw.")
      .def_property(
          "bone_names", [](const Pose& p) { return names_of(p.data.bones, false); },
          [](Pose& p, const std::vector<std::string>& v) { set_names_of(p.data.bones, v); },
          "Bone names in file order (mmdkit.Text; .raw = the bytes as stored). Assigning a list of the same "
          "length renames.")
      .def_property_readonly("bone_names_raw", [](const Pose& p) { return names_of(p.data.bones, true); },
                             "Old form of [n.raw for n in bone_names].")
      .def_property(
          "morph_names", [](const Pose& p) { return names_of(p.data.morphs, false); },
          [](Pose& p, const std::vector<std::string>& v) { set_names_of(p.data.morphs, v); },
          "Morph names in file order (mmdkit.Text).")
      .def_property_readonly("morph_names_raw", [](const Pose& p) { return names_of(p.data.morphs, true); },
                             "Old form of [n.raw for n in morph_names].")
      .def_property_readonly(
          "bones",
          [](py::object self) {
            auto& b = self.cast<Pose&>().data.bones;
            py::dict c;
            c["translations"] = column(self, b, &vpd::Bone::translation);
            c["rotations"] = column(self, b, &vpd::Bone::rotation);
            return make_table("bones", b.size(), c);
          },
          "Table: translations (n,3) float32, rotations (n,4) float32 [x,y,z,w].")
      .def_property_readonly(
          "morphs",
          [](py::object self) {
            auto& mo = self.cast<Pose&>().data.morphs;
            py::dict c;
            c["weights"] = column(self, mo, &vpd::Morph::weight);
            return make_table("morphs", mo.size(), c);
          },
          "Table: weights (n,) float32.");
}

}  // namespace mmdkit::python

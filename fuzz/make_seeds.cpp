// mmdkit fuzzing — seed corpus maker. Writes OUT/fuzz_<target>/ folders for every fuzz target:
//  - small files from the project's generators (vmd::generate, pmx::generate) and small models and
//    poses built in code (PMD, VPD have no generator), each written with the format's writer;
//  - corpus files of the target's kind no larger than MAX_BYTES (read in place from the corpus
//    folder, copied only into OUT, which is a temporary folder);
//  - for the JSON targets, the to_json text of every binary seed above (pretty and compact).
//
// Usage: mmdkit_fuzz_seeds OUT [CORPUS_DIR [MAX_BYTES]]   (MAX_BYTES default 65536)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/pmd_json.hpp"
#include "mmdkit/formats/pmm.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/pmx_json.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "mmdkit/formats/vmd_json.hpp"
// The PMM tests' small projects (header-only), written with the PMM writer as seeds.
#include "../tests/formats/pmm/fixture.hpp"
#include "mmdkit/formats/vpd.hpp"
#if __has_include("mmdkit/formats/vpd_json.hpp")
#include "mmdkit/formats/vpd_json.hpp"
#define MMDKIT_FUZZ_HAVE_VPD_JSON 1
#endif

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

namespace {

fs::path g_out;
int g_written = 0;

void put(const std::string& target, const std::string& name, const void* data, std::size_t size) {
  fs::path dir = g_out / ("fuzz_" + target);
  fs::create_directories(dir);
  std::ofstream f(dir / name, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!f) {
    std::fprintf(stderr, "mmdkit_fuzz_seeds: cannot write %s\n", (dir / name).c_str());
    std::exit(1);
  }
  ++g_written;
}
void put(const std::string& target, const std::string& name, const Bytes& b) { put(target, name, b.data(), b.size()); }
void put(const std::string& target, const std::string& name, const std::string& s) {
  put(target, name, s.data(), s.size());
}

// Binary seed + its JSON forms, for each format.
void add_vmd(const std::string& name, const Bytes& bytes) {
  put("vmd", name, bytes);
  auto r = mmdkit::vmd::read(bytes);
  if (!r) return;
  put("vmd_json", name + ".json", mmdkit::vmd::to_json(r->motion));
  put("vmd_json", name + ".compact-euler.json", mmdkit::vmd::to_json(r->motion, {.euler = true, .pretty = false}));
}
// Every model seed is a physics seed too (fuzz_physics builds a world from any PMD / PMX).
void add_pmd(const std::string& name, const Bytes& bytes) {
  put("pmd", name, bytes);
  put("physics", name, bytes);
  auto r = mmdkit::pmd::read(bytes);
  if (r) put("pmd_json", name + ".json", mmdkit::pmd::to_json(r->model));
}
void add_pmx(const std::string& name, const Bytes& bytes) {
  put("pmx", name, bytes);
  put("physics", name, bytes);
  auto r = mmdkit::pmx::read(bytes);
  if (r) put("pmx_json", name + ".json", mmdkit::pmx::to_json(r->model));
}
void add_vpd(const std::string& name, const Bytes& bytes) {
  put("vpd", name, bytes);
#ifdef MMDKIT_FUZZ_HAVE_VPD_JSON
  auto r = mmdkit::vpd::read(bytes);
  if (!r) return;
  put("vpd_json", name + ".json", mmdkit::vpd::to_json(*r));
  put("vpd_json", name + ".compact.json", mmdkit::vpd::to_json(*r, {.pretty = false}));
#endif
}

template <class R>
Bytes must(R r, const char* what) {
  if (!r) {
    std::fprintf(stderr, "mmdkit_fuzz_seeds: %s: %s\n", what, r.error().to_string().c_str());
    std::exit(1);
  }
  return std::move(*r);
}

void generated_vmd() {
  using namespace mmdkit::vmd;
  struct Case {
    const char* name;
    GenerateOptions o;
  };
  const Case cases[] = {
      {"gen-all-sections.vmd", {.seed = 1, .bone_keys = 6, .morph_keys = 3, .camera_keys = 2, .light_keys = 2,
                                .self_shadow_keys = 2, .property_keys = 2, .frames = 30}},
      {"gen-v1.vmd", {.seed = 2, .bone_keys = 3, .morph_keys = 2, .frames = 10, .version = Version::v1,
                      .sections_present = 2}},
      {"gen-camera.vmd", {.seed = 3, .bone_keys = 0, .morph_keys = 0, .camera_keys = 4, .light_keys = 1,
                          .frames = 20, .sections_present = 4}},
      {"gen-empty.vmd", {.seed = 4, .bone_keys = 0, .morph_keys = 0, .sections_present = 2}},
      {"gen-shadow.vmd", {.seed = 5, .bone_keys = 1, .morph_keys = 1, .self_shadow_keys = 3, .frames = 5,
                          .sections_present = 5}},
      {"gen-property.vmd", {.seed = 6, .bone_keys = 2, .morph_keys = 0, .property_keys = 3, .frames = 5}},
  };
  for (const Case& c : cases) add_vmd(c.name, must(write(generate(c.o)), c.name));
}

void physics_pmx();

void generated_pmx() {
  using namespace mmdkit::pmx;
  struct Case {
    const char* name;
    GenerateOptions o;
  };
  const Case cases[] = {
      {"gen-2.0-utf16.pmx", {.seed = 1, .vertices = 6, .bones = 0, .morphs = 5, .variant = GenerateVariant::pmx20_utf16}},
      {"gen-2.1-utf8.pmx", {.seed = 2, .vertices = 6, .bones = 0, .morphs = 7, .variant = GenerateVariant::pmx21_utf8}},
      {"gen-2.1-chains.pmx", {.seed = 3, .vertices = 12, .bones = 40, .morphs = 3, .variant = GenerateVariant::pmx21_utf8}},
      {"gen-2.0-novertex.pmx", {.seed = 4, .vertices = 0, .bones = 1, .morphs = 0, .variant = GenerateVariant::pmx20_utf16}},
  };
  for (const Case& c : cases) {
    auto m = generate(c.o);
    if (!m) {
      std::fprintf(stderr, "mmdkit_fuzz_seeds: %s: %s\n", c.name, m.error().to_string().c_str());
      std::exit(1);
    }
    add_pmx(c.name, must(write(*m), c.name));
  }
  physics_pmx();
}

// A physics seed: a 12-bone chain model with a rigid body on every bone (every shape and mode,
// two collision groups) and a joint of every type (PMX 2.1: spring 6DOF, 6DOF, point-to-point,
// cone-twist, slider, hinge) between neighbours, soft limits and springs.
void physics_pmx() {
  using namespace mmdkit::pmx;
  auto m = generate({.seed = 5, .vertices = 3, .bones = 12, .morphs = 0, .variant = GenerateVariant::pmx21_utf8});
  if (!m) std::exit(1);
  m->rigid_bodies.clear();
  m->joints.clear();
  m->soft_bodies.clear();
  const auto nb = static_cast<std::int32_t>(m->bones.size());
  for (std::int32_t b = 0; b < nb; ++b) {
    RigidBody r;
    r.name.assign("body" + std::to_string(b));
    r.bone = b;
    r.group = static_cast<std::uint8_t>(b % 2);
    r.collision_mask = b % 3 == 0 ? 0xFFFF : 0xFFFE;
    r.shape = static_cast<std::uint8_t>(b % 3);
    r.size = {0.4f, 0.8f, 0.4f};
    r.position = m->bones[static_cast<std::size_t>(b)].position;
    r.rotation = {0, 0, 0.3f * static_cast<float>(b)};
    r.mass = 1;
    r.linear_damping = 0.5f;
    r.angular_damping = 0.5f;
    r.mode = static_cast<std::uint8_t>(b == 0 ? 0 : b % 3);
    m->rigid_bodies.push_back(r);
    const std::int32_t parent = m->bones[static_cast<std::size_t>(b)].parent;
    if (parent < 0) continue;
    Joint j;
    j.name.assign("joint" + std::to_string(b));
    j.type = static_cast<std::uint8_t>(b % 6);
    j.rigid_body_a = parent;
    j.rigid_body_b = b;
    j.position = m->bones[static_cast<std::size_t>(b)].position;
    j.linear_lower = {-0.1f, -0.1f, -0.1f};
    j.linear_upper = {0.1f, 0.1f, 0.1f};
    j.angular_lower = {-0.5f, -0.5f, -0.5f};
    j.angular_upper = {0.5f, 0.5f, 0.5f};
    j.angular_spring = {5, 5, 5};
    m->joints.push_back(j);
  }
  add_pmx("physics-chain-2.1.pmx", must(write(*m), "physics seed"));
}

template <std::size_t N>
mmdkit::pmd::FixedText<N> pmd_text(const char* utf8) {
  mmdkit::pmd::FixedText<N> t;
  if (!mmdkit::pmd::set_text(t, utf8, mmdkit::Encoding::cp932)) std::exit(1);
  return t;
}

void built_pmd() {
  using namespace mmdkit::pmd;
  Model empty;
  empty.tail = Tail::none;
  empty.name = pmd_text<kNameSize>("空");
  add_pmd("built-empty.pmd", must(write(empty), "empty pmd"));

  Model m;
  m.name = pmd_text<kNameSize>("テスト");
  m.comment = pmd_text<kCommentSize>("コメント\r\n二行目");
  for (int i = 0; i < 3; ++i) {
    Vertex v;
    v.position = {float(i), 1, 0};
    v.normal = {0, 0, -1};
    v.bones = {0, 1};
    v.weight = 50;
    m.vertices.push_back(v);
  }
  m.indices = {0, 1, 2};
  Material mat;
  mat.diffuse = {1, 1, 1, 1};
  mat.index_count = 3;
  mat.toon_index = 0;
  mat.texture = pmd_text<kTextureNameSize>("a.bmp*b.sph");
  m.materials = {mat};
  Bone b0;
  b0.name = pmd_text<kNameSize>("センター");
  Bone b1;
  b1.name = pmd_text<kNameSize>("左足ＩＫ");
  b1.parent = 0;
  b1.type = 2;
  Bone b2;
  b2.name = pmd_text<kNameSize>("左ひざ");
  b2.parent = 0;
  m.bones = {b0, b1, b2};
  IkChain ik;
  ik.target = 1;
  ik.effector = 2;
  ik.iterations = 40;
  ik.unit_angle = 0.5f;
  ik.links = {2, 0};
  m.ik_chains = {ik};
  Morph base;
  base.name = pmd_text<kNameSize>("base");
  base.type = 0;
  base.offsets = {{0, {0, 1, 0}}, {1, {1, 1, 0}}};
  Morph a;
  a.name = pmd_text<kNameSize>("あ");
  a.type = 3;
  a.offsets = {{1, {0, 0.5f, 0}}};
  m.morphs = {base, a};
  m.morph_display = {1};
  m.bone_frames = {pmd_text<kFrameNameSize>("体\n")};
  m.bone_display = {{1, 1}, {2, 1}};
  English en;
  en.name = pmd_text<kNameSize>("test");
  en.comment = pmd_text<kCommentSize>("comment");
  en.bone_names = {pmd_text<kNameSize>("center"), pmd_text<kNameSize>("leg IK_L"), pmd_text<kNameSize>("knee_L")};
  en.morph_names = {pmd_text<kNameSize>("a")};
  en.frame_names = {pmd_text<kFrameNameSize>("body")};
  m.english = en;
  for (std::size_t i = 0; i < kToonCount; ++i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "toon%02zu.bmp", i + 1);
    m.toon_textures[i] = pmd_text<kToonNameSize>(buf);
  }
  RigidBody rb;
  rb.name = pmd_text<kNameSize>("頭");
  rb.size = {1, 1, 1};
  rb.mass = 1;
  m.rigid_bodies = {rb, rb};
  Joint j;
  j.name = pmd_text<kNameSize>("j");
  j.rigid_a = 0;
  j.rigid_b = 1;
  m.joints = {j};
  m.tail = Tail::joints;
  add_pmd("built-all-sections.pmd", must(write(m), "full pmd"));
  m.english.reset();
  m.rigid_bodies.clear();
  m.joints.clear();
  m.tail = Tail::english;
  add_pmd("built-no-english.pmd", must(write(m), "pmd without english"));
}

void built_vpd() {
  using namespace mmdkit::vpd;
  Pose p;
  p.model_file.text = "初音ミク.osm";
  Bone c;
  c.name.text = "センター";
  c.translation = {-1.5f, 0.25f, 0};
  c.rotation = {0, 0.5f, 0, 0.8660254f};
  Bone h;
  h.name.text = "頭";
  p.bones = {c, h};
  Morph m;
  m.name.text = "まばたき";
  m.weight = 1;
  p.morphs = {m};
  add_vpd("built-crlf.vpd", must(write(p), "vpd crlf"));
  p.line_ending = LineEnding::lf;
  p.morphs.clear();
  add_vpd("built-lf.vpd", must(write(p), "vpd lf"));
  Pose empty;
  add_vpd("built-empty.vpd", must(write(empty), "empty vpd"));
}

// Projects built in code (the tests' fixture, both versions; version 1 with the model counts the
// pmm target reads with, fuzz/roundtrip.cpp pmm_options).
void built_pmm() {
  using mmdkit::pmm::Version;
  for (Version v : {Version::v1, Version::v2})
    for (std::size_t models : {0u, 1u, 2u}) {
      const std::string name = std::string("built-v") + (v == Version::v1 ? "1" : "2") + "-" + std::to_string(models) + ".pmm";
      put("pmm", name, must(mmdkit::pmm::write(mmdkit::pmm::test::sample_document(v, models)), name.c_str()));
    }
}

// Corpus files of the four kinds, read in place; the name keeps the sha256 prefix.
void corpus(const fs::path& dir, std::uint64_t max_bytes) {
  std::ifstream manifest(dir / "MANIFEST.tsv");
  if (!manifest) {
    std::fprintf(stderr, "mmdkit_fuzz_seeds: no %s: generated seeds only\n", (dir / "MANIFEST.tsv").c_str());
    return;
  }
  std::string line;
  int used = 0;
  while (std::getline(manifest, line)) {
    std::vector<std::string> col;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '\t')) col.push_back(c);
    if (col.size() < 7) continue;
    const std::string& kind = col[6];
    if (kind != "vmd" && kind != "pmd" && kind != "pmx" && kind != "vpd" && kind != "x" && kind != "pmm") continue;
    std::uint64_t size = std::strtoull(col[4].c_str(), nullptr, 10);
    if (size > max_bytes) continue;
    auto bytes = mmdkit::read_file(dir / col[0]);
    if (!bytes) continue;
    std::string name = "corpus-" + col[5].substr(0, 12) + "." + kind;
    if (kind == "vmd") add_vmd(name, *bytes);
    if (kind == "pmd") add_pmd(name, *bytes);
    if (kind == "pmx") add_pmx(name, *bytes);
    if (kind == "vpd") add_vpd(name, *bytes);
    if (kind == "x") put("x", name, *bytes);
    if (kind == "pmm") put("pmm", name, *bytes);
    ++used;
  }
  std::fprintf(stderr, "mmdkit_fuzz_seeds: %d corpus files of at most %llu bytes\n", used,
               static_cast<unsigned long long>(max_bytes));
}

// .x and .vac seeds written here: every object the reader knows, a binary body, CP932 names.
void built_x_and_vac() {
  put("x", "built-full.x", std::string(R"(xof 0303txt 0032
template Vector { <3d82ab5e-62da-11cf-ab39-0020af71e433> FLOAT x; FLOAT y; FLOAT z; }
Material Red { 1;0;0;1;; 5; 0.5;0.5;0.5;; 0.1;0;0;; TextureFilename { "red.png*s.sph"; } }
Frame Root {
  FrameTransformMatrix { 1,0,0,0, 0,1,0,0, 0,0,1,0, 0,1,0,1;; }
  Frame Inner {
    Mesh Quad {
      5; 0;0;0;, 1;0;0;, 1;1;0;, 0;1;0;, 0.5;2;0;;
      2; 4;0,3,2,1;, 3;3,4,2;;
      MeshNormals { 2; 0;0;-1;, 0;1;0;; 2; 4;0,0,0,0;, 3;1,1,1;; }
      MeshTextureCoords { 5; 0;1;, 1;1;, 1;0;, 0;0;, 0.5;0;; }
      MeshVertexColors { 2; 0;1;0;0;1;, 4;0;0;1;1;; }
      MeshMaterialList { 2; 2; 0,1;; { Red } Material { 0;1;0;0.5;; 1; 0;0;0;; 0;0;0;; } }
      SkinWeights { "b"; 1; 0; 1.0; 1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1;; }
    }
  }
}
AnimationSet { Animation { { Root } AnimationKey { 0; 1; 0; 4; 1,0,0,0;;; } } }
)"));
  // A binary body: Mesh { 3 vertices; 1 face } as INTEGER_LIST / FLOAT_LIST tokens.
  Bytes b;
  const std::string head = "xof 0303bin 0032";
  b.insert(b.end(), head.begin(), head.end());
  auto u16 = [&](std::uint16_t v) { b.push_back(std::uint8_t(v)), b.push_back(std::uint8_t(v >> 8)); };
  auto u32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i))); };
  auto name = [&](const std::string& n) { u16(1), u32(std::uint32_t(n.size())), b.insert(b.end(), n.begin(), n.end()); };
  name("Mesh");
  u16(10);
  u16(6), u32(1), u32(3);
  u16(7), u32(9);
  for (float f : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    u32(bits);
  }
  u16(6), u32(5), u32(1), u32(3), u32(0), u32(2), u32(1);
  u16(11);
  put("x", "built-binary.x", b);
  put("vac", "built.vac", std::string("\x83\x6C\x83\x4D\r\nnegi.x\r\n1.0\r\n0,1.5,0\r\n0,90,0\r\n\x89\x45\x8E\xE8\x8E\xF1\r\n"));
  put("vac", "built-5-lines.vac", std::string("cube\ncube.x\n10\n1e1,-2,+3\n360,0,-45"));
}

}  // namespace

// Scene files (fuzz_scene): every field once, and the short cases.
void scene_files() {
  put("fuzz_scene", "full.json", std::string(R"({"format": "mmdkit-scene", "version": 1,
 "models": [{"file": "a.pmx", "motions": ["a.vmd", "b.vpd"], "position": [1, 2, 3], "rotation": [0, 90, 0], "scale": 1},
            {"file": "/abs/b.pmd"}],
 "stage": {"file": "stage/s.pmx", "position": [0, -1, 0], "rotation": [0, 0, 0], "scale": 2},
 "accessories": [{"file": "mic.pmx", "model": 1, "bone": "右手首", "position": [0, 1, 0], "rotation": [10, 0, 0], "scale": 2},
                 {"file": "lamp.pmx", "visible": false}],
 "camera": "cam.vmd", "light": {"color": [0.5, 0.25, 1], "direction": [0, -1, 0]}, "audio": "song.wav"})"));
  put("fuzz_scene", "short.json", std::string(R"({"models":[{"file":"a.pmx"}],"stage":"s.pmx","light":"l.vmd"})"));
  put("fuzz_scene", "escape.json", std::string(R"({"models":[{"file":"x/../../a.pmx"}]})"));
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUT [CORPUS_DIR [MAX_BYTES]]\n", argv[0]);
    return 2;
  }
  g_out = argv[1];
  generated_vmd();
  generated_pmx();
  built_pmd();
  built_vpd();
  built_x_and_vac();
  built_pmm();
  scene_files();
  if (argc >= 3) corpus(argv[2], argc >= 4 ? std::strtoull(argv[3], nullptr, 10) : 65536);
  std::fprintf(stderr, "mmdkit_fuzz_seeds: %d seed files in %s\n", g_written, g_out.c_str());
  return 0;
}

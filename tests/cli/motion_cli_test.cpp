// The built `mmdkit` binary on `motion OP`: every operation through the CLI, its result checked
// against values computed here without the motion layer — expected files built from the input's
// records by hand (shift, filter, rename), `mmdkit sample` of input and output (trim, resample,
// reduce, merge, vpd, fit), bytes (mirror twice) — plus exit codes 2 (usage) and 1 (bad input,
// the message naming the file and the place), and the rule that an output never replaces an input
// without --force.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mmdkit/core/file.hpp"
#include "mmdkit/core/text.hpp"
#include "mmdkit/formats/pmx.hpp"
#include "mmdkit/formats/pmx_generate.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "mmdkit/formats/vmd_generate.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace mmdkit {
namespace {

namespace fs = std::filesystem;
using test::Outcome;
using test::quote;

/// One `mmdkit sample --format binary --morphs --camera` output.
struct Sampled {
  std::uint32_t bones = 0, morphs = 0;
  bool camera = false;
  std::vector<std::string> bone_names;
  std::vector<double> frame_numbers;
  /// per frame: bones × 16 matrix floats, then morphs weights, then (camera) 11 floats
  std::vector<std::vector<float>> frames;
  std::size_t stride() const { return std::size_t{bones} * 16 + morphs + (camera ? 11 : 0); }
  /// World position of bone b at frame f.
  std::array<float, 3> position(std::size_t f, std::size_t b) const {
    const float* m = frames[f].data() + b * 16;
    return {m[12], m[13], m[14]};
  }
  std::size_t bone(const std::string& name) const {
    for (std::size_t i = 0; i < bone_names.size(); ++i)
      if (bone_names[i] == name) return i;
    ADD_FAILURE() << "no bone " << name;
    return 0;
  }
};

Sampled parse_sample(const std::string& bytes) {
  Sampled s;
  auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    if (at + 4 <= bytes.size()) std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  if (bytes.size() < 32 || bytes.compare(0, 8, "MMDKSMP1") != 0) {
    ADD_FAILURE() << "not a binary sample output";
    return s;
  }
  const std::uint32_t nf = u32(12);
  s.bones = u32(16);
  s.morphs = u32(20);
  s.camera = (u32(24) & 1u) != 0;
  std::size_t at = 32;
  for (std::uint32_t i = 0; i < s.bones + s.morphs; ++i) {
    const std::uint32_t len = u32(at + 4);
    if (i < s.bones) s.bone_names.push_back(bytes.substr(at + 8, len));
    at += 8 + len;
  }
  for (std::uint32_t f = 0; f < nf; ++f) {
    double fr = 0;
    std::memcpy(&fr, bytes.data() + at, 8);
    at += 8;
    s.frame_numbers.push_back(fr);
    std::vector<float> v(s.stride());
    if (at + v.size() * 4 > bytes.size()) {
      ADD_FAILURE() << "sample output truncated";
      return s;
    }
    std::memcpy(v.data(), bytes.data() + at, v.size() * 4);
    at += v.size() * 4;
    s.frames.push_back(std::move(v));
  }
  return s;
}

/// Largest differences between two samples of the same model: bone matrix entries, morph
/// weights, camera values other than the view angle, and the view angle.
struct Diff {
  float bones = 0, morphs = 0, camera = 0, fov = 0;
};

Diff difference(const Sampled& a, const Sampled& b) {
  Diff d;
  EXPECT_EQ(a.frames.size(), b.frames.size());
  EXPECT_EQ(a.stride(), b.stride());
  if (a.frames.size() != b.frames.size() || a.stride() != b.stride()) return {INFINITY, INFINITY, INFINITY, INFINITY};
  for (std::size_t f = 0; f < a.frames.size(); ++f)
    for (std::size_t i = 0; i < a.stride(); ++i) {
      const float e = std::fabs(a.frames[f][i] - b.frames[f][i]);
      const std::size_t bone_end = std::size_t{a.bones} * 16, morph_end = bone_end + a.morphs;
      if (i < bone_end) d.bones = std::max(d.bones, e);
      else if (i < morph_end) d.morphs = std::max(d.morphs, e);
      else if (i == morph_end + 7) d.fov = std::max(d.fov, e);
      else d.camera = std::max(d.camera, e);
    }
  return d;
}

vmd::TrackName track(const char* utf8) {
  vmd::TrackName n;
  n.raw = *encode_text(utf8, Encoding::cp932);
  n.text = utf8;
  return n;
}

vmd::BoneKey bone_key(std::uint32_t name, std::uint32_t frame, std::array<float, 3> p, std::array<float, 4> q = {0, 0, 0, 1}) {
  vmd::BoneKey k;
  k.name = name;
  k.frame = frame;
  k.position = p;
  k.rotation = q;
  k.interpolation = vmd::encode_bone_interpolation(vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve, vmd::kLinearCurve);
  return k;
}

std::vector<std::uint8_t> bytes_of(const vmd::Motion& m) {
  auto b = vmd::write(m);
  EXPECT_TRUE(b) << (b ? "" : b.error().to_string());
  return b ? *b : std::vector<std::uint8_t>{};
}

vmd::Motion read_vmd(const fs::path& p) {
  auto r = vmd::read_file(p);
  EXPECT_TRUE(r) << p << ": " << (r ? "" : r.error().to_string());
  return r ? r->motion : vmd::Motion{};
}

std::string name_of(const vmd::Motion& m, std::uint32_t i, bool morph = false) {
  return (morph ? m.morph_names : m.bone_names).at(i).text;
}

class MotionCli : public test::CliTest {
 protected:
  MotionCli() : CliTest("motion_cli") {}

  /// run() with every word ending in a file extension made a path in `dir`.
  Outcome go(const std::string& args) const {
    std::string out, word;
    std::istringstream in(args);
    while (in >> word) {
      for (const char* ext : {".pmx", ".pmd", ".vmd", ".vpd", ".json", ".tsv", ".bin"})
        if (word.size() > 4 && word.ends_with(ext) && word.find('/') == std::string::npos) {
          word = quote((dir / word).string());
          break;
        }
      out += (out.empty() ? "" : " ") + word;
    }
    return run(out);
  }
  /// `mmdkit sample MODEL MOTION --frames FRAMES` (binary, morphs, camera), parsed.
  Sampled sample(const std::string& model, const std::string& anim, const std::string& frames, bool ik = true) const {
    Outcome r = go("sample " + model + " " + anim + " --frames " + frames + " --morphs --camera --format binary --force -q -o s.bin" +
                   (ik ? "" : " --no-ik"));
    EXPECT_EQ(r.code, 0) << r.err;
    return parse_sample(test::slurp(dir / "s.bin"));
  }
  static std::string quoted(const fs::path& p) { return quote(p.string()); }

  void SetUp() override {
    pmx::GenerateOptions po;
    po.vertices = 0;
    po.morphs = 8;
    humanoid = *pmx::generate(po);
    ASSERT_TRUE(write_file_atomic(dir / "h.pmx", *pmx::write(humanoid)).has_value());
    vmd::GenerateOptions o;
    o.seed = 7;
    o.frames = 120;
    o.bone_keys = 400;
    o.morph_keys = 60;
    o.camera_keys = 12;
    o.light_keys = 6;
    o.self_shadow_keys = 4;
    o.property_keys = 5;
    motion = vmd::generate(o);
    file("g.vmd", bytes_of(motion));
  }

  pmx::Model humanoid;
  vmd::Motion motion;
};

// shift: every key's frame + N, nothing else changed (the expected file is the input's records
// with the frames moved, written by the VMD writer); the shifted motion evaluates at f + N as the
// input at f, bit for bit.
TEST_F(MotionCli, ShiftMovesEveryKeyByN) {
  Outcome r = go("motion shift g.vmd --by 7 -o s.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  vmd::Motion want = motion;
  // The summary line (stderr, as every writing command's): what was written, its size.
  const std::size_t keys = want.bone_keys.size() + want.morph_keys.size() + want.camera_keys.size() +
                           want.light_keys.size() + want.self_shadow_keys.size() + want.property_keys.size();
  EXPECT_EQ(r.err, "mmdkit motion shift: wrote " + (dir / "s.vmd").string() + " (by 7: " + std::to_string(keys) + " keys, " +
                       std::to_string(fs::file_size(dir / "s.vmd")) + " bytes)\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(go("motion shift g.vmd --by 7 --force -q -o s.vmd").err, "");
  for (auto& k : want.bone_keys) k.frame += 7;
  for (auto& k : want.morph_keys) k.frame += 7;
  for (auto& k : want.camera_keys) k.frame += 7;
  for (auto& k : want.light_keys) k.frame += 7;
  for (auto& k : want.self_shadow_keys) k.frame += 7;
  for (auto& k : want.property_keys) k.frame += 7;
  EXPECT_TRUE(test::slurp(dir / "s.vmd") == std::string(reinterpret_cast<const char*>(bytes_of(want).data()), bytes_of(want).size()));
  const Diff d = difference(sample("h.pmx", "g.vmd", "0-120"), sample("h.pmx", "s.vmd", "7-127"));
  EXPECT_EQ(d.bones, 0.0f);
  EXPECT_EQ(d.morphs, 0.0f);
  EXPECT_EQ(d.camera, 0.0f);

  // A negative shift that puts keys before frame 0 is refused, naming the section, record, frame.
  r = go("motion shift g.vmd --by -5 -o n.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("g.vmd"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("record"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("frame -5"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "n.vmd"));
  // --clamp: frame 0 of the output is frame 5 of the input (whole frames, IK off).
  r = go("motion shift g.vmd --by -5 --clamp -o c.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& k : read_vmd(dir / "c.vmd").bone_keys) EXPECT_LE(k.frame, 115u);
  const Diff c = difference(sample("h.pmx", "g.vmd", "5-120", false), sample("h.pmx", "c.vmd", "0-115", false));
  EXPECT_LT(c.morphs, 1e-6f);
}

// trim --exact: keys only inside A..B, every track keyed at A and B, and every whole frame inside
// evaluates as the input's (bones with IK, morph weights, camera) within 1e-5; without --exact
// the whole frames stay within the change trim reports.
TEST_F(MotionCli, TrimKeepsTheRangeAndItsValues) {
  Outcome r = go("motion trim g.vmd --frames 30-90 --exact -o t.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  const vmd::Motion t = read_vmd(dir / "t.vmd");
  std::map<std::string, std::set<std::uint32_t>> bone_frames, morph_frames;
  for (const auto& k : t.bone_keys) {
    EXPECT_TRUE(k.frame >= 30 && k.frame <= 90) << k.frame;
    bone_frames[name_of(t, k.name)].insert(k.frame);
  }
  for (const auto& k : t.morph_keys) {
    EXPECT_TRUE(k.frame >= 30 && k.frame <= 90) << k.frame;
    morph_frames[name_of(t, k.name, true)].insert(k.frame);
  }
  std::set<std::string> in_bones, in_morphs;
  for (const auto& k : motion.bone_keys) in_bones.insert(name_of(motion, k.name));
  for (const auto& k : motion.morph_keys) in_morphs.insert(name_of(motion, k.name, true));
  EXPECT_EQ(bone_frames.size(), in_bones.size());
  EXPECT_EQ(morph_frames.size(), in_morphs.size());
  for (const auto& [n, f] : bone_frames) EXPECT_TRUE(f.count(30) && f.count(90)) << n;
  for (const auto& [n, f] : morph_frames) EXPECT_TRUE(f.count(30) && f.count(90)) << n;
  for (const auto* sec : {&t.camera_keys}) {
    std::set<std::uint32_t> f;
    for (const auto& k : *sec) f.insert(k.frame);
    EXPECT_TRUE(f.count(30) && f.count(90) && *f.begin() == 30 && *f.rbegin() == 90);
  }
  auto ends = [](const auto& keys) {
    std::set<std::uint32_t> f;
    for (const auto& k : keys) f.insert(k.frame);
    return !f.empty() && *f.begin() == 30 && *f.rbegin() == 90;
  };
  EXPECT_TRUE(ends(t.light_keys));
  EXPECT_TRUE(ends(t.self_shadow_keys));
  EXPECT_TRUE(ends(t.property_keys));

  const Sampled a = sample("h.pmx", "g.vmd", "30-90"), b = sample("h.pmx", "t.vmd", "30-90");
  const Diff d = difference(a, b);
  EXPECT_LT(d.bones, 1e-5f);
  EXPECT_LT(d.morphs, 1e-5f);
  EXPECT_LT(d.camera, 1e-4f);  // camera distances reach tens of units
  EXPECT_LE(d.fov, 0.5f);      // the view angle is a whole degree in the file

  // Without --exact: the whole frames within the change reported in the summary line.
  r = go("motion trim g.vmd --frames 30-90 -o t2.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.starts_with("mmdkit motion trim: wrote " + (dir / "t2.vmd").string() + " (frames 30-90: keys "))
      << r.err;
  // The split curves' error is said to be a weight between whole frames (a fresh user read the old
  // "max curve error" as an error of the result).
  EXPECT_NE(r.err.find(" curves split, quantised within "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" (weight, between whole frames); max change inside: "), std::string::npos) << r.err;
  const auto at = r.err.find("whole frames: ");
  ASSERT_NE(at, std::string::npos) << r.err;
  const double reported = std::stod(r.err.substr(at + 14));
  const Sampled c = sample("h.pmx", "t2.vmd", "30-90", false), a2 = sample("h.pmx", "g.vmd", "30-90", false);
  // positions of bones whose parents are unkeyed root bones move by the translation change alone
  EXPECT_LT(difference(a2, c).morphs, 1e-5f);
  const std::size_t center = a2.bone("センター");
  float worst = 0;
  for (std::size_t f = 0; f < a2.frames.size(); ++f)
    for (int i = 0; i < 3; ++i) worst = std::max(worst, std::fabs(a2.position(f, center)[i] - c.position(f, center)[i]));
  EXPECT_LE(worst, reported + 1e-5) << r.err;
}

// trim of a range after the last key: the output holds the last pose, and a note says so (as
// `sample --frames` past the end); -q silences it; a range overlapping the end gets none.
TEST_F(MotionCli, TrimAfterTheLastKeyNotesIt) {
  std::uint32_t last = 0;
  for (const auto& k : motion.bone_keys) last = std::max(last, k.frame);
  for (const auto& k : motion.morph_keys) last = std::max(last, k.frame);
  for (const auto& k : motion.camera_keys) last = std::max(last, k.frame);
  for (const auto& k : motion.light_keys) last = std::max(last, k.frame);
  for (const auto& k : motion.self_shadow_keys) last = std::max(last, k.frame);
  for (const auto& k : motion.property_keys) last = std::max(last, k.frame);
  const std::string range = std::to_string(last + 10) + "-" + std::to_string(last + 20);
  Outcome r = go("motion trim g.vmd --frames " + range + " -o late.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string l = std::to_string(last);
  EXPECT_TRUE(r.err.starts_with("mmdkit: note: --frames " + range + " starts after the motion's last key (frame " + l +
                                "): the result holds the pose of frame " + l + "\nmmdkit motion trim: wrote "))
      << r.err;
  EXPECT_EQ(go("motion trim g.vmd --frames " + range + " --force -q -o late.vmd").err, "");
  r = go("motion trim g.vmd --frames " + std::to_string(last) + "-" + std::to_string(last + 20) + " -o end.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.starts_with("mmdkit motion trim: wrote ")) << r.err;
  // The held pose: the late range evaluates as the last key's frame.
  const Diff d = difference(sample("h.pmx", "g.vmd", l + "-" + l), sample("h.pmx", "late.vmd", std::to_string(last + 15) + "-" + std::to_string(last + 15)));
  EXPECT_LT(d.bones, 1e-5f);
  EXPECT_LT(d.morphs, 1e-5f);
}

// mirror twice gives the input's bytes back (generated motion with every section, and every VMD
// of the corpus).
TEST_F(MotionCli, MirrorTwiceIsTheInput) {
  ASSERT_EQ(go("motion mirror g.vmd -o m1.vmd").code, 0);
  ASSERT_EQ(go("motion mirror m1.vmd -o m2.vmd").code, 0);
  EXPECT_NE(test::slurp(dir / "m1.vmd"), test::slurp(dir / "g.vmd"));
  EXPECT_TRUE(test::slurp(dir / "m2.vmd") == test::slurp(dir / "g.vmd"));
  // One hand-made key: 左腕 at (1,2,3) rotated (0.1,0.2,0.3,w) becomes 右腕 at (-1,2,3), (0.1,-0.2,-0.3,w).
  vmd::Motion m;
  m.bone_names = {track("左腕")};
  m.bone_keys = {bone_key(0, 4, {1, 2, 3}, {0.1f, 0.2f, 0.3f, 0.927362f})};
  file("arm.vmd", bytes_of(m));
  ASSERT_EQ(go("motion mirror arm.vmd -o arm_m.vmd").code, 0);
  const vmd::Motion o = read_vmd(dir / "arm_m.vmd");
  ASSERT_EQ(o.bone_keys.size(), 1u);
  EXPECT_EQ(name_of(o, o.bone_keys[0].name), "右腕");
  EXPECT_EQ(o.bone_keys[0].position, (std::array<float, 3>{-1, 2, 3}));
  EXPECT_EQ(o.bone_keys[0].rotation, (std::array<float, 4>{0.1f, -0.2f, -0.3f, 0.927362f}));
  if (!test::corpus_dir()) return;
  for (const auto& f : test::corpus_files("vmd")) {
    if (!vmd::read_file(f.path)) {  // a file the reader refuses (result.vmd's count is corrupt): exit 1
      EXPECT_EQ(go("motion mirror " + quoted(f.path) + " --force -o c1.vmd").code, 1) << f.local_path;
      continue;
    }
    ASSERT_EQ(go("motion mirror " + quoted(f.path) + " --force -o c1.vmd").code, 0) << f.local_path;
    ASSERT_EQ(go("motion mirror c1.vmd --force -o c2.vmd").code, 0) << f.local_path;
    EXPECT_TRUE(test::slurp(dir / "c2.vmd") == test::slurp(f.path)) << f.local_path;
  }
}

// merge: per track; where both key the same frame B's key wins; evaluated at that frame the
// model takes B's value.
TEST_F(MotionCli, MergeBWinsAtEqualFrames) {
  vmd::Motion a, b;
  a.bone_names = {track("センター")};
  a.morph_names = {track("あ")};
  a.bone_keys = {bone_key(0, 0, {1, 0, 0}), bone_key(0, 10, {2, 0, 0})};
  a.morph_keys = {vmd::MorphKey{0, 0, 0.25f}, vmd::MorphKey{0, 20, 0.75f}};
  b.bone_names = {track("上半身"), track("センター")};
  b.morph_names = {track("あ")};
  b.bone_keys = {bone_key(0, 0, {0, 0, 0}, {0, 0.6f, 0, 0.8f}), bone_key(1, 10, {5, 0, 0}), bone_key(1, 20, {6, 0, 0})};
  b.morph_keys = {vmd::MorphKey{0, 0, 1.0f}};
  vmd::CameraKey ca, cb;
  ca.frame = 0;
  ca.distance = -10;
  cb.frame = 0;
  cb.distance = -40;
  a.camera_keys = {ca};
  b.camera_keys = {cb};
  file("a.vmd", bytes_of(a));
  file("b.vmd", bytes_of(b));
  Outcome r = go("motion merge a.vmd b.vmd -o ab.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("3 of A replaced"), std::string::npos) << r.err;  // センター@10, あ@0, camera@0
  const vmd::Motion o = read_vmd(dir / "ab.vmd");
  std::map<std::pair<std::string, std::uint32_t>, float> bx;
  for (const auto& k : o.bone_keys) bx[{name_of(o, k.name), k.frame}] = k.position[0];
  EXPECT_EQ(bx.size(), 4u);
  EXPECT_EQ(o.bone_keys.size(), 4u);
  EXPECT_EQ((bx[{"センター", 0}]), 1.0f);
  EXPECT_EQ((bx[{"センター", 10}]), 5.0f);
  EXPECT_EQ((bx[{"センター", 20}]), 6.0f);
  EXPECT_TRUE(bx.count({"上半身", 0}));
  ASSERT_EQ(o.morph_keys.size(), 2u);
  for (const auto& k : o.morph_keys) EXPECT_EQ(k.weight, k.frame == 0 ? 1.0f : 0.75f);
  ASSERT_EQ(o.camera_keys.size(), 1u);
  EXPECT_EQ(o.camera_keys[0].distance, -40.0f);
  // Evaluated: センター at frame 10 is 5 units right of its rest place (B's key).
  const Sampled rest = sample("h.pmx", "", "10"), s = sample("h.pmx", "ab.vmd", "10");
  const std::size_t c = rest.bone("センター");
  EXPECT_NEAR(s.position(0, c)[0] - rest.position(0, c)[0], 5.0f, 1e-5);
}

// rename with a map: the listed names change, everything else is the input's (expected file built
// by renaming the input's name tables here); map errors name the map file and line.
TEST_F(MotionCli, RenameWithAMap) {
  file("map.tsv", "\xEF\xBB\xBF# bones\nセンター\tセンター2\n\n上半身\tUpper\nno_such_bone\tx\n");
  Outcome r = go("motion rename g.vmd --map map.tsv -o r.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("no_such_bone"), std::string::npos) << r.err;  // matched nothing: a warning
  vmd::Motion want = motion;
  int renamed = 0;
  for (auto& n : want.bone_names) {
    if (n.text == "センター") n.assign("センター2"), ++renamed;
    else if (n.text == "上半身") n.assign("Upper"), ++renamed;
  }
  ASSERT_EQ(renamed, 2);
  const vmd::Motion got = read_vmd(dir / "r.vmd");
  ASSERT_EQ(got.bone_names.size(), want.bone_names.size());
  for (std::size_t i = 0; i < got.bone_names.size(); ++i) EXPECT_EQ(got.bone_names[i].text, want.bone_names[i].text);
  // Only the names differ: the rest of the file is the input's.
  EXPECT_TRUE(test::slurp(dir / "r.vmd") == std::string(reinterpret_cast<const char*>(bytes_of(want).data()), bytes_of(want).size()));

  file("bad.tsv", "# ok\nセンター\tA\nno tab here\n");
  r = go("motion rename g.vmd --map bad.tsv -o r2.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("bad.tsv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 3"), std::string::npos) << r.err;
  file("long.tsv", "センター\tABCDEFGHIJKLMNOP\n");  // 16 bytes: longer than the 15-byte field
  r = go("motion rename g.vmd --map long.tsv -o r2.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("long.tsv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 1"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "r2.vmd"));
}

// rename onto a name the motion already has would make two tracks one (their keys merged on
// evaluation): refused, naming both names and the map line, nothing written; a swap keeps
// working (the expected file: the input with the two names exchanged); --merge merges.
TEST_F(MotionCli, RenameOntoAnExistingTrackIsRefused) {
  file("onto.tsv", "# bones\nセンター\t上半身\n");
  Outcome r = go("motion rename g.vmd --map onto.tsv -o r.vmd");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find((dir / "onto.tsv").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 2: 'センター' -> '上半身': the motion already has a bone track '上半身'"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("wrote"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "r.vmd"));

  file("two.tsv", "センター\tX\n上半身\tX\n");  // two names onto one new name
  r = go("motion rename g.vmd --map two.tsv -o r.vmd");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("line 2: '上半身' -> 'X': line 1 renames bone track 'センター' to 'X' too"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "r.vmd"));

  file("swap.tsv", "センター\t上半身\n上半身\tセンター\n");
  r = go("motion rename g.vmd --map swap.tsv -o r.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("2 bone, 0 morph and 0 IK names renamed"), std::string::npos) << r.err;
  vmd::Motion want = motion;
  int swapped = 0;
  for (auto& n : want.bone_names) {
    if (n.text == "センター") n.assign("上半身"), ++swapped;
    else if (n.text == "上半身") n.assign("センター"), ++swapped;
  }
  ASSERT_EQ(swapped, 2);
  EXPECT_TRUE(test::slurp(dir / "r.vmd") ==
              std::string(reinterpret_cast<const char*>(bytes_of(want).data()), bytes_of(want).size()));

  r = go("motion rename g.vmd --map onto.tsv --merge -o m.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("note: " + (dir / "onto.tsv").string() + ": bone track 'センター' merged into '上半身' (line 2)"),
            std::string::npos)
      << r.err;
  const vmd::Motion merged = read_vmd(dir / "m.vmd");
  std::size_t upper_keys = 0, want_keys = 0;
  for (const auto& k : merged.bone_keys) upper_keys += merged.bone_names[k.name].text == "上半身";
  for (const auto& k : motion.bone_keys)
    want_keys += motion.bone_names[k.name].text == "上半身" || motion.bone_names[k.name].text == "センター";
  EXPECT_EQ(upper_keys, want_keys);
}

// filter: the kept tracks' keys are the input's keys of those tracks, in file order; dropped
// sections are empty, the others untouched.
TEST_F(MotionCli, FilterKeepsAndDrops) {
  Outcome r = go("motion filter g.vmd --bones センター,上半身,nothing --no-camera --no-light -o f.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("nothing"), std::string::npos) << r.err;
  const vmd::Motion f = read_vmd(dir / "f.vmd");
  std::vector<std::tuple<std::string, std::uint32_t, std::array<float, 3>, std::array<float, 4>>> want, got;
  for (const auto& k : motion.bone_keys)
    if (name_of(motion, k.name) == "センター" || name_of(motion, k.name) == "上半身")
      want.emplace_back(name_of(motion, k.name), k.frame, k.position, k.rotation);
  for (const auto& k : f.bone_keys) got.emplace_back(name_of(f, k.name), k.frame, k.position, k.rotation);
  EXPECT_FALSE(want.empty());
  EXPECT_EQ(got, want);
  EXPECT_EQ(f.morph_keys.size(), motion.morph_keys.size());
  EXPECT_TRUE(f.camera_keys.empty());
  EXPECT_TRUE(f.light_keys.empty());
  EXPECT_EQ(f.self_shadow_keys.size(), motion.self_shadow_keys.size());
  EXPECT_EQ(f.property_keys.size(), motion.property_keys.size());

  const std::string morph = motion.morph_names.at(motion.morph_keys.at(0).name).text;
  ASSERT_EQ(go("motion filter g.vmd --drop-morphs " + quote(morph) + " --no-property -o d.vmd").code, 0);
  const vmd::Motion d = read_vmd(dir / "d.vmd");
  std::size_t left = 0;
  for (const auto& k : motion.morph_keys) left += name_of(motion, k.name, true) != morph;
  EXPECT_EQ(d.morph_keys.size(), left);
  for (const auto& k : d.morph_keys) EXPECT_NE(name_of(d, k.name, true), morph);
  EXPECT_EQ(d.bone_keys.size(), motion.bone_keys.size());
  EXPECT_TRUE(d.property_keys.empty());
}

// vpd both ways: frame 23.5 of the motion → VPD → a one-key VMD on frame 0 poses the model as the
// motion did at 23.5; a VPD → VMD puts every key on --frame.
TEST_F(MotionCli, VpdBothWays) {
  // A pose has no IK switches: the motion's property keys (IK off at times) are dropped first.
  ASSERT_EQ(go("motion filter g.vmd --no-property -o np.vmd").code, 0);
  Outcome r = go("motion vpd np.vmd --model h.pmx --frame 23.5 -o p.vpd");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(test::slurp(dir / "p.vpd").starts_with("Vocaloid Pose Data file"));
  r = go("motion vpd p.vpd --frame 0 -o p.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  Sampled a = sample("h.pmx", "np.vmd", "23.5"), b = sample("h.pmx", "p.vmd", "0");
  // the camera is not in a pose: compare bones and morphs only
  a.camera = b.camera = false;
  for (auto* s : {&a, &b})
    for (auto& f : s->frames) f.resize(s->stride());
  const Diff d = difference(a, b);
  EXPECT_LT(d.bones, 1e-4f);
  EXPECT_LT(d.morphs, 1e-6f);
  // The sample of a VPD directly equals the one-key VMD.
  EXPECT_EQ(difference(sample("h.pmx", "p.vpd", "0"), sample("h.pmx", "p.vmd", "0")).bones, 0.0f);
  ASSERT_EQ(go("motion vpd p.vpd --frame 12 -o p12.vmd").code, 0);
  const vmd::Motion m12 = read_vmd(dir / "p12.vmd");
  EXPECT_FALSE(m12.bone_keys.empty());
  for (const auto& k : m12.bone_keys) EXPECT_EQ(k.frame, 12u);
  for (const auto& k : m12.morph_keys) EXPECT_EQ(k.frame, 12u);
  // usage: a VMD needs --model; a VPD takes no --model and a whole --frame
  EXPECT_EQ(go("motion vpd g.vmd -o x.vpd").code, 2);
  EXPECT_EQ(go("motion vpd p.vpd --model h.pmx -o x.vmd").code, 2);
  EXPECT_EQ(go("motion vpd p.vpd --frame 2.5 -o x.vmd").code, 2);
  EXPECT_EQ(go("motion vpd g.vmd --model h.pmx --frame -1 -o x.vpd").code, 2);
  EXPECT_FALSE(fs::exists(dir / "x.vmd") || fs::exists(dir / "x.vpd"));
}

// resample (30 fps, every frame): a key on every frame of each bone track's span, and every whole
// frame evaluates as the input (IK off) within 1e-5.
TEST_F(MotionCli, ResampleBakesEveryFrame) {
  ASSERT_EQ(go("motion resample g.vmd -o rs.vmd").code, 0);
  const vmd::Motion o = read_vmd(dir / "rs.vmd");
  std::map<std::string, std::set<std::uint32_t>> in, out;
  for (const auto& k : motion.bone_keys) in[name_of(motion, k.name)].insert(k.frame);
  for (const auto& k : o.bone_keys) out[name_of(o, k.name)].insert(k.frame);
  ASSERT_EQ(in.size(), out.size());
  for (const auto& [n, f] : in) {
    const auto& g = out[n];
    EXPECT_EQ(g.size(), std::size_t{*f.rbegin() - *f.begin() + 1}) << n;
    EXPECT_EQ(*g.begin(), *f.begin());
    EXPECT_EQ(*g.rbegin(), *f.rbegin());
  }
  const Diff d = difference(sample("h.pmx", "g.vmd", "0-120", false), sample("h.pmx", "rs.vmd", "0-120", false));
  EXPECT_LT(d.bones, 1e-5f);
  EXPECT_LT(d.morphs, 1e-5f);
  EXPECT_LE(d.fov, 0.5f);
  // --fps 60: output frame g is input frame 2g.
  ASSERT_EQ(go("motion resample g.vmd --fps 60 -o r60.vmd").code, 0);
  const Sampled x = sample("h.pmx", "g.vmd", "0-120:2", false), y = sample("h.pmx", "r60.vmd", "0-60", false);
  const Diff e = difference(x, y);
  EXPECT_LT(e.bones, 1e-5f);
  EXPECT_LT(e.morphs, 1e-5f);
}

// reduce: one bone track (センター, whose parent chain is unkeyed, so its world translation and
// rotation are its key pose) baked on every frame comes back with fewer keys, every whole frame
// within the tolerances.
TEST_F(MotionCli, ReduceWithinTolerances) {
  ASSERT_EQ(go("motion filter g.vmd --bones センター --morphs あ --no-camera --no-light --no-self-shadow --no-property -o c.vmd").code, 0);
  ASSERT_EQ(go("motion resample c.vmd -o cb.vmd").code, 0);
  Outcome r = go("motion reduce cb.vmd --tol-units 0.02 --tol-deg 0.2 -o cr.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  const vmd::Motion baked = read_vmd(dir / "cb.vmd"), red = read_vmd(dir / "cr.vmd");
  EXPECT_LT(red.bone_keys.size() * 2, baked.bone_keys.size()) << r.out;
  const Sampled a = sample("h.pmx", "cb.vmd", "0-120", false), b = sample("h.pmx", "cr.vmd", "0-120", false);
  const std::size_t c = a.bone("センター");
  float dt = 0, dr = 0;
  for (std::size_t f = 0; f < a.frames.size(); ++f) {
    const float* m = a.frames[f].data() + c * 16;
    const float* n = b.frames[f].data() + c * 16;
    float d2 = 0, tr = 0;
    for (int i = 0; i < 3; ++i) d2 += (m[12 + i] - n[12 + i]) * (m[12 + i] - n[12 + i]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) tr += m[i * 4 + j] * n[i * 4 + j];  // trace(Mᵀ N) = 1 + 2 cos(angle)
    dt = std::max(dt, std::sqrt(d2));
    dr = std::max(dr, static_cast<float>(std::acos(std::clamp((double(tr) - 1.0) / 2.0, -1.0, 1.0)) * 180.0 / 3.14159265358979));
  }
  EXPECT_LE(dt, 0.02f + 1e-5f) << r.out;
  EXPECT_LE(dr, 0.2f + 0.01f) << r.out;  // acos near 1 loses about 0.005° in float
  EXPECT_GT(dt + dr, 0.0f);               // it did drop keys that mattered a little
  EXPECT_LT(difference(a, b).morphs, 0.005f + 1e-6f);
}

// fit: onto the generated humanoid scaled by 1.25 every bone poses at 1.25 times its place on the
// source (root, leg IK and rotation keys); from miku_v2 to mei the reported leg ratios are the
// models' ankle-to-leg distances, and the センター keys are scaled by them.
TEST_F(MotionCli, FitToAnotherModel) {
  pmx::Model big = humanoid;
  for (auto& b : big.bones) {
    for (float& c : b.position) c *= 1.25f;
    for (float& c : b.tail_offset) c *= 1.25f;
  }
  ASSERT_TRUE(write_file_atomic(dir / "big.pmx", *pmx::write(big)).has_value());
  vmd::Motion m;
  m.bone_names = {track("センター"), track("左足ＩＫ"), track("上半身"), track("左腕"), track("右足ＩＫ")};
  m.bone_keys = {bone_key(0, 0, {1, -2, 0.5f}),  bone_key(0, 20, {-1, -1, 2}),
                 bone_key(1, 0, {0.3f, 1, -0.4f}), bone_key(1, 20, {0.6f, 0.5f, 1}),
                 bone_key(2, 0, {0, 0, 0}, {0.1f, 0.2f, 0, 0.974679f}), bone_key(3, 10, {0, 0, 0}, {0, 0, 0.3f, 0.953939f}),
                 bone_key(4, 5, {-0.2f, 0, 0.3f})};
  file("fm.vmd", bytes_of(m));
  Outcome r = go("motion fit fm.vmd --from h.pmx --to big.pmx -o fb.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("leg ratio xz 1.25, y 1.25"), std::string::npos) << r.err;
  const Sampled a = sample("h.pmx", "fm.vmd", "0-20"), b = sample("big.pmx", "fb.vmd", "0-20");
  ASSERT_EQ(a.frames.size(), b.frames.size());
  float worst = 0;
  for (std::size_t f = 0; f < a.frames.size(); ++f)
    for (std::size_t i = 0; i < a.bones; ++i)
      for (int k = 0; k < 3; ++k) worst = std::max(worst, std::fabs(b.position(f, i)[k] - 1.25f * a.position(f, i)[k]));
  EXPECT_LT(worst, 2e-4f);

  MMDKIT_REQUIRE_CORPUS();
  const auto miku = test::corpus_file("jomin398__jomin398.github.io/docs/assets/models/mmd/miku_v2/miku_v2.pmd");
  const auto mei = test::corpus_file("mmdagent__mmdagent-mirror/MMDAgent_Example/Model/mei/mei.pmd");
  const auto wave = test::corpus_file("moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
  if (!miku || !mei || !wave) GTEST_SKIP() << "miku_v2, mei or wavefile_v2 not in the corpus";
  r = go("motion fit " + quoted(wave->path) + " --from " + quoted(miku->path) + " --to " + quoted(mei->path) + " -o w.vmd");
  ASSERT_EQ(r.code, 0) << r.err;
  // The ratios from the rest poses (sample without a motion).
  auto leg = [&](const fs::path& model) {
    const Sampled s = sample(quoted(model), "", "0", false);  // IK off: MMD's knee limit bends a rest knee 0.5°
    const auto l = s.position(0, s.bone("左足")), k = s.position(0, s.bone("左足首"));
    const double dx = static_cast<double>(k[0] - l[0]), dy = static_cast<double>(k[1] - l[1]);
    const double dz = static_cast<double>(k[2] - l[2]);
    return std::array<double, 2>{std::sqrt(dx * dx + dy * dy + dz * dz), dy};
  };
  const auto lf = leg(miku->path), lt = leg(mei->path);
  const double xz = lt[0] / lf[0], y = lt[1] / lf[1];
  const auto at = r.err.find("leg ratio xz ");
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_NEAR(std::stod(r.err.substr(at + 13)), xz, 1e-5) << r.err;
  EXPECT_NEAR(std::stod(r.err.substr(r.err.find(", y ", at) + 4)), y, 1e-5) << r.err;
  const vmd::Motion in = read_vmd(wave->path), out = read_vmd(dir / "w.vmd");
  ASSERT_EQ(in.bone_keys.size(), out.bone_keys.size());
  std::size_t centre = 0;
  for (std::size_t i = 0; i < in.bone_keys.size(); ++i) {
    if (name_of(in, in.bone_keys[i].name) != "センター") continue;
    ++centre;
    const auto& p = in.bone_keys[i].position;
    const auto& q = out.bone_keys[i].position;
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(double(q[c]), double(p[c]) * (c == 1 ? y : xz), 1e-4 * (1 + std::fabs(double(p[c]))));
  }
  EXPECT_GT(centre, 10u);
}

// Every operation writes a VMD (vpd of a motion: a VPD), or its mmdkit JSON for a .json output:
// another extension is refused (exit 2) in convert's words, nothing written. A .json output is
// the same motion (converted back: the .vmd output's bytes); '-' writes the VMD to stdout.
TEST_F(MotionCli, OutputsMustHaveAnExtensionTheOperationWrites) {
  file("map.tsv", "センター\tセンター2\n");
  ASSERT_EQ(go("motion vpd g.vmd --model h.pmx --frame 3 -q -o p.vpd").code, 0);
  const std::vector<std::string> ops = {"trim g.vmd --frames 0-10", "shift g.vmd --by 2", "merge g.vmd g.vmd",
                                        "mirror g.vmd",  "resample g.vmd --every 4", "reduce g.vmd",
                                        "rename g.vmd --map map.tsv", "filter g.vmd --bones センター",
                                        "fit g.vmd --from h.pmx --to h.pmx", "vpd p.vpd"};
  for (const std::string& op : ops) {
    Outcome r = go("motion " + op + " -o bad.pmx");
    EXPECT_EQ(r.code, 2) << op << "\n" << r.err;
    EXPECT_NE(r.err.find("a VMD motion converts only to .vmd or .json, not .pmx"), std::string::npos) << op << "\n" << r.err;
    EXPECT_FALSE(fs::exists(dir / "bad.pmx")) << op;
    r = go("motion " + op + " -q -o ok.vmd --force");
    ASSERT_EQ(r.code, 0) << op << "\n" << r.err;
    r = go("motion " + op + " -q -o ok.json --force");
    ASSERT_EQ(r.code, 0) << op << "\n" << r.err;
    ASSERT_EQ(go("convert ok.json back.vmd --force").code, 0) << op;
    EXPECT_TRUE(test::slurp(dir / "back.vmd") == test::slurp(dir / "ok.vmd")) << op;
  }
  Outcome r = go("motion vpd g.vmd --model h.pmx --frame 3 -o bad.vmd");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("a VPD pose converts only to .vpd or .json, not .vmd"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "bad.vmd"));
  ASSERT_EQ(go("motion vpd g.vmd --model h.pmx --frame 3 -q -o p.json").code, 0);
  ASSERT_EQ(go("convert p.json back.vpd --force").code, 0);
  EXPECT_TRUE(test::slurp(dir / "back.vpd") == test::slurp(dir / "p.vpd"));
  r = run("motion shift " + quoted(dir / "g.vmd") + " --by 2 -o " + quoted(dir / "BAD.PMX"));  // any case
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("not .pmx"), std::string::npos) << r.err;
  r = run("motion shift " + quoted(dir / "g.vmd") + " --by 2 -q -o - > " + quoted(dir / "stdout.vmd"));
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(go("motion shift g.vmd --by 2 -q -o s2.vmd").code, 0);
  EXPECT_TRUE(test::slurp(dir / "stdout.vmd") == test::slurp(dir / "s2.vmd"));
}

// Usage problems exit 2 before anything is written.
TEST_F(MotionCli, UsageErrorsExit2) {
  for (const char* args : {"motion", "motion nosuchop g.vmd -o x.vmd", "motion trim g.vmd -o x.vmd",
                           "motion trim g.vmd --frames 10-x -o x.vmd", "motion trim g.vmd --frames 40-10 -o x.vmd",
                           "motion trim g.vmd --frames 10-40", "motion shift g.vmd -o x.vmd",
                           "motion merge g.vmd -o x.vmd", "motion resample g.vmd --every 0 -o x.vmd",
                           "motion resample g.vmd --fps 0 -o x.vmd", "motion reduce g.vmd --tol-deg -1 -o x.vmd",
                           "motion rename g.vmd -o x.vmd", "motion fit g.vmd --from h.pmx -o x.vmd"}) {
    Outcome r = go(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("mmdkit"), std::string::npos) << args;
  }
  EXPECT_FALSE(fs::exists(dir / "x.vmd"));
}

// Bad input exits 1 with the file named and where in it.
TEST_F(MotionCli, BadInputExit1NamesTheFile) {
  const std::string g = test::slurp(dir / "g.vmd");
  file("cut.vmd", g.substr(0, 100));  // the first bone key cut short
  Outcome r = go("motion shift cut.vmd --by 1 -o x.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("cut.vmd"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bone"), std::string::npos) << r.err;
  r = go("motion mirror missing.vmd -o x.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("missing.vmd"), std::string::npos) << r.err;
  file("junk.vmd", "not a motion at all, just text long enough for a header........");
  r = go("motion merge g.vmd junk.vmd -o x.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("junk.vmd"), std::string::npos) << r.err;
  r = go("motion fit g.vmd --from h.pmx --to junk.vmd -o x.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("junk.vmd"), std::string::npos) << r.err;
  // A VPD where a VMD is needed is named as such.
  ASSERT_EQ(go("motion vpd g.vmd --model h.pmx -o p.vpd").code, 0);
  r = go("motion trim p.vpd --frames 0-1 -o x.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("p.vpd"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("motion vpd"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "x.vmd"));
}

// An output never replaces an input (the motion, a second motion, the map, a model) without
// --force, and nothing is reported as done when the write was refused.
TEST_F(MotionCli, OutputNeverReplacesAnInputWithoutForce) {
  const std::string g = test::slurp(dir / "g.vmd"), h = test::slurp(dir / "h.pmx");
  file("map.tsv", "センター\tA\n");
  ASSERT_EQ(go("motion shift g.vmd --by 3 -o s.vmd").code, 0);
  const std::string s = test::slurp(dir / "s.vmd");
  for (const char* args : {"motion shift g.vmd --by 1 -o g.vmd", "motion merge g.vmd s.vmd -o s.vmd",
                           "motion mirror g.vmd -o s.vmd"}) {
    Outcome r = go(args);
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.err.find("--force"), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
  // An input of another kind (the map, a model) is not an output the operation writes: refused
  // as a usage error, --force or not.
  for (const char* args : {"motion rename g.vmd --map map.tsv -o map.tsv", "motion fit g.vmd --from h.pmx --to h.pmx -o h.pmx",
                           "motion vpd g.vmd --model h.pmx -o h.pmx", "motion fit g.vmd --from h.pmx --to h.pmx --force -o h.pmx"}) {
    Outcome r = go(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find("converts only to"), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
  EXPECT_TRUE(test::slurp(dir / "g.vmd") == g);
  EXPECT_TRUE(test::slurp(dir / "h.pmx") == h);
  EXPECT_TRUE(test::slurp(dir / "s.vmd") == s);
  EXPECT_EQ(test::slurp(dir / "map.tsv"), "センター\tA\n");
  // With --force the input is replaced by the result.
  ASSERT_EQ(go("motion shift g.vmd --by 3 --force -o g.vmd").code, 0);
  EXPECT_TRUE(test::slurp(dir / "g.vmd") == s);
}

}  // namespace
}  // namespace mmdkit

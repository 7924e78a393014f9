// `mmdkit bake` through the binary, on generated files (the generated PMD has rigid bodies and
// joints; its head body is made simulated): exit codes, options, the baked motion.
#include <gtest/gtest.h>

#include "mmdkit/version.hpp"
#if MMDKIT_HAS_PHYSICS

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "mmdkit/anim/binding.hpp"
#include "mmdkit/core/file.hpp"
#include "mmdkit/formats/pmd.hpp"
#include "mmdkit/formats/vmd.hpp"
#include "support/cli_run.hpp"
#include "support/corpus.hpp"

namespace mmdkit::cli {
namespace {

/// Model matrices of every frame of a `sample --format binary` file (docs: cmd_sample.hpp).
std::vector<std::vector<float>> binary_frames(const std::string& bytes) {
  auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  std::vector<std::vector<float>> frames;
  if (bytes.size() < 32 || bytes.compare(0, 8, "MMDKSMP1") != 0) return frames;
  const std::uint32_t nf = u32(12), nb = u32(16), nm = u32(20);
  std::size_t at = 32;
  for (std::uint32_t i = 0; i < nb + nm; ++i) at += 8 + u32(at + 4);
  for (std::uint32_t f = 0; f < nf; ++f) {
    at += 8;  // f64 frame
    std::vector<float> m(std::size_t{nb} * 16);
    std::memcpy(m.data(), bytes.data() + at, m.size() * 4);
    at += m.size() * 4 + std::size_t{nm} * 4;
    frames.push_back(std::move(m));
  }
  return frames;
}

float max_difference(const std::vector<float>& a, const std::vector<float>& b) {
  float d = a.size() == b.size() ? 0.0f : INFINITY;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) d = std::max(d, std::fabs(a[i] - b[i]));
  return d;
}

class PhysicsCli : public test::CliTest {
 protected:
  PhysicsCli() : CliTest("physics_cli") {}
  /// run() with every word ending in .pmd .vmd .json .obj made a path in `dir`.
  test::Outcome go(const std::string& args) const {
    std::string out, word;
    std::istringstream in(args);
    while (in >> word) {
      for (const char* ext : {".pmd", ".pmx", ".vmd", ".json", ".obj", ".png", ".mp4", ".glb"})
        if (word.size() > 4 && word.ends_with(ext)) {
          word = test::quote((dir / word).string());
          break;
        }
      out += (out.empty() ? "" : " ") + word;
    }
    return run(out);
  }
  void SetUp() override {
    ASSERT_EQ(go("generate pmd -o m.pmd --force").code, 0);
    ASSERT_EQ(go("generate vmd --frames 60 -o a.vmd --force").code, 0);
    // The generated head body follows its bone; make it simulated (jointed to the upper body).
    auto m = pmd::read_file(dir / "m.pmd");
    ASSERT_TRUE(m) << m.error().to_string();
    ASSERT_FALSE(m->model.rigid_bodies.empty());
    m->model.rigid_bodies[0].mode = 1;
    auto bytes = pmd::write(m->model);
    ASSERT_TRUE(bytes);
    file("m.pmd", *bytes);
  }
};

TEST_F(PhysicsCli, BakeWritesPhysicsOffKeysOnEveryFrame) {
  auto r = go("bake m.pmd a.vmd -o b.vmd --frames 0-30");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("baked"), std::string::npos);
  auto in = vmd::read_file(dir / "a.vmd");
  auto out = vmd::read_file(dir / "b.vmd");
  ASSERT_TRUE(in && out);
  std::size_t off = 0;
  for (const vmd::BoneKey& k : out->motion.bone_keys) off += vmd::decode_bone_interpolation(k.interpolation).physics_off() ? 1 : 0;
  EXPECT_GT(off, 0u);
  EXPECT_EQ(off % 31, 0u);  // every baked bone keyed on each of the 31 frames
  EXPECT_EQ(out->motion.bone_keys.size() - off <= in->motion.bone_keys.size(), true);
  EXPECT_EQ(go("bake m.pmd a.vmd -o b.vmd").code, 1);           // exists, no --force
  EXPECT_EQ(go("bake m.pmd a.vmd -o c.vmd --frames 9-3").code, 2);
  EXPECT_EQ(go("bake m.pmd m.pmd -o c.vmd").code, 1);           // not a motion (told by content, as sample)
  EXPECT_EQ(go("bake m.pmd a.vmd -o c.vmd --physics-fps 90").code, 2);
}

// bake tells its inputs apart by content as sample / pose / export do: the model and the motion as
// mmdkit JSON, or under any name, bake the same bytes; swapped arguments name the file that is
// not what it should be; a VPD pose and the standard input are refused.
TEST_F(PhysicsCli, BakeReadsItsInputsByContent) {
  ASSERT_EQ(go("bake m.pmd a.vmd -o b.vmd --frames 0-20 -q").code, 0);
  const std::string want = test::slurp(dir / "b.vmd");
  ASSERT_EQ(go("convert a.vmd a.json").code, 0);
  ASSERT_EQ(go("convert m.pmd m.json").code, 0);
  std::filesystem::copy_file(dir / "a.vmd", dir / "motion.dat");
  auto r = run("bake " + test::quote((dir / "m.json").string()) + " " + test::quote((dir / "motion.dat").string()) +
               " -o " + test::quote((dir / "c.vmd").string()) + " --frames 0-20 -q");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(test::slurp(dir / "c.vmd") == want);
  ASSERT_EQ(go("bake m.json a.json -o d.vmd --frames 0-20 -q").code, 0);
  EXPECT_TRUE(test::slurp(dir / "d.vmd") == want);
  r = go("bake a.vmd m.pmd -o e.vmd");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("a.vmd"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("bake takes"), std::string::npos) << r.err;
  file("p.vpd", std::string("Vocaloid Pose Data file\r\n\r\nm.osm;\r\n0;\r\n"));
  r = run("bake " + test::quote((dir / "m.pmd").string()) + " " + test::quote((dir / "p.vpd").string()) + " -o " +
          test::quote((dir / "f.vmd").string()));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("a VPD pose, not a VMD motion"), std::string::npos) << r.err;
  r = run("bake - " + test::quote((dir / "a.vmd").string()) + " -o " + test::quote((dir / "g.vmd").string()));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("not the standard input"), std::string::npos) << r.err;
  for (const char* f : {"e.vmd", "f.vmd", "g.vmd"}) EXPECT_FALSE(std::filesystem::exists(dir / f)) << f;
}

// sample --physics: a frame asked alone equals the same frame of a run over 0..30 (physics is
// simulated from frame 0 either way), physics moves the simulated head, and sampling the baked
// motion without physics gives the physics sample (bake's contract, through the binary).
TEST_F(PhysicsCli, SampleWithPhysicsIsTheRunFromZeroAndMatchesTheBake) {
  auto all = go("sample m.pmd a.vmd --physics --frames 0-30 --format binary -o all.json");
  ASSERT_EQ(all.code, 0) << all.err;
  auto one = go("sample m.pmd a.vmd --physics --frames 30,12 --format binary -o one.json");
  ASSERT_EQ(one.code, 0) << one.err;
  auto plain = go("sample m.pmd a.vmd --frames 30 --format binary -o plain.json");
  ASSERT_EQ(plain.code, 0) << plain.err;
  const auto fa = binary_frames(test::slurp(dir / "all.json"));
  const auto fo = binary_frames(test::slurp(dir / "one.json"));
  const auto fp = binary_frames(test::slurp(dir / "plain.json"));
  ASSERT_EQ(fa.size(), 31u);
  ASSERT_EQ(fo.size(), 2u);
  ASSERT_EQ(fp.size(), 1u);
  EXPECT_EQ(fo[0], fa[30]);  // bit for bit
  EXPECT_EQ(fo[1], fa[12]);
  EXPECT_GT(max_difference(fa[30], fp[0]), 1e-3f);  // the simulated head moved
  ASSERT_EQ(go("bake m.pmd a.vmd -o b.vmd --frames 0-30").code, 0);
  auto baked = go("sample m.pmd b.vmd --frames 30 --format binary -o baked.json");
  ASSERT_EQ(baked.code, 0) << baked.err;
  const auto fb = binary_frames(test::slurp(dir / "baked.json"));
  ASSERT_EQ(fb.size(), 1u);
  EXPECT_LT(max_difference(fb[0], fa[30]), 1e-4f);
  // The JSON says physics was on.
  auto json = go("sample m.pmd a.vmd --physics --frames 3 -o p.json");
  ASSERT_EQ(json.code, 0) << json.err;
  EXPECT_NE(test::slurp(dir / "p.json").find("\"physics\":true"), std::string::npos);
}

TEST_F(PhysicsCli, PoseWithPhysicsAndUsageErrors) {
  auto a = go("pose m.pmd a.vmd --physics --frame 30 -o with.obj");
  ASSERT_EQ(a.code, 0) << a.err;
  auto b = go("pose m.pmd a.vmd --frame 30 -o without.obj");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(test::slurp(dir / "with.obj"), test::slurp(dir / "without.obj"));  // the head's vertices moved
  auto frac = go("pose m.pmd a.vmd --physics --frame 2.5 -o x.obj");
  EXPECT_EQ(frac.code, 2);
  EXPECT_NE(frac.err.find("whole"), std::string::npos) << frac.err;
  auto sfrac = go("sample m.pmd a.vmd --physics --frames 0-2:0.5");
  EXPECT_EQ(sfrac.code, 2);
  EXPECT_NE(sfrac.err.find("whole"), std::string::npos) << sfrac.err;
  auto fps = go("sample m.pmd a.vmd --physics --physics-fps 90 --frames 1");
  EXPECT_EQ(fps.code, 2);
  EXPECT_NE(fps.err.find("60, 120 or 240"), std::string::npos) << fps.err;
}

#if MMDKIT_HAS_RENDER
TEST_F(PhysicsCli, RenderWithPhysics) {
  auto ok = go("render m.pmd a.vmd --physics --frame 20 --size 64x48 -o r.png");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "r.png"));
  // --fps 60 steps the simulation by half frames (render_cli_test checks the frames).
  auto fps = go("render m.pmd a.vmd --physics --frames 0-4 --fps 60 --size 64x48 -o r.mp4");
  EXPECT_EQ(fps.code, 0) << fps.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "r.mp4"));
  // --quiet silences warnings (here: a --camera motion without camera keys).
  ASSERT_EQ(go("generate vmd --camera-keys 0 -o nocam.vmd").code, 0);
  auto loud = go("render m.pmd --camera nocam.vmd --frame 0 --size 64x48 -o l.png");
  ASSERT_EQ(loud.code, 0) << loud.err;
  EXPECT_NE(loud.err.find("no camera keys"), std::string::npos) << loud.err;
  auto quiet = go("render m.pmd --camera nocam.vmd --frame 0 --size 64x48 --quiet -o q.png");
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("warning"), std::string::npos) << quiet.err;
}
#endif

// export --physics: the simulated head moves the exported animation (a different file from the
// export without physics), refused at --fps 60.
TEST_F(PhysicsCli, ExportWithPhysics) {
  auto with = go("export m.pmd a.vmd --physics --frames 0-30 -o with.glb");
  ASSERT_EQ(with.code, 0) << with.err;
  auto without = go("export m.pmd a.vmd --frames 0-30 -o without.glb");
  ASSERT_EQ(without.code, 0) << without.err;
  EXPECT_NE(test::slurp(dir / "with.glb"), test::slurp(dir / "without.glb"));
  auto fps = go("export m.pmd a.vmd --physics --fps 60 -o x.glb");
  EXPECT_EQ(fps.code, 2);
  EXPECT_NE(fps.err.find("--fps 30"), std::string::npos) << fps.err;
}

// A physics warning names the model's file, in bake's form ("mmdkit: warning: FILE: physics:
// joints N ...") and once, in every command that simulates: bake, sample, pose, export (which
// printed none) and render; -q silences it. The model: the fixture's PMD with one more joint that
// joins rigid body 0 to itself (ignored by the world, with a warning).
TEST_F(PhysicsCli, PhysicsWarningsNameTheModelFileOnce) {
  auto m = pmd::read_file(dir / "m.pmd");
  ASSERT_TRUE(m) << m.error().to_string();
  pmd::Joint j;
  j.rigid_a = j.rigid_b = 0;
  m->model.joints.push_back(j);
  const std::size_t record = m->model.joints.size() - 1;
  auto bytes = pmd::write(m->model);
  ASSERT_TRUE(bytes);
  file("j.pmd", *bytes);
  const std::string want = "mmdkit: warning: " + (dir / "j.pmd").string() + ": physics: joints " + std::to_string(record);
  std::vector<std::string> runs = {"bake j.pmd a.vmd --frames 0-5 -o b.vmd", "sample j.pmd a.vmd --physics --frames 0-5 -o s.json",
                                   "pose j.pmd a.vmd --physics --frame 5 -o p.obj",
                                   "export j.pmd a.vmd --physics --frames 0-5 -o e.glb"};
#if MMDKIT_HAS_RENDER
  runs.push_back("render j.pmd a.vmd --physics --frames 0-3 --size 32x24 -o r.mp4");
#endif
  for (const std::string& run : runs) {
    auto r = go(run + " --force");
    ASSERT_EQ(r.code, 0) << run << "\n" << r.err;
    EXPECT_EQ(test::count(r.err, want), 1u) << run << "\n" << r.err;
    EXPECT_EQ(test::count(r.err, "physics: "), 1u) << run << "\n" << r.err;  // no other (unnamed) form
    auto q = go(run + " --force -q");
    ASSERT_EQ(q.code, 0) << run << "\n" << q.err;
    EXPECT_EQ(q.err.find("physics"), std::string::npos) << run << "\n" << q.err;
  }
}

// bake writes VMD (or its JSON for .json): another output extension is refused (exit 2) in
// convert's words, nothing written; '-' (stdout) still writes the VMD bytes.
TEST_F(PhysicsCli, BakeRefusesAnOutputThatIsNotVmd) {
  auto r = go("bake m.pmd a.vmd --frames 0-5 -o baked.pmx");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("a VMD motion converts only to .vmd or .json, not .pmx"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "baked.pmx"));
  ASSERT_EQ(go("bake m.pmd a.vmd --frames 0-5 -q -o b.vmd").code, 0);
  auto j = go("bake m.pmd a.vmd --frames 0-5 -q -o b.json");
  ASSERT_EQ(j.code, 0) << j.err;
  auto back = go("convert b.json b2.vmd");  // the JSON is the same motion: its VMD is bake's bytes
  ASSERT_EQ(back.code, 0) << back.err;
  EXPECT_EQ(test::slurp(dir / "b2.vmd"), test::slurp(dir / "b.vmd"));
  auto out = run("bake " + test::quote((dir / "m.pmd").string()) + " " + test::quote((dir / "a.vmd").string()) +
                 " --frames 0-5 -q -o - > " + test::quote((dir / "stdout.vmd").string()));
  ASSERT_EQ(out.code, 0) << out.err;
  EXPECT_EQ(test::slurp(dir / "stdout.vmd"), test::slurp(dir / "b.vmd"));
}

// --frames / --frame past the motion's last key (a.vmd ends at frame 60 at most): bake, export,
// pose and render note it in sample's words (cli/messages.hpp past_last_key_note); not within
// the motion, not with -q.
TEST_F(PhysicsCli, FramesPastTheLastKeyAreNoted) {
  auto mo = vmd::read_file(dir / "a.vmd");
  ASSERT_TRUE(mo);
  const auto range = vmd::frame_range(mo->motion);
  ASSERT_TRUE(range && (*range)[1] > 0);
  const std::string last = std::to_string((*range)[1]);
  const std::string tail = " but the inputs' last key is at frame " + last + ": later frames hold the pose of frame " + last;
  struct Case {
    std::string past, within, note;
  };
  std::vector<Case> cases = {
      {"bake m.pmd a.vmd --frames 0-200 -o b.vmd", "bake m.pmd a.vmd --frames 0-5 -o b.vmd", "--frames goes to 200"},
      {"export m.pmd a.vmd --frames 0-200 -o e.glb", "export m.pmd a.vmd --frames 0-5 -o e.glb", "--frames goes to 200"},
      {"pose m.pmd a.vmd --frame 200.5 -o p.obj", "pose m.pmd a.vmd --frame 3 -o p.obj", "--frame goes to 200.5"},
  };
#if MMDKIT_HAS_RENDER
  cases.push_back({"render m.pmd a.vmd --no-physics --frame 300 --size 32x24 -o r.png",
                   "render m.pmd a.vmd --no-physics --frame 3 --size 32x24 -o r.png", "--frame goes to 300"});
  cases.push_back({"render m.pmd a.vmd --no-physics --frames 199-200 --size 32x24 -o r.mp4",
                   "render m.pmd a.vmd --no-physics --frames 0-2 --size 32x24 -o r.mp4", "--frames goes to 200"});
#endif
  for (const Case& c : cases) {
    auto p = go(c.past + " --force");
    ASSERT_EQ(p.code, 0) << c.past << "\n" << p.err;
    EXPECT_EQ(test::count(p.err, "mmdkit: note: " + c.note + tail + "\n"), 1u) << c.past << "\n" << p.err;
    auto w = go(c.within + " --force");
    ASSERT_EQ(w.code, 0) << c.within << "\n" << w.err;
    EXPECT_EQ(w.err.find("goes to"), std::string::npos) << c.within << "\n" << w.err;
    auto q = go(c.past + " --force -q");
    ASSERT_EQ(q.code, 0) << c.past << "\n" << q.err;
    EXPECT_EQ(q.err.find("goes to"), std::string::npos) << c.past << "\n" << q.err;
  }
}

// ちびAppearanceミク printed 110 "joints ... inverted" lines on every run, drowning the warning that
// mattered: findings of one kind are one line naming the first records and how many more
// (physics_warning_lines), all of them with --verbose, none with -q. A name with a line feed stays
// on its line.
TEST_F(PhysicsCli, RepeatedPhysicsWarningsAreOneLine) {
  auto m = pmd::read_file(dir / "m.pmd");
  ASSERT_TRUE(m) << m.error().to_string();
  ASSERT_FALSE(m->model.joints.empty());
  const pmd::Joint base = m->model.joints[0];
  const std::size_t first = m->model.joints.size();
  for (int k = 0; k < 6; ++k) {
    pmd::Joint j = base;
    j.name.raw.clear();
    j.name.text = k == 0 ? "\nJ0" : "J" + std::to_string(k);
    j.rotation_min[0] = 0.5f;  // lower > upper: Bullet frees the axis, a warning each
    j.rotation_max[0] = -0.5f;
    m->model.joints.push_back(j);
  }
  // Joints that join a body to itself, each naming its body: one kind, the numbers as N
  // (サンプルモデル.pmx printed ten such lines).
  ASSERT_GE(m->model.rigid_bodies.size(), 2u);
  for (std::uint32_t b = 0; b < 2; ++b) {
    pmd::Joint j = base;
    j.name.raw.clear();
    j.name.text = "S" + std::to_string(b);
    j.rigid_a = j.rigid_b = b;
    m->model.joints.push_back(j);
  }
  auto bytes = pmd::write(m->model);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  file("inv.pmd", *bytes);
  const std::string kind = "angular limit x is inverted";
  auto lines_with = [&](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.find(kind) != std::string::npos) out.push_back(line);
    return out;
  };
  const auto grouped = go("sample inv.pmd a.vmd --physics --frames 0-3 -o s.json --force");
  ASSERT_EQ(grouped.code, 0) << grouped.err;
  const auto g = lines_with(grouped.err);
  ASSERT_EQ(g.size(), 1u) << grouped.err;
  EXPECT_NE(g[0].find(": physics: joints " + std::to_string(first) + " '\\nJ0', " + std::to_string(first + 1) +
                      " 'J1', " + std::to_string(first + 2) + " 'J2' and 3 more (--verbose lists them): " + kind),
            std::string::npos)
      << g[0];
  EXPECT_NE(grouped.err.find(": physics: joints " + std::to_string(first + 6) + " 'S0', " + std::to_string(first + 7) +
                             " 'S1': joins rigid body N to itself; joint ignored"),
            std::string::npos)
      << grouped.err;
  const auto all = go("sample inv.pmd a.vmd --physics --frames 0-3 -o s.json --force --verbose");
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_EQ(lines_with(all.err).size(), 6u) << all.err;
  const auto quiet = go("sample inv.pmd a.vmd --physics --frames 0-3 -o s.json --force -q");
  EXPECT_EQ(quiet.err, "");
  const auto bake = go("bake inv.pmd a.vmd -o b.vmd --frames 0-3 --force");
  ASSERT_EQ(bake.code, 0) << bake.err;
  EXPECT_EQ(lines_with(bake.err).size(), 1u) << bake.err;
}

// A long run shows progress on a terminal: bake and sample --physics draw a bar (redrawn in
// place with \r, frames/s, ETA; cli/progress.hpp) on stderr when it is a terminal, and clear it
// (ESC [K) before the final message. The terminal is a pty made by util-linux `script`;
// MMDKIT_PROGRESS_DELAY=0 lets these short runs draw (the bar waits 2 s otherwise).
TEST_F(PhysicsCli, LongRunsShowProgressOnATerminal) {
  MMDKIT_REQUIRE_PTY();
  ASSERT_EQ(go("generate vmd --frames 299 -o long.vmd --force").code, 0);
  auto on_terminal = [&](const std::string& args) {
    const std::string cmd = "MMDKIT_PROGRESS_DELAY=0 " + test::cli_path().string() + " " + args;
    const auto log = dir / "tty.txt";
    const std::string shell = "script -qec " + test::quote(cmd) + " /dev/null > " + test::quote(log.string()) + " 2>&1";
    EXPECT_EQ(std::system(shell.c_str()), 0) << shell;
    return test::slurp(log);
  };
  const std::string m = test::quote((dir / "m.pmd").string()), v = test::quote((dir / "long.vmd").string());
  const std::string bake = on_terminal("bake " + m + " " + v + " -o " + test::quote((dir / "b.vmd").string()) + " --force");
  EXPECT_NE(bake.find("\rmmdkit bake ["), std::string::npos) << bake;
  EXPECT_NE(bake.find("300/300"), std::string::npos) << bake;
  EXPECT_NE(bake.find("frames/s"), std::string::npos) << bake;
  EXPECT_NE(bake.find("\r\033[K"), std::string::npos) << bake;  // cleared before the summary
  EXPECT_NE(bake.find("mmdkit bake: wrote "), std::string::npos) << bake;
  const std::string sample =
      on_terminal("sample " + m + " " + v + " --physics --frames 299 -o " + test::quote((dir / "s.json").string()) + " --force");
  EXPECT_NE(sample.find("\rmmdkit physics ["), std::string::npos) << sample;
  EXPECT_NE(sample.find("300/300"), std::string::npos) << sample;
  // Not a terminal: no bar (the captured stderr of a short run stays free of it).
  auto plain = go("bake m.pmd long.vmd -o c.vmd --force");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.err.find('\r'), std::string::npos) << plain.err;
}

}  // namespace
}  // namespace mmdkit::cli

#endif  // MMDKIT_HAS_PHYSICS

// Peak memory of `mmdkit sample` over a whole motion (issue 4): the output is streamed frame by
// frame, so the peak resident size stays within twice the model and motion files plus the output
// buffer, above the size of the process itself. Measured on the built binary in a child process
// (wait4's ru_maxrss), not in this test process.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "support/cli_run.hpp"
#include "support/corpus.hpp"
#include "support/sanitizers.hpp"

namespace {

namespace fs = std::filesystem;

using mmdkit::test::MeasuredRun;
using mmdkit::test::run_cli_measured;

class SampleMemory : public mmdkit::test::CliTest {
 protected:
  SampleMemory() : CliTest("samplemem") {}

  void SetUp() override {
#if MMDKIT_TEST_UNDER_ASAN
    GTEST_SKIP() << "peak memory is not meaningful under AddressSanitizer (shadow memory, quarantine)";
#endif
  }

  // The peak of one `sample` run against the bound: the same command without a motion, at one
  // frame (the process, its libraries and the model's skeleton) + 2 × (model + motion bytes) + the
  // output buffer (256 KiB flushed pieces, reserved twice, plus one frame: 1 MiB allowed).
  // Returns the peak in KiB.
  std::uint64_t check_bound(const fs::path& model, const fs::path& motion, const std::string& format,
                            const std::string& frames) {
    const MeasuredRun base =
        run_cli_measured(dir, {"sample", model.string(), "--frames", "0", "-o", (dir / "base.json").string(), "--force"});
    EXPECT_EQ(base.code, 0) << base.err;
    std::vector<std::string> args{"sample", model.string(), motion.string(), "--format", format, "-o",
                                  (dir / ("out." + format)).string(), "--force"};
    if (!frames.empty()) args.insert(args.end(), {"--frames", frames});
    const MeasuredRun r = run_cli_measured(dir, args);
    EXPECT_EQ(r.code, 0) << r.err;
    const std::uint64_t inputs_kib = (fs::file_size(model) + fs::file_size(motion)) / 1024;
    const std::uint64_t buffer_kib = 1024;
    const std::uint64_t bound = base.max_rss_kib + 2 * inputs_kib + buffer_kib;
    EXPECT_LE(r.max_rss_kib, bound) << "peak " << r.max_rss_kib << " KiB; without the motion " << base.max_rss_kib
                                    << " KiB, inputs " << inputs_kib << " KiB, output "
                                    << fs::file_size(dir / ("out." + format)) / 1024 << " KiB";
    return r.max_rss_kib;
  }
};

// A generated humanoid PMX and a generated motion of 200,000 bone keys (22 MB) over all its
// frames: the output (JSON about 40 MB, binary about 8 MB) is larger than the bound allows to hold.
TEST_F(SampleMemory, GeneratedMotionAllFramesWithinTwiceTheInputs) {
  const fs::path model = dir / "model.pmx", motion = dir / "motion.vmd";
  ASSERT_EQ(mmdkit::test::run_cli(dir, "generate pmx --vertices 2000 -o " + mmdkit::test::quote(model.string())).code,
            0);
  ASSERT_EQ(mmdkit::test::run_cli(dir, "generate vmd --bone-keys 200000 --morph-keys 1000 --frames 3000 -o " +
                                           mmdkit::test::quote(motion.string()))
                .code,
            0);
  check_bound(model, motion, "binary", "");
  check_bound(model, motion, "json", "");
}

// The corpus model and motion of issue 4 (miku_v2.pmd + wavefile_v2.vmd, 2.3 MB), every frame.
TEST_F(SampleMemory, CorpusMikuWavefileAllFrames) {
  MMDKIT_REQUIRE_CORPUS();
  auto model = mmdkit::test::corpus_file("moeru-ai__three-mmd/examples/vanilla/src/assets/miku/miku_v2.pmd");
  auto motion = mmdkit::test::corpus_file("moeru-ai__three-mmd/examples/vanilla/src/assets/vmds/wavefile_v2.vmd");
  if (!model || !motion) GTEST_SKIP() << "miku_v2.pmd or wavefile_v2.vmd not in the corpus";
  check_bound(model->path, motion->path, "binary", "");
  check_bound(model->path, motion->path, "json", "0-7000:10");
}

}  // namespace

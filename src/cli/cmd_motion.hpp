// mmdkit CLI — `motion OP ...`: motion editing (the library in include/mmdkit/motion/, rules in
// docs/MOTION.md). Every operation reads VMD (or VPD) files, binary or mmdkit JSON (by content),
// and writes a new file through the atomic writer; an existing output, an input included, is never
// replaced without --force.
//
//   mmdkit motion trim IN.vmd --frames A-B [--exact] -o OUT.vmd
//   mmdkit motion shift IN.vmd --by N [--clamp] -o OUT.vmd
//   mmdkit motion merge A.vmd B.vmd -o OUT.vmd            (B's keys win at equal frames)
//   mmdkit motion mirror IN.vmd -o OUT.vmd
//   mmdkit motion resample IN.vmd [--fps F] [--every N] -o OUT.vmd
//   mmdkit motion reduce IN.vmd [--tol-units U] [--tol-deg D] [--tol-weight W] -o OUT.vmd
//   mmdkit motion rename IN.vmd --map MAP.tsv -o OUT.vmd
//   mmdkit motion filter IN.vmd [--bones A,B] [--morphs A,B] [--drop-bones ..] [--drop-morphs ..]
//                        [--no-camera] [--no-light] [--no-self-shadow] [--no-property] -o OUT.vmd
//   mmdkit motion vpd IN.vmd --model MODEL [--frame F] -o OUT.vpd   (a frame → a pose)
//   mmdkit motion vpd IN.vpd [--frame F] -o OUT.vmd                 (a pose → a one-key motion)
//   mmdkit motion fit IN.vmd --from SOURCE.pmx --to TARGET.pmx [--no-legs] [--no-arms] -o OUT.vmd
//   mmdkit motion lipsync VOCALS.wav|SONG.ust|SONG.vsqx|SONG.lab --model MODEL [--map MAP.tsv]
//                        [--closed-morph NAME] [--gain G] [--smooth S] [--lead-ms MS] [--fps F] -o OUT.vmd
//
// What each did (key counts, errors measured) is printed to stdout, or to stderr when the output
// is stdout ("-o -"); --quiet prints nothing but errors.
#pragma once

#include <ostream>

#include "cli/command.hpp"

namespace mmdkit::cli {

/// The `motion` command of the command table (command.hpp).
extern const Command kMotionCommand;

/// Parses and runs `motion` alone: argv[0] is the program name, then the arguments after the word
/// "motion" (the operation first). For tests and embedding. Exit codes: 0, 1 bad input, 2 usage.
int cmd_motion(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace mmdkit::cli

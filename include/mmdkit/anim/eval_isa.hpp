// mmdkit — which code the bone evaluation (anim/pose.hpp evaluate*: bones, append, CCD IK,
// matrices) runs: the ISA choice, once per process (docs/DEVELOPING.md "SIMD").
#pragma once

#include <cstdint>

namespace mmdkit::anim {

/// The code evaluate* (bones, append, CCD IK, matrices) runs. Chosen once from the CPU: `avx` on
/// x86-64 CPUs that report AVX (the same operations in AVX encodings: three-operand forms, fewer
/// register copies; no FMA, nothing reordered), else `baseline`. Both give the same results bit
/// for bit (tests/anim/eval_reference_test.cpp runs both).
enum class EvalIsa : std::uint8_t { baseline = 0, avx = 1 };
/// The code in use.
EvalIsa eval_isa() noexcept;
/// Selects the code (tests and benchmarks compare them). Asking for `avx` on a CPU without it
/// selects `baseline`. Returns the code now in use. Process-wide; do not call while another thread
/// evaluates.
EvalIsa set_eval_isa(EvalIsa isa) noexcept;

}  // namespace mmdkit::anim

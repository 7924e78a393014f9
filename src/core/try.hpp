// mmdkit — the one early-return macro for Result<T> (internal; not installed).
//
//   MMDKIT_TRY(expr);  // expr is a Result<U>: on error, return std::unexpected(that error)
//
// The result variable gets a unique name, so MMDKIT_TRY may appear inside lambdas nested in
// other MMDKIT_TRY expressions.
#pragma once

#include <expected>
#include <utility>

#define MMDKIT_TRY_CAT2(a, b) a##b
#define MMDKIT_TRY_CAT(a, b) MMDKIT_TRY_CAT2(a, b)
#define MMDKIT_TRY_NAMED(expr, n)                                          \
  do {                                                                     \
    if (auto n = (expr); !n) return std::unexpected(std::move(n.error())); \
  } while (0)
#define MMDKIT_TRY(expr) MMDKIT_TRY_NAMED(expr, MMDKIT_TRY_CAT(mmdkit_try_, __COUNTER__))

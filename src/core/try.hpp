// mmdkit — the early-return macros for Result<T> (internal; not installed).
//
//   MMDKIT_TRY(expr);                  // expr is a Result<U>: on error, return std::unexpected(that error)
//   MMDKIT_TRY_ASSIGN(auto x, expr);   // the same, and on success declares x = the value (moved out)
//   MMDKIT_TRY_ASSIGN(auto&& x, expr); // ... or a reference to the value (no move; it lives to the end of the scope)
//   MMDKIT_TRY_ASSIGN(y, expr);        // ... or assigns an existing variable
//
// The result variable gets a unique name, so several MMDKIT_TRY / MMDKIT_TRY_ASSIGN may appear in
// one scope and inside lambdas nested in other MMDKIT_TRY expressions. MMDKIT_TRY_ASSIGN expands to
// statements (no statement-expression: -Wpedantic in the presets refuses those), so it stands where
// a declaration may, not inside an expression, and not as the lone body of an `if` without braces.
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

#define MMDKIT_TRY_ASSIGN_NAMED(decl, expr, n)          \
  auto n = (expr);                                      \
  if (!n) return std::unexpected(std::move(n.error())); \
  decl = *std::move(n)
#define MMDKIT_TRY_ASSIGN(decl, expr) MMDKIT_TRY_ASSIGN_NAMED(decl, expr, MMDKIT_TRY_CAT(mmdkit_try_, __COUNTER__))

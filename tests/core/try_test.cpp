// MMDKIT_TRY and MMDKIT_TRY_ASSIGN (src/core/try.hpp): the error passes through unchanged, the value
// is declared (moved out, or referenced with auto&&) or assigned, several in one scope.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/try.hpp"
#include "mmdkit/core/error.hpp"

namespace mmdkit {
namespace {

Result<int> number(bool ok, int v) {
  if (!ok) return make_error(ErrorCode::invalid_value, "no number " + std::to_string(v));
  return v;
}

Result<int> sum(bool a_ok, bool b_ok) {
  MMDKIT_TRY_ASSIGN(auto a, number(a_ok, 2));
  MMDKIT_TRY_ASSIGN(const int b, number(b_ok, 40));
  int c = 0;
  MMDKIT_TRY_ASSIGN(c, number(true, 0));
  return a + b + c;
}

Result<std::unique_ptr<std::string>> boxed(bool ok) {
  if (!ok) return make_error(ErrorCode::truncated, "no box");
  return std::make_unique<std::string>("box");
}

Result<std::size_t> box_length(bool ok) {
  MMDKIT_TRY_ASSIGN(auto p, boxed(ok));  // a move-only value is moved out
  MMDKIT_TRY_ASSIGN(auto&& q, boxed(true));  // a reference to the value kept in the hidden result
  return p->size() + q->size();
}

Result<void> check_both(bool a_ok) {
  MMDKIT_TRY(number(a_ok, 1));
  return {};
}

TEST(Try, AssignDeclaresTheValueOrReturnsTheError) {
  EXPECT_EQ(sum(true, true).value(), 42);
  auto e = sum(true, false);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "no number 40");
  EXPECT_EQ(e.error().code, ErrorCode::invalid_value);
  EXPECT_EQ(sum(false, true).error().message, "no number 2");
}

TEST(Try, AssignMovesMoveOnlyValues) {
  EXPECT_EQ(box_length(true).value(), 6u);
  EXPECT_EQ(box_length(false).error().code, ErrorCode::truncated);
}

TEST(Try, PlainTryReturnsTheError) {
  EXPECT_TRUE(check_both(true));
  EXPECT_EQ(check_both(false).error().message, "no number 1");
}

}  // namespace
}  // namespace mmdkit

// Counting global operator new for allocation tests. The replacement itself is in
// tests/support/counting_new/counting_new.cpp, an object library linked only into the test
// executables that count (anim, export, physics): a program may replace operator new once, and
// the other executables keep the standard one.
// Valgrind substitutes its own operator new and then reports the replacement's free() as
// mismatched: run these executables under ASan (the asan preset), not memcheck.
#pragma once

namespace mmdkit::test {

/// Calls of every form of global operator new / new[] (throwing and nothrow) since start-up, all
/// threads (relaxed atomic counter). Compare two readings around the code under test.
long allocation_count() noexcept;

}  // namespace mmdkit::test

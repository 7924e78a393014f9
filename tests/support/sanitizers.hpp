#pragma once
// MMDKIT_TEST_UNDER_ASAN is 1 in a build with AddressSanitizer, whichever compiler: g++ defines
// __SANITIZE_ADDRESS__, clang 16 only answers __has_feature(address_sanitizer). Tests whose
// assertion is about the process's own memory (peak RSS) skip under it: shadow memory and the
// quarantine make those figures meaningless.
#if defined(__SANITIZE_ADDRESS__)
#define MMDKIT_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MMDKIT_TEST_UNDER_ASAN 1
#endif
#endif
#ifndef MMDKIT_TEST_UNDER_ASAN
#define MMDKIT_TEST_UNDER_ASAN 0
#endif

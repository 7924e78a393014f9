# Compiler workarounds every build needs, presets or not (a plain `cmake -B build
# -DCMAKE_CXX_COMPILER=clang++-16` gets them too).
#
# clang 16 with libstdc++ 12 (Debian 12): libstdc++'s <expected> is guarded by
# `__cpp_concepts >= 202002L`, which clang 16 does not report (201907) although it implements what
# the header needs (P0848 conditionally trivial special members; docs/LIMITS.md "Toolchain
# note"). When std::expected does not compile as is but does with that macro redefined, the macro
# is redefined for every mmdkit target. g++ and newer clang compile it as is: nothing is added.
include(CheckCXXSourceCompiles)
set(_mmdkit_expected_probe "#include <expected>\nint main() { std::expected<int, int> e{1}; return *e - 1; }\n")
set(CMAKE_REQUIRED_FLAGS "-std=c++23")
check_cxx_source_compiles("${_mmdkit_expected_probe}" MMDKIT_STD_EXPECTED_WORKS)
if(NOT MMDKIT_STD_EXPECTED_WORKS)
  set(CMAKE_REQUIRED_FLAGS "-std=c++23 -U__cpp_concepts -D__cpp_concepts=202002L")
  check_cxx_source_compiles("${_mmdkit_expected_probe}" MMDKIT_STD_EXPECTED_WITH_CONCEPTS_MACRO)
  if(MMDKIT_STD_EXPECTED_WITH_CONCEPTS_MACRO)
    message(STATUS "mmdkit: ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} needs -D__cpp_concepts=202002L for libstdc++'s <expected>")
    add_compile_options(-U__cpp_concepts -D__cpp_concepts=202002L)
  else()
    message(FATAL_ERROR "mmdkit needs std::expected (C++23): ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION} "
                        "with this standard library cannot compile it (g++ 12 or clang 16 with libstdc++ 12 can)")
  endif()
endif()
unset(CMAKE_REQUIRED_FLAGS)
unset(_mmdkit_expected_probe)

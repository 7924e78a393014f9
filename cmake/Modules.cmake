# One static library per layer folder; each test folder one GoogleTest executable.
# Sources are picked up by glob (CONFIGURE_DEPENDS) so that adding a file needs no CMake edit.

function(mmdkit_module name dir)
  file(GLOB_RECURSE _srcs CONFIGURE_DEPENDS "${dir}/*.cpp")
  add_library(mmdkit_${name} STATIC ${_srcs})
  target_include_directories(mmdkit_${name}
    PUBLIC "${PROJECT_SOURCE_DIR}/include"
    PRIVATE "${PROJECT_SOURCE_DIR}/src")
  target_link_libraries(mmdkit_${name} PRIVATE mmdkit_warnings PUBLIC ${ARGN})
  set_target_properties(mmdkit_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

function(mmdkit_test name dir)
  file(GLOB_RECURSE _srcs CONFIGURE_DEPENDS "${dir}/*.cpp")
  if(NOT _srcs)
    return()
  endif()
  add_executable(mmdkit_test_${name} ${_srcs})
  target_include_directories(mmdkit_test_${name} PRIVATE "${PROJECT_SOURCE_DIR}/src" "${PROJECT_SOURCE_DIR}/tests")
  target_link_libraries(mmdkit_test_${name} PRIVATE mmdkit_warnings mmdkit_test_support ${ARGN} GTest::gtest_main GTest::gmock)
  # Test data next to the sources (not __FILE__: ccache's base_dir makes it relative).
  target_compile_definitions(mmdkit_test_${name} PRIVATE MMDKIT_TESTS_DIR="${PROJECT_SOURCE_DIR}/tests")
  gtest_discover_tests(mmdkit_test_${name}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT "MMDKIT_TEST_BIN_DIR=${PROJECT_BINARY_DIR}"
    TEST_PREFIX "${name}.")
endfunction()

# Layers and tests. A layer is one folder of src/ (its .cpp files, not recursive) built into one
# static library mmdkit_<name> (alias mmdkit::<name>, installed and exported as mmdkit::<name>);
# a layer is declared by one mmdkit_layer() line in src/CMakeLists.txt (docs/DEVELOPING.md).

# mmdkit_layer(<name> [DIR <folder under src/>] [DEPENDS <layer>...] [PRIVATE <target>...]
#              [SOURCES <file>...])
#   DIR      folder of the sources (default: <name>); its *.cpp are the sources unless SOURCES
#   DEPENDS  mmdkit layers this one uses in its public headers or code (linked PUBLIC)
#   PRIVATE  other targets used only inside the .cpp files (e.g. Bullet, GL); keep them out of
#            include/mmdkit/ (docs/CONVENTIONS.md)
function(mmdkit_layer name)
  cmake_parse_arguments(L "" "DIR" "DEPENDS;PRIVATE;SOURCES" ${ARGN})
  if(NOT L_DIR)
    set(L_DIR "${name}")
  endif()
  set(_srcs ${L_SOURCES})
  if(NOT _srcs)
    file(GLOB _srcs CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/src/${L_DIR}/*.cpp")
  endif()
  if(NOT _srcs)
    message(FATAL_ERROR "mmdkit_layer(${name}): no .cpp files in src/${L_DIR}")
  endif()
  add_library(mmdkit_${name} STATIC ${_srcs})
  add_library(mmdkit::${name} ALIAS mmdkit_${name})
  target_include_directories(mmdkit_${name}
    PUBLIC "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>"
           "$<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>"
           "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>"
    PRIVATE "${PROJECT_SOURCE_DIR}/src")
  target_link_libraries(mmdkit_${name} PRIVATE $<BUILD_INTERFACE:mmdkit_warnings>)
  foreach(d IN LISTS L_DEPENDS)
    target_link_libraries(mmdkit_${name} PUBLIC mmdkit_${d})
  endforeach()
  foreach(p IN LISTS L_PRIVATE)
    target_link_libraries(mmdkit_${name} PRIVATE ${p})
  endforeach()
  set_target_properties(mmdkit_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME ${name})
  set_property(GLOBAL APPEND PROPERTY MMDKIT_LAYERS ${name})
endfunction()

# mmdkit_test(<name> <folder under tests/> <targets to link>...): one GoogleTest executable
# mmdkit_test_<name> from the folder's .cpp files; ctest names <name>.<Suite>.<Test>.
function(mmdkit_test name dir)
  file(GLOB_RECURSE _srcs CONFIGURE_DEPENDS "${dir}/*.cpp")
  if(NOT _srcs)
    return()
  endif()
  add_executable(mmdkit_test_${name} ${_srcs})
  target_include_directories(mmdkit_test_${name} PRIVATE "${PROJECT_SOURCE_DIR}/src" "${PROJECT_SOURCE_DIR}/tests")
  target_link_libraries(mmdkit_test_${name} PRIVATE mmdkit_warnings mmdkit_test_flags mmdkit_test_support ${ARGN} GTest::gtest_main GTest::gmock)
  # Test data next to the sources (not __FILE__: ccache's base_dir makes it relative).
  target_compile_definitions(mmdkit_test_${name} PRIVATE MMDKIT_TESTS_DIR="${PROJECT_SOURCE_DIR}/tests")
  gtest_discover_tests(mmdkit_test_${name}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES ENVIRONMENT "MMDKIT_TEST_BIN_DIR=${PROJECT_BINARY_DIR}"
    TEST_PREFIX "${name}.")
endfunction()

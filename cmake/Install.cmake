# `cmake --install`: the libraries (per-layer static, libmmdkit.a, libmmdkit.so), the public
# headers (+ the generated <mmdkit/version.hpp>), the CLI, docs, man pages, shell completion, the
# CMake package (find_package(mmdkit CONFIG): mmdkit::mmdkit, mmdkit::<layer>, mmdkit::shared,
# mmdkit::static) and pkg-config's mmdkit.pc. Components: `runtime` (the CLI, the shared library,
# docs, man pages, completion) and `dev` (headers, static libraries, CMake and pkg-config files);
# they are the Debian packages mmdkit and mmdkit-dev (cmake/Package.cmake). New layers declared
# with mmdkit_layer() are picked up here without an edit.
include(CMakePackageConfigHelpers)

set(MMDKIT_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/mmdkit")
get_property(_layers GLOBAL PROPERTY MMDKIT_LAYERS)
set(_layer_targets "")
foreach(layer IN LISTS _layers)
  list(APPEND _layer_targets mmdkit_${layer})
endforeach()

install(TARGETS ${_layer_targets} mmdkit mmdkit_static mmdkit_shared
  EXPORT mmdkitTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime NAMELINK_COMPONENT dev
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(TARGETS mmdkit_cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/mmdkit" "${PROJECT_BINARY_DIR}/include/mmdkit"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT dev FILES_MATCHING PATTERN "*.hpp")

install(EXPORT mmdkitTargets NAMESPACE mmdkit:: DESTINATION "${MMDKIT_CMAKE_DIR}" COMPONENT dev)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/mmdkitConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/mmdkitConfig.cmake" INSTALL_DESTINATION "${MMDKIT_CMAKE_DIR}")
# 0.x: a minor version may break the API, so only the same MAJOR.MINOR is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/mmdkitConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/mmdkitConfig.cmake" "${PROJECT_BINARY_DIR}/mmdkitConfigVersion.cmake"
  DESTINATION "${MMDKIT_CMAKE_DIR}" COMPONENT dev)

# pkg-config: `pkg-config --cflags --libs mmdkit` (shared), `--static` adds what libmmdkit.a needs.
# The prefix is found from the .pc file's own folder, so a staged or relocated install works too.
file(RELATIVE_PATH MMDKIT_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" MMDKIT_PC_TO_PREFIX "${MMDKIT_PC_TO_PREFIX}")
# The render layer links libepoxy and FFmpeg's libraries (static linking needs them).
set(MMDKIT_PC_RENDER_REQUIRES "")
if(TARGET mmdkit_render)
  set(MMDKIT_PC_RENDER_REQUIRES " epoxy egl libavcodec libavformat libswscale libswresample libavutil")
endif()
if(MMDKIT_HAS_PHYSICS)
  set(MMDKIT_PC_BULLET " bullet")
else()
  set(MMDKIT_PC_BULLET "")
endif()
configure_file("${PROJECT_SOURCE_DIR}/cmake/mmdkit.pc.in" "${PROJECT_BINARY_DIR}/mmdkit.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/mmdkit.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig" COMPONENT dev)

install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime
  FILES_MATCHING PATTERN "*.md")

# Man pages, generated from the commands' own --help by help2man (one page for mmdkit, one per
# command: mmdkit-info(1), ...), and shell completion (scripts/completion/).
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(_man_dir "${PROJECT_BINARY_DIR}/man")
  add_custom_command(OUTPUT "${_man_dir}/stamp"
    COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${HELP2MAN} -DMMDKIT=$<TARGET_FILE:mmdkit_cli> -DOUT=${_man_dir}
            -DVERSION=${PROJECT_VERSION} -P "${PROJECT_SOURCE_DIR}/cmake/ManPages.cmake"
    DEPENDS mmdkit_cli "${PROJECT_SOURCE_DIR}/cmake/ManPages.cmake"
    COMMENT "Man pages (help2man)")
  add_custom_target(mmdkit_man ALL DEPENDS "${_man_dir}/stamp")
  install(DIRECTORY "${_man_dir}/" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1" COMPONENT runtime
    FILES_MATCHING PATTERN "*.1.gz")
else()
  message(STATUS "help2man not found: no man pages (Debian package help2man)")
endif()
install(FILES "${PROJECT_SOURCE_DIR}/scripts/completion/mmdkit.bash"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" RENAME mmdkit COMPONENT runtime)
install(FILES "${PROJECT_SOURCE_DIR}/scripts/completion/_mmdkit"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions" COMPONENT runtime)

include(cmake/Package.cmake)

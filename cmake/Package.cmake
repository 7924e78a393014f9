# Debian packages (CPack DEB, `cpack -G DEB` in the build folder, scripts/package.sh):
#   mmdkit      the CLI, libmmdkit.so, docs, man pages, shell completion (component runtime)
#   mmdkit-dev  headers, static libraries, CMake package, pkg-config file (component dev)
# Run-time dependencies are found by dpkg-shlibdeps from the binaries; mmdkit-dev adds what a
# consumer's build needs. Optional layers' libraries join the same components by themselves.
set(CPACK_PACKAGE_NAME mmdkit)
set(CPACK_PACKAGE_VENDOR "mmdkit")
set(CPACK_PACKAGE_CONTACT "mmdkit maintainers <mmdkit@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME mmdkit)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME mmdkit-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# The static libraries need libstb and zlib (the .x reader) at link time, and Bullet with the
# physics layer; mmdkitConfig.cmake and mmdkit.pc find them with pkg-config, so their -dev
# packages (the .pc files) are dependencies. The headers need a C++23 compiler (g++ 12).
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "mmdkit (= ${PROJECT_VERSION}), libstb-dev, zlib1g-dev, pkg-config")
if(MMDKIT_HAS_PHYSICS)
  string(APPEND CPACK_DEBIAN_DEV_PACKAGE_DEPENDS ", libbullet-dev")
endif()
if(TARGET mmdkit_render)  # the render layer's static library links EGL/GL (libepoxy) and FFmpeg
  string(APPEND CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
         ", libepoxy-dev, libegl-dev, libavcodec-dev, libavformat-dev, libswscale-dev, libswresample-dev, libavutil-dev")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "g++ (>= 4:12), cmake (>= 3.25)")
if(TARGET mmdkit_render)
  # `mmdkit render` opens EGL at run time: libepoxy dlopens glvnd's libEGL (libegl1), which loads
  # Mesa's EGL vendor library (libegl-mesa0) and its llvmpipe / DRI drivers (libgl1-mesa-dri).
  # dpkg-shlibdeps sees none of them in the binaries, so they are named here (Recommends: the
  # rest of mmdkit works without them; docs/RENDER.md "Stack").
  # FFmpeg's libraries are dlopened when a video is written (src/render/ffmpeg.hpp), so they are
  # not seen either: the packages of the major versions compiled against.
  string(REGEX MATCH "^[0-9]+" _avcodec "${FFMPEG_libavcodec_VERSION}")
  string(REGEX MATCH "^[0-9]+" _avformat "${FFMPEG_libavformat_VERSION}")
  string(REGEX MATCH "^[0-9]+" _avutil "${FFMPEG_libavutil_VERSION}")
  string(REGEX MATCH "^[0-9]+" _swscale "${FFMPEG_libswscale_VERSION}")
  string(REGEX MATCH "^[0-9]+" _swresample "${FFMPEG_libswresample_VERSION}")
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS
      "libegl1, libegl-mesa0, libgl1-mesa-dri, libavcodec${_avcodec}, libavformat${_avformat}, libavutil${_avutil}, libswscale${_swscale}, libswresample${_swresample}")
endif()
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
  "MikuMikuDance files: read, write, check, convert and evaluate (CLI and library)\n The mmdkit command and libmmdkit: VMD motions, VPD poses, PMD and PMX models; lossless\n JSON, checks, conversion, bone/morph evaluation, OBJ export.")
set(CPACK_COMPONENT_DEV_DESCRIPTION
  "MikuMikuDance files: development files for mmdkit\n C++23 headers, static libraries, CMake package (find_package(mmdkit)) and pkg-config file.")
include(CPack)

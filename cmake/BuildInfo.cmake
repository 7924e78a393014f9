# What this build has: the generated <mmdkit/version.hpp> (version, optional layers built), read by
# the CLI (`mmdkit --version`) and installed with the headers; MMDKIT_HAS_<LAYER> also goes into the
# CMake package (cmake/Install.cmake). Included after every layer and the Python module are declared.
# A layer counts as built when its target mmdkit_<layer> exists (the Python module: mmdkit_python).
foreach(layer physics render python)
  string(TOUPPER ${layer} _up)
  if(TARGET mmdkit_${layer})
    set(MMDKIT_HAS_${_up} 1)
  else()
    set(MMDKIT_HAS_${_up} 0)
  endif()
endforeach()
configure_file("${PROJECT_SOURCE_DIR}/cmake/version.hpp.in" "${PROJECT_BINARY_DIR}/include/mmdkit/version.hpp" @ONLY)

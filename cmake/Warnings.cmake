# Warnings as errors for all of mmdkit's own code.
add_library(mmdkit_warnings INTERFACE)
target_compile_options(mmdkit_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough
  -Werror)

# mmdkit's own warnings (target mmdkit_warnings, linked PRIVATE by every mmdkit target). They are
# errors only when MMDKIT_WARNINGS_AS_ERRORS is ON: our presets and CI set it; a consumer's plain
# `cmake -B build` does not, so a new compiler's new warning never breaks someone else's build.
add_library(mmdkit_warnings INTERFACE)
target_compile_options(mmdkit_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough
  $<$<BOOL:${MMDKIT_WARNINGS_AS_ERRORS}>:-Werror>)

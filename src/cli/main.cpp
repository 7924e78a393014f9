#include <iostream>

#include "cli/app.hpp"
#include "mmdkit/core/interrupt.hpp"

int main(int argc, char** argv) {
  // Ctrl-C or kill during a long output removes its temporary file (core/interrupt.hpp).
  mmdkit::install_interrupt_cleanup();
  return mmdkit::cli::run(argc, argv, std::cout, std::cerr);
}

#include <iostream>

#include "cli/app.hpp"

int main(int argc, char** argv) { return mmdkit::cli::run(argc, argv, std::cout, std::cerr); }

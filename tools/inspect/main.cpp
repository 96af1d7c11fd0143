// SPDX-License-Identifier: BSL-1.0
// pksk-inspect: see cli.cpp's usage text, or docs/tools.md "Looking inside a table".
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return pksk::inspect::run(args, std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1);
}

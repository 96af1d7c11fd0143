// SPDX-License-Identifier: BSL-1.0
#pragma once
// pksk-inspect's command line: run() is main() with its streams passed in, so that tests run
// the program's commands in process.

#include <iosfwd>
#include <span>
#include <string>

namespace pksk::inspect {

// Exit statuses: 0 done, 1 the command failed (a missing file, a malformed line, an error of
// the store, tables that differ), 2 the command line is wrong, 130 a copy interrupted (its
// checkpoint continues it). Errors go to `err`, one line each; so does a copy's progress, a bar
// redrawn in place when `err_terminal` (main: when standard error is a terminal).
int run(std::span<const std::string> args, std::ostream& out, std::ostream& err,
        bool err_terminal = false);

}  // namespace pksk::inspect

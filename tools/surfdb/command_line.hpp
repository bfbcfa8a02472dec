// What both programs of the command share: the application's global options, the parse, and the
// turning of every error into one line on standard error and an exit status (0 success, 1 error,
// 2 usage error). `surfdb` holds the commands that read surface databases, meshes and scenarios;
// `surfdb-cad` (cad_main.cpp) holds those that read CAD files, so that only they load OpenCASCADE.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace surfdb::cli {

/// Builds the application with `add_commands`, parses `argv` and runs the chosen command.
int run_command_line(int argc, char** argv, const std::function<void(CLI::App&)>& add_commands);

}  // namespace surfdb::cli

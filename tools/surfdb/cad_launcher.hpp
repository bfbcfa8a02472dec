// `surfdb` runs the CAD commands by replacing itself with surfdb-cad on the same command line, so
// the user sees one command and surfdb-cad's output, errors and exit status are the command's.
#pragma once

#include "cad_commands.hpp"

namespace surfdb::cli {

/// The CAD command `argv` chooses (its first argument that is not an option), or nullptr.
const CadCommand* chosen_cad_command(int argc, char** argv);

/// Replaces this process with surfdb-cad given `argv` (its first element made surfdb-cad's path). surfdb-cad is looked for beside
/// this program (the build tree) and then in the installed libexec directory. Throws
/// std::runtime_error naming the paths tried when neither can be run.
[[noreturn]] void run_cad_program(char** argv);

}  // namespace surfdb::cli

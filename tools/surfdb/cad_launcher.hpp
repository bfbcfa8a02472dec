// `surfdb` runs the CAD commands by replacing itself with surfdb-cad on the same command line, so
// the user sees one command and surfdb-cad's output, errors and exit status are the command's.
#pragma once

namespace surfdb::cli {

/// Replaces this process with surfdb-cad given `argv` (its first element made surfdb-cad's path).
/// surfdb-cad is looked for beside this program (the build tree) and then in the installed libexec
/// directory. Throws std::runtime_error naming the paths tried when neither can be run.
[[noreturn]] void run_cad_program(char** argv);

}  // namespace surfdb::cli

// surfdb-cad: the commands of `surfdb` that read CAD files (cad_commands.hpp). `surfdb` runs it on
// its own command line; users call `surfdb`.
#include <CLI/CLI.hpp>

#include "command_line.hpp"
#include "commands.hpp"

namespace {

void add_commands(CLI::App& app) {
  surfdb::cli::add_convert_command(app);
  surfdb::cli::add_mesh_command(app);
  surfdb::cli::add_assemble_command(app);
}

}  // namespace

int main(int argc, char** argv) { return surfdb::cli::run_command_line(argc, argv, add_commands); }

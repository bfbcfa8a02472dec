// surfdb: convert CAD surfaces to surface databases, inspect, verify and query them, mesh parts,
// simulate, sweep parameters. The CAD commands run in surfdb-cad (cad_commands.hpp).
#include <CLI/CLI.hpp>

#include "cad_commands.hpp"
#include "cad_launcher.hpp"
#include "command_line.hpp"
#include "commands.hpp"

namespace {

// A CAD command's entry in the help. Chosen, it takes everything after it as it is (its own
// --help too) and hands the whole command line over to surfdb-cad, which parses it.
void add_cad_command(CLI::App& app, const surfdb::cli::CadCommand& command, char** argv) {
  CLI::App* cmd = app.add_subcommand(command.name, command.description);
  cmd->set_help_flag();
  cmd->prefix_command();
  cmd->callback([argv] { surfdb::cli::run_cad_program(argv); });
}

void add_commands(CLI::App& app, char** argv) {
  using namespace surfdb::cli;
  add_cad_command(app, kConvertCommand, argv);
  add_info_command(app);
  add_verify_command(app);
  add_query_command(app);
  add_project_command(app);
  add_export_command(app);
  add_simulate_command(app);
  add_cad_command(app, kMeshCommand, argv);
  add_cad_command(app, kAssembleCommand, argv);
  add_sweep_command(app);
}

}  // namespace

int main(int argc, char** argv) {
  return surfdb::cli::run_command_line(argc, argv, [argv](CLI::App& app) { add_commands(app, argv); });
}

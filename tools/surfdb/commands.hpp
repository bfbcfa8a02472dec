// The subcommands of `surfdb`. Each adds itself to the application; its callback throws
// std::exception with a message a user can act on, which main() prints as one line.
#pragma once

#include <stdexcept>

namespace CLI {
class App;
}

namespace surfdb::cli {

/// A wrong option, option value or combination of options: main() exits with status 2.
class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// An error that rank 0 of the same MPI job reports (every rank finds a bad sweep file alike):
/// main() prints nothing and exits with status 0, so the message appears once. Rank 0 exits
/// with 1, and mpirun with it; a rank exiting with 1 first would have mpirun kill rank 0,
/// sometimes before its message was out.
class ReportedElsewhere : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void add_convert_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_query_command(CLI::App& app);
void add_project_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_simulate_command(CLI::App& app);
void add_mesh_command(CLI::App& app);
void add_assemble_command(CLI::App& app);
void add_sweep_command(CLI::App& app);

}  // namespace surfdb::cli

// The subcommands of `surfdb`. Each adds itself to the application; its callback throws
// std::exception with a message a user can act on, which main() prints as one line.
#pragma once

namespace CLI {
class App;
}

namespace surfdb::cli {

void add_convert_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_query_command(CLI::App& app);
void add_project_command(CLI::App& app);
void add_export_command(CLI::App& app);
void add_simulate_command(CLI::App& app);

}  // namespace surfdb::cli

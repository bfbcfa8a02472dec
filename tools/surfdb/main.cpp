// surfdb: convert CAD surfaces to surface databases, inspect, verify and query them, mesh parts,
// simulate, sweep parameters.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>

#include "commands.hpp"
#include "log.hpp"
#include "signal_cleanup.hpp"

int main(int argc, char** argv) {
  surfdb::cli::install_signal_cleanup();  // interrupted runs remove their temporary files
  CLI::App app{"surfdb: precomputed surface lookup tables for contact in multibody dynamics"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "surfdb " SURFDB_VERSION, "Print the version and exit");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "Log more detail on standard error");
  surfdb::cli::add_convert_command(app);
  surfdb::cli::add_info_command(app);
  surfdb::cli::add_verify_command(app);
  surfdb::cli::add_query_command(app);
  surfdb::cli::add_project_command(app);
  surfdb::cli::add_export_command(app);
  surfdb::cli::add_simulate_command(app);
  surfdb::cli::add_mesh_command(app);
  surfdb::cli::add_assemble_command(app);
  surfdb::cli::add_sweep_command(app);
  app.parse_complete_callback([&] { surfdb::cli::init_logging(verbose); });
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (app.get_subcommands().empty() && argc > 1 && argv[1][0] != '-') {
      std::string names;
      for (const CLI::App* c : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + c->get_name();
      std::fprintf(stderr, "surfdb: usage error: unknown command '%s': the commands are %s (see --help)\n", argv[1],
                   names.c_str());
    } else {
      std::fprintf(stderr, "surfdb: usage error: %s (see --help)\n", e.what());
    }
    return 2;
  } catch (const surfdb::cli::UsageError& e) {
    std::fprintf(stderr, "surfdb: usage error: %s (see --help)\n", e.what());
    return 2;
  } catch (const surfdb::cli::ReportedElsewhere&) {
    return 0;  // rank 0 reports the error and fails the job
  } catch (const std::exception& e) {
    std::fprintf(stderr, "surfdb: error: %s\n", e.what());
    return 1;
  }
  return 0;
}

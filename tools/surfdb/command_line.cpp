#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>

#include "commands.hpp"
#include "log.hpp"
#include "signal_cleanup.hpp"

namespace surfdb::cli {

int run_command_line(int argc, char** argv, const std::function<void(CLI::App&)>& add_commands) {
  install_signal_cleanup();  // interrupted runs remove their temporary files
  CLI::App app{"surfdb: precomputed surface lookup tables for contact in multibody dynamics", "surfdb"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "surfdb " SURFDB_VERSION, "Print the version and exit");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "Log more detail on standard error");
  add_commands(app);
  app.parse_complete_callback([&] { init_logging(verbose); });
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
  } catch (const UsageError& e) {
    std::fprintf(stderr, "surfdb: usage error: %s (see --help)\n", e.what());
    return 2;
  } catch (const ReportedElsewhere&) {
    return 0;  // rank 0 reports the error and fails the job
  } catch (const std::exception& e) {
    std::fprintf(stderr, "surfdb: error: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace surfdb::cli

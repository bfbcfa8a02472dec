#include "cad_launcher.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace surfdb::cli {

void run_cad_program(char** argv) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("cannot find this program's own path to run surfdb-cad: " + error.message());
  const fs::path candidates[] = {self.parent_path() / "surfdb-cad",
                                 self.parent_path() / SURFDB_LIBEXEC_FROM_BINDIR / "surfdb-cad"};
  std::string tried;
  char* const name = argv[0];
  for (const fs::path& program : candidates) {
    argv[0] = const_cast<char*>(program.c_str());  // the loader's messages name the program that failed
    ::execv(program.c_str(), argv);                 // returns only on failure
    tried += (tried.empty() ? "" : ", ") + program.lexically_normal().string() + " (" + std::strerror(errno) + ")";
  }
  argv[0] = name;
  throw std::runtime_error("cannot run surfdb-cad, the program of the CAD commands: tried " + tried +
                           "; reinstall surfdb");
}

}  // namespace surfdb::cli

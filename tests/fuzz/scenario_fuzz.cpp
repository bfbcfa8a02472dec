// libFuzzer target: any bytes as a scenario file. The reader must refuse with ScenarioError (or
// accept) without crashing, hanging or undefined behaviour. Run: scripts/fuzz.sh.
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "surfdb/scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/surfdb-scenario-fuzz-" + std::to_string(::getpid()) + ".toml";
  static const struct Cleanup {
    ~Cleanup() { ::unlink(path.c_str()); }
  } cleanup;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    surfdb::load_scenario(path);
  } catch (const surfdb::ScenarioError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}

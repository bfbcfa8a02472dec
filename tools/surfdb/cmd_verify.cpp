// surfdb verify: every checksum of a surface database; exit 0 when intact.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <stdexcept>

#include "commands.hpp"
#include "surfdb/formats/integrity.hpp"
#include "surfdb/table/database.hpp"

namespace surfdb::cli {

void add_verify_command(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("verify", "Check every checksum of a surface database");
  cmd->add_option("FILE", *file, "Surface database (.sdb)")->required();
  cmd->callback([file] {
    const auto db = Database::open(*file);  // header and checksum table
    if (const std::uint64_t bad = db->first_damaged_record())
      throw std::runtime_error(*file + ": data record " + std::to_string(bad) +
                               " is damaged (checksum mismatch, non-finite values or malformed flags)");
    if (const std::uint64_t k = first_nonzero_unused_byte(db->bytes(), db->header()))
      throw std::runtime_error(*file + ": byte " + std::to_string(k) +
                               " is not zero, in bytes the format leaves unused and zero (damage no hash covers)");
    std::printf("%s: intact (header, checksum table and %llu data records)\n", file->c_str(),
                static_cast<unsigned long long>(db->layout().data_records));
  });
}

}  // namespace surfdb::cli

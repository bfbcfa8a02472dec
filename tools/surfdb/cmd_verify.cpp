// surfdb verify: every checksum of a surface database, or of every table of a surface set and its
// manifest; exit 0 when intact.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <stdexcept>

#include "commands.hpp"
#include "surfdb/formats/integrity.hpp"
#include "surfdb/formats/surface_set.hpp"
#include "surfdb/table/database.hpp"

namespace surfdb::cli {
namespace {

// Every byte of one table; returns its data records. `name` prefixes the messages.
std::uint64_t verify_table(const std::string& path, const std::string& name) {
  const auto db = Database::open(path);  // header and checksum table
  if (const std::uint64_t bad = db->first_damaged_record())
    throw std::runtime_error(name + ": data record " + std::to_string(bad) +
                             " is damaged (checksum mismatch, non-finite values or malformed flags)");
  if (const std::uint64_t k = first_nonzero_unused_byte(db->bytes(), db->header()))
    throw std::runtime_error(name + ": byte " + std::to_string(k) +
                             " is not zero, in bytes the format leaves unused and zero (damage no hash covers)");
  return db->layout().data_records;
}

void verify_set(const std::filesystem::path& dir) {
  const SetManifest m = read_surface_set(dir).manifest;  // the manifest and every table's header against it
  std::uint64_t records = 0;
  for (const SetFace& f : m.faces)
    records += verify_table((dir / f.file).string(), dir.string() + ", face " + std::to_string(f.index) + " (" + f.file + ")");
  std::printf("%s: intact (manifest and %zu tables, %llu data records)\n", dir.c_str(), m.faces.size(),
              static_cast<unsigned long long>(records));
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("verify", "Check every checksum of a surface database or surface set");
  cmd->add_option("FILE", *file, "Surface database (.sdb) or surface set (.sdbs directory)")->required();
  cmd->callback([file] {
    if (is_surface_set_path(*file)) return verify_set(*file);
    const std::uint64_t records = verify_table(*file, *file);
    std::printf("%s: intact (header, checksum table and %llu data records)\n", file->c_str(),
                static_cast<unsigned long long>(records));
  });
}

}  // namespace surfdb::cli

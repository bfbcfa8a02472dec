// surfdb verify: every checksum of a surface database, or of every table of a surface set and its
// manifest, or of a mesh file with its indices and coordinates; exit 0 when intact.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <stdexcept>

#include "commands.hpp"
#include "surfdb/formats/integrity.hpp"
#include "surfdb/formats/mesh_file.hpp"
#include "surfdb/formats/surface_set.hpp"
#include "surfdb/formats/mesh_report.hpp"
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

// The whole file as the reader checks it (header, block checksums, coordinates, indices), then
// what its edges say: an open or inconsistent mesh is intact, only not a solid's boundary.
void verify_mesh(const std::string& path) {
  const MeshData m = read_mesh_file(path);
  const MeshReport q = mesh_report(m);
  std::string shape = q.closed() && q.consistent() ? "closed and consistently oriented" : "";
  if (!q.closed()) shape = std::to_string(q.open_edges) + " open edges";
  if (q.non_manifold_edges) shape += (shape.empty() ? "" : ", ") + std::to_string(q.non_manifold_edges) + " non-manifold edges";
  if (q.misoriented_edges) shape += (shape.empty() ? "" : ", ") + std::to_string(q.misoriented_edges) + " misoriented edges";
  std::printf("%s: intact (header, %llu vertices and %llu triangles; %s)\n", path.c_str(),
              static_cast<unsigned long long>(q.vertices), static_cast<unsigned long long>(q.triangles), shape.c_str());
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("verify", "Check every checksum of a surface database, surface set or mesh file");
  cmd->add_option("FILE", *file, "Surface database (.sdb), surface set (.sdbs directory) or mesh file (.mesh)")->required();
  cmd->callback([file] {
    if (is_surface_set_path(*file)) return verify_set(*file);
    if (is_mesh_file(*file) || std::filesystem::path(*file).extension() == ".mesh") return verify_mesh(*file);
    const std::uint64_t records = verify_table(*file, *file);
    std::printf("%s: intact (header, checksum table and %llu data records)\n", file->c_str(),
                static_cast<unsigned long long>(records));
  });
}

}  // namespace surfdb::cli

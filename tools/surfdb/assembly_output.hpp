// The files `surfdb assemble` writes into DIR: per distinct part a surface set and a closed mesh
// in its body frame (parts/NAME.sdbs, parts/NAME.mesh), then scene.toml and assembly.json. All go
// into a hidden temporary directory beside DIR, renamed into place when complete; a failure or a
// signal (SIGINT, SIGTERM, SIGHUP) removes it, leaving nothing behind.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "surfdb/formats/mesh_file.hpp"
#include "surfdb/libsurfdb/surface_set_writer.hpp"

namespace surfdb::cli {

struct PartOutput {
  std::string name;  // the part's
  CadModel model;    // in its body frame
  SurfaceSetOptions set;
  std::vector<PlannedFace> faces;
  MeshData mesh;
  std::uint64_t set_bytes = 0, mesh_bytes = 0;
};

struct PartOutputOptions {
  std::optional<double> spacing;     // mm; default: each part's box diagonal / 100
  std::optional<double> deflection;  // mm; default: each part's box diagonal / 500
  unsigned threads = 0;
};

/// Plans the part's set (grids from the spacing) and meshes it, refusing a mesh that does not
/// close (naming the part); the mesh is refined for the polygonal model.
PartOutput prepare_part(std::string name, CadModel model, const PartOutputOptions& options);

/// Writes the parts, then the two files, into a temporary directory and renames it onto `dir`
/// (missing or empty). `progress(done, total)` over the tables' records and the parts.
void write_assembly_directory(const std::filesystem::path& dir, std::vector<PartOutput>& parts,
                              const std::string& scene, const std::string& json,
                              const std::function<void(std::uint64_t, std::uint64_t)>& progress);

/// Refuses a DIR that exists and is not an empty directory, or whose parent is missing.
void check_assembly_destination(const std::filesystem::path& dir);

}  // namespace surfdb::cli

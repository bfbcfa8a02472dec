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
  double diagonal = 0;  // of its bounding box, mm
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

/// Plans the part's set: each face's grid from the spacing, and the tables' size.
PartOutput plan_part(std::string name, CadModel model, const PartOutputOptions& options);

/// Meshes the planned part, refusing a mesh that does not close (naming the part), and refines
/// the mesh for the polygonal model.
void mesh_part(PartOutput& part, const PartOutputOptions& options);

/// The units of work write_assembly_directory reports progress in: the tables' records and a
/// thousand per part.
std::uint64_t writing_work(const std::vector<PartOutput>& parts);

/// Writes the parts, then the two files, into a temporary directory and renames it onto `dir`
/// (missing or empty). `progress(done)` in units of writing_work.
void write_assembly_directory(const std::filesystem::path& dir, std::vector<PartOutput>& parts,
                              const std::string& scene, const std::string& json,
                              const std::function<void(std::uint64_t)>& progress);

/// Refuses a DIR that exists and is not an empty directory, or whose parent is missing.
void check_assembly_destination(const std::filesystem::path& dir);

}  // namespace surfdb::cli

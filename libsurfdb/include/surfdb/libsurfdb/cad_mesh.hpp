// Triangle meshes of CAD parts and STL files, for the polygonal contact model: OpenCASCADE's
// BRepMesh_IncrementalMesh triangulates the faces, which are joined into one mesh with outward
// triangles (mesh_report.hpp merges, cleans and judges it). No OpenCASCADE type crosses this header.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "surfdb/formats/mesh_file.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/formats/mesh_report.hpp"

namespace surfdb {

struct CadMeshOptions {
  /// Largest distance between a triangle and the surface it stands for, in the part's length
  /// unit (BRepMesh's linear deflection). Must be > 0.
  double linear_deflection = 0;
  /// Largest angle between the normals at the ends of a triangle edge, in radians (BRepMesh's
  /// angular deflection). Must be > 0.
  double angular_deflection = 0.5;
  /// The face to mesh alone (1-based, as `convert --face` numbers them); 0 meshes every face.
  std::uint32_t face = 0;
  /// With face 0: the faces to mesh together (1-based, ascending); empty meshes every face.
  std::vector<std::uint32_t> faces;
};

struct MeshResult {
  MeshData mesh;
  MeshReport report;
  /// Faces BRepMesh gave no triangles (their area is missing from the mesh), ascending.
  std::vector<std::uint32_t> faces_without_triangles;
};

/// (done, total) while meshing.
using MeshProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

/// Meshes one face or every face of the part, merges the vertices the faces share, removes
/// degenerate triangles and orients every triangle out of the material (reversed faces turned
/// over; a closed, consistent mesh whose volume comes out negative turned over whole). The
/// faces' triangulations in `model` are replaced. Throws CadError for a deflection or angle that
/// is not positive and finite, a face that does not exist, or a part where no face gives a triangle
/// (or every triangle is degenerate).
MeshResult mesh_cad_model(const CadModel& model, const CadMeshOptions& options, const MeshProgress& progress = {});

/// Reads an ASCII or binary STL file with OpenCASCADE (RWStl), merges its repeated vertices and
/// cleans and orients it as mesh_cad_model does. STL has no unit: millimetres are assumed.
/// Throws CadError when the file is missing, unreadable or holds no triangle.
MeshResult read_stl_mesh(const std::filesystem::path& path);

}  // namespace surfdb

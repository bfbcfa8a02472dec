// The mesh file (.mesh): a triangulated surface, its vertices as binary64 and its triangles as
// vertex indices, behind a checksummed little-endian header. docs/format.md ("Mesh files (.mesh)")
// is the specification; this file is its reference implementation.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "surfdb/formats/header.hpp"

namespace surfdb {

inline constexpr std::uint32_t kMeshFormatVersion = 1;
inline constexpr std::size_t kMeshHeaderBytes = 512;
/// The most vertices, and the most triangles, one file holds (indices are u32).
inline constexpr std::uint64_t kMaxMeshElements = 4294967295;

/// A closed or open triangulated surface as stored in a .mesh file.
struct MeshData {
  LengthUnit length_unit = LengthUnit::millimetre;  // the unit of the vertices
  std::vector<std::array<double, 3>> vertices;      // file unit
  /// Vertex indices; (b - a) x (c - a) points out of the solid (outward normal).
  std::vector<std::array<std::uint32_t, 3>> triangles;
  std::string source_kind;  // "step", "iges", "brep", "stl", "table"... (stored up to 31 bytes)
  std::string source_name;  // input file name without directories (stored up to 255 bytes)
};

/// Writes atomically (temporary file beside the destination, fsync, rename, as the record files);
/// byte-identical for equal input. Throws FormatError naming the file when the mesh cannot be
/// stored as it is (no triangle, too many elements, an index out of range, a repeated corner, a
/// coordinate not finite: what read_mesh_file would refuse) or the file cannot be written.
void write_mesh_file(const std::filesystem::path& path, const MeshData& mesh);

/// Reads and validates the whole file (magic, byte order, version, header hash, sizes, file
/// length, strings, block checksums, finite coordinates, indices in range), in the order of
/// docs/format.md. Throws FormatError naming the file and the first problem.
MeshData read_mesh_file(const std::filesystem::path& path);

/// Whether the file starts with the mesh magic ("SURFMESH"); false when it cannot be read.
bool is_mesh_file(const std::filesystem::path& path);

/// The bytes write_mesh_file puts in the file (for tests and in-memory checks). Throws
/// FormatError, without a file name, for a mesh that cannot be stored.
std::vector<std::uint8_t> encode_mesh(const MeshData& mesh);

/// Decodes and validates the bytes of a whole mesh file. Throws FormatError, without a file name,
/// naming the first problem.
MeshData decode_mesh(const std::vector<std::uint8_t>& bytes);

}  // namespace surfdb

// A surface set (`NAME.sdbs`): a directory holding one surface database per face of a part and
// a `manifest.json` describing them (face numbers, surface types, orientations, bounding boxes,
// which faces share an edge) with a checksum of each table's header. docs/surface-set.md is the
// specification; this file is its reference implementation.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "surfdb/formats/header.hpp"
#include "surfdb/formats/set_edges.hpp"

namespace surfdb {

inline constexpr std::uint32_t kSurfaceSetVersion = 3;  // writers write it; readers read 1 to 3
inline constexpr const char* kManifestName = "manifest.json";

/// Axis-aligned box, in the part's length unit.
struct Box3 {
  std::array<double, 3> min{}, max{};
};

/// One face of the part stored in the set.
struct SetFace {
  std::uint32_t index = 0;  // face number in the part, 1-based (the order `--list-faces` shows)
  std::string file;         // the table's file name inside the set directory (no directories)
  std::string surface_type;
  FaceOrientation orientation = FaceOrientation::forward;
  Box3 bounding_box;                   // of the trimmed face, in the part's length unit
  std::vector<std::uint32_t> adjacent;  // faces of the part sharing an edge with it, ascending
  std::uint64_t u_points = 0, v_points = 0;  // the table's grid
  std::uint64_t header_checksum = 0;         // XXH64 of the table's first 1024 bytes
};

/// A face of the part left out of the set (`--skip-bad-faces`), with the reason.
struct SkippedFace {
  std::uint32_t index = 0;
  std::string reason;
};

/// The manifest's entry for the set's edges file (version 2).
struct SetEdgesEntry {
  std::string file = kEdgesName;
  std::uint64_t count = 0;     // edges listed in the file
  std::uint64_t checksum = 0;  // XXH64 (seed 0) of the whole file
};

/// The part's mass frame (version 3): where its closed solids' centre of mass and principal axes
/// lie in the part's coordinates, and their volume integrals at unit density, in the part's
/// length unit. A body's frame: origin at the centre, axes the principal axes.
struct SetMassFrame {
  double volume = 0;                        // unit^3
  std::array<double, 3> centre{};           // unit, part coordinates
  std::array<std::array<double, 3>, 3> axes{};  // unit vectors in part coordinates, right-handed, in the moments' order
  std::array<double, 3> moments{};          // unit^5 (unit density), about the centre, ascending
};

struct SetManifest {
  std::uint32_t format_version = kSurfaceSetVersion;
  std::string source_kind;  // "step", "iges", "brep", "nurbs"
  std::string source_name;  // the part's file name without directories
  std::uint32_t part_faces = 0;  // faces of the whole part
  LengthUnit length_unit = LengthUnit::millimetre;
  std::optional<double> spacing;  // the target node spacing the grids were chosen for, if any
  std::vector<SetFace> faces;     // ascending face number
  std::vector<SkippedFace> skipped;
  std::optional<SetEdgesEntry> edges;  // version 2; a version 1 set has none
  std::optional<SetMassFrame> mass_frame;  // version 3; none for a part without closed solids

  /// The face with part face number `index`, or nullptr when the set does not hold it.
  const SetFace* find(std::uint32_t index) const;
};

/// The table file name of face `index` in a set: "face_0007.sdb" (at least four digits).
std::string set_table_name(std::uint32_t index);

/// XXH64 of a table's header record (its first kHeaderBytes bytes).
std::uint64_t header_checksum(std::span<const std::uint8_t> first_bytes);

/// The manifest as JSON text: keys sorted, numbers in shortest round-trip form, two-space indent,
/// a final newline. The same manifest always gives the same bytes.
std::string encode_manifest(const SetManifest& m);

/// Parses and checks a manifest (version, field types, face numbers ascending and within the
/// part, file names without directories). Throws FormatError naming `where` and the problem.
SetManifest decode_manifest(std::string_view text, const std::string& where);

/// A set as read: its manifest and the decoded header of each face's table, in manifest order.
struct SurfaceSet {
  SetManifest manifest;
  std::vector<Header> headers;
  std::vector<SetEdge> edges;  // from the edges file, checked against the manifest; none in version 1
};

/// Reads `set_dir`/manifest.json and checks the set's structure against it: every listed table
/// exists, is a regular file, has a valid header whose checksum matches the manifest and whose
/// source (file name, face number) is the manifest's; the edges file (version 2) exists, matches
/// its checksum and count and is valid; no other file lies in the directory.
/// The tables' data records are not read (`surfdb verify` does that). Throws FormatError naming
/// the set, the face and the file.
SurfaceSet read_surface_set(const std::filesystem::path& set_dir);

/// True when `path` is a directory (a surface set is one; a table never is).
bool is_surface_set_path(const std::filesystem::path& path);

}  // namespace surfdb

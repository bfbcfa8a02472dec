// Converting several faces of a part into a surface set (docs/surface-set.md): one table per
// face, the edges bounding them, a manifest with each face's bounding box and neighbours, the whole directory written
// beside its destination and renamed into place, so a set appears complete or not at all.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "surfdb/formats/surface_set.hpp"
#include "surfdb/formats/temporary_file.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/libsurfdb/converter.hpp"

namespace surfdb {

struct SurfaceSetOptions {
  ConvertOptions table;              // grid (unless spacing), record size, scalar type, threads
  std::vector<std::uint32_t> faces;  // face numbers to convert, ascending; empty: every face
  std::optional<double> spacing;     // choose each face's grid for this node spacing (length unit)
  std::uint64_t max_grid = 999;      // most nodes per direction a spacing may ask for
  bool skip_bad_faces = false;       // leave out faces that cannot be sampled, with the reason
  bool replace_existing = false;     // replace an existing surface set at the destination
};

/// The grid and record size each chosen face will get, before anything is sampled or written.
struct PlannedFace {
  std::uint32_t index = 0;
  GridSize grid;
  RecordSize record;
};
std::vector<PlannedFace> plan_surface_set(const CadModel& model, const SurfaceSetOptions& options);

/// What the writer reports while it works.
struct SetObserver {
  std::function<void(std::size_t position, std::size_t count, std::uint32_t face)> face_started;
  ConvertProgress face_progress;
  std::function<void(std::uint32_t face, const std::string& reason)> face_skipped;
};

struct SurfaceSetReport {
  SetManifest manifest;
  std::uint64_t bytes = 0;  // of all tables
};

/// Throws FormatError unless `destination` may receive a set: missing, an empty directory, or
/// (with replace_existing) a directory holding only a set's files (manifest.json, face_*.sdb,
/// and index.csv from older versions). Nothing else is ever replaced.
void check_set_destination(const std::filesystem::path& destination, bool replace_existing);

/// Converts the planned faces into a temporary directory beside `destination`, writes the
/// manifest and renames the directory into place. A face that cannot be sampled
/// (DegenerateGeometry) fails the whole set naming the face, or with skip_bad_faces is listed in
/// the manifest's skipped faces; a set with no face written is refused. On any error nothing is
/// left behind.
SurfaceSetReport write_surface_set(const CadModel& model, const std::vector<PlannedFace>& plan,
                                   const SurfaceSetOptions& options, const std::filesystem::path& destination,
                                   const SetObserver& observer = {});

// The writer's steps, for writers that share the faces among processes (`surfdb convert` under
// mpirun): each converts its faces into the same temporary directory, one of them then lists the
// tables and finishes the set.

/// A face converted into `directory`: its manifest entry and table size, or (skip_bad_faces) why
/// it was left out. Any other failure throws naming the face.
struct FaceOutcome {
  std::optional<SetFace> face;
  std::optional<SkippedFace> skipped;
  std::uint64_t bytes = 0;
};
FaceOutcome convert_set_face(const CadModel& model, const PlannedFace& face, const SurfaceSetOptions& options,
                             const std::filesystem::path& directory, const ConvertProgress& progress = {});

/// The manifest entry of face `index` from its table in `directory` (converted by another process).
SetFace set_face_of_table(const CadModel& model, std::uint32_t index, const std::filesystem::path& directory);

/// A manifest of no faces yet: the part's kind, name, face count, unit and the spacing asked for.
SetManifest set_manifest(const CadModel& model, const SurfaceSetOptions& options);

/// Tabulates the edges of the manifest's faces (edge_sampling.hpp) and writes them and the
/// manifest, which lists them, into the filled temporary directory, then renames it onto
/// `destination`; refuses a set of no faces. The caller removes the directory when this throws.
void finish_surface_set(const CadModel& model, SetManifest& manifest, TemporaryDirectory& directory,
                        const std::filesystem::path& destination, bool replace_existing);

}  // namespace surfdb

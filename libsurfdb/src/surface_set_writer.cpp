#include "surfdb/libsurfdb/surface_set_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/error.hpp"
#include "surfdb/formats/temporary_file.hpp"
#include "surfdb/libsurfdb/edge_sampling.hpp"
#include "surfdb/libsurfdb/grid_spacing.hpp"
#include "surfdb/libsurfdb/node_geometry.hpp"

namespace surfdb {
namespace {

bool set_file_name(const std::string& name) {
  const bool table = name.size() > 9 && name.rfind("face_", 0) == 0 && name.ends_with(".sdb");
  return table || name == kManifestName || name == kEdgesName || name == "index.csv";
}

std::vector<std::uint32_t> chosen_faces(const CadModel& model, const SurfaceSetOptions& options) {
  if (options.faces.empty()) {
    std::vector<std::uint32_t> all(model.face_count());
    for (std::uint32_t f = 0; f < model.face_count(); ++f) all[f] = f + 1;
    return all;
  }
  for (const std::uint32_t f : options.faces) (void)model.face_info(f);  // throws CadError for a bad number
  return options.faces;
}

// The manifest's entry for a face: its table's header and the checksum of its encoding.
SetFace set_face(const CadModel& model, std::uint32_t index, const std::string& file, const Header& header,
                 std::uint64_t checksum_of_header) {
  const FaceInfo info = model.face_info(index);
  SetFace face;
  face.index = index;
  face.file = file;
  face.surface_type = info.surface_type;
  face.orientation = info.orientation;
  face.bounding_box = model.bounding_box(index);
  face.adjacent = info.adjacent;
  face.u_points = header.layout.u_points;
  face.v_points = header.layout.v_points;
  face.header_checksum = checksum_of_header;
  return face;
}

// Written and flushed to the disk before the directory is renamed into place, like the tables.
void write_flushed(const std::string& text, const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = fd >= 0 && ::fsync(fd) == 0 && ok;
  const int error = errno;
  if (fd >= 0) ::close(fd);
  if (!ok) throw FormatError("cannot write " + path.string() + ": " + std::strerror(error));
}

}  // namespace

std::vector<PlannedFace> plan_surface_set(const CadModel& model, const SurfaceSetOptions& options) {
  std::vector<PlannedFace> plan;
  for (const std::uint32_t f : chosen_faces(model, options)) {
    const GridSize grid =
        options.spacing ? grid_for_spacing(*model.face(f), *options.spacing, options.max_grid) : options.table.grid;
    plan.push_back({f, grid, record_within(options.table.record, grid)});
  }
  return plan;
}

void check_set_destination(const std::filesystem::path& destination, bool replace_existing) {
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::absolute(destination).parent_path();
  const auto parent_status = std::filesystem::status(parent, ec);
  if (!std::filesystem::is_directory(parent_status))
    throw FormatError("cannot write the set " + destination.string() + ": " + parent.string() +
                      (std::filesystem::exists(parent_status) ? " is not a directory" : " does not exist"));
  const auto status = std::filesystem::status(destination, ec);
  if (!std::filesystem::exists(status)) return;
  if (!std::filesystem::is_directory(status))
    throw FormatError("cannot write the set " + destination.string() + ": a file of that name exists, not a directory");
  for (const auto& entry : std::filesystem::directory_iterator(destination, ec)) {
    const std::string name = entry.path().filename().string();
    if (!replace_existing)
      throw FormatError("cannot write the set " + destination.string() +
                        ": the directory is not empty (give --force to replace a surface set)");
    if (!set_file_name(name) || !entry.is_regular_file())
      throw FormatError("cannot replace " + destination.string() + ": it holds " + name +
                        ", which is not part of a surface set (only sets are replaced)");
  }
}

FaceOutcome convert_set_face(const CadModel& model, const PlannedFace& p, const SurfaceSetOptions& options,
                             const std::filesystem::path& directory, const ConvertProgress& progress) {
  ConvertOptions table = options.table;
  table.grid = p.grid;
  table.record = p.record;
  const std::string file = set_table_name(p.index);
  FaceOutcome out;
  try {
    const Header header = convert_surface(*model.face(p.index), table, directory / file, progress).header;
    out.bytes = header.layout.file_bytes;
    out.face = set_face(model, p.index, file, header, header_checksum(encode_header(header)));
  } catch (const DegenerateGeometry& e) {
    if (!options.skip_bad_faces)
      throw DegenerateGeometry("face " + std::to_string(p.index) + ": " + e.what() +
                               " (--skip-bad-faces leaves such faces out of the set)");
    out.skipped = SkippedFace{p.index, e.what()};
  } catch (const std::exception& e) {
    throw FormatError("face " + std::to_string(p.index) + ": " + e.what());
  }
  return out;
}

SetFace set_face_of_table(const CadModel& model, std::uint32_t index, const std::filesystem::path& directory) {
  const std::string file = set_table_name(index);
  const std::filesystem::path path = directory / file;
  std::array<std::uint8_t, kHeaderBytes> bytes{};
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const bool ok = fd >= 0 && ::read(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  const int error = errno;
  if (fd >= 0) ::close(fd);
  if (!ok) throw FormatError("cannot read " + path.string() + ": " + std::strerror(error));
  return set_face(model, index, file, decode_header(bytes, std::filesystem::file_size(path)), header_checksum(bytes));
}

SetManifest set_manifest(const CadModel& model, const SurfaceSetOptions& options) {
  SetManifest m;
  m.source_kind = model.kind();
  m.source_name = model.file_name();
  m.part_faces = model.face_count();
  m.length_unit = model.unit();
  m.spacing = options.spacing;
  m.mass_frame = model.mass_frame();
  return m;
}

void finish_surface_set(const CadModel& model, SetManifest& manifest, TemporaryDirectory& directory,
                        const std::filesystem::path& destination, bool replace_existing) {
  if (manifest.faces.empty())
    throw FormatError("no face of " + manifest.source_name + " could be converted: the set " + destination.string() +
                      " was not written");
  std::vector<std::uint32_t> faces;
  for (const SetFace& f : manifest.faces) faces.push_back(f.index);
  const std::vector<SetEdge> edges = sample_set_edges(model, faces, manifest.spacing);
  const std::string text = encode_edges(edges);
  write_flushed(text, directory.path / kEdgesName);
  manifest.edges = SetEdgesEntry{kEdgesName, edges.size(),
                                 checksum({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()})};
  write_flushed(encode_manifest(manifest), directory.path / kManifestName);
  commit_temporary_directory(directory, replace_existing);
}

SurfaceSetReport write_surface_set(const CadModel& model, const std::vector<PlannedFace>& plan,
                                   const SurfaceSetOptions& options, const std::filesystem::path& destination,
                                   const SetObserver& observer) {
  check_set_destination(destination, options.replace_existing);
  SurfaceSetReport report;
  SetManifest& m = report.manifest;
  m = set_manifest(model, options);
  TemporaryDirectory dir = create_temporary_directory_beside(destination);
  try {
    for (std::size_t k = 0; k < plan.size(); ++k) {
      if (observer.face_started) observer.face_started(k, plan.size(), plan[k].index);
      const FaceOutcome face = convert_set_face(model, plan[k], options, dir.path, observer.face_progress);
      if (face.skipped) {
        m.skipped.push_back(*face.skipped);
        if (observer.face_skipped) observer.face_skipped(face.skipped->index, face.skipped->reason);
        continue;
      }
      report.bytes += face.bytes;
      m.faces.push_back(*face.face);
    }
    finish_surface_set(model, m, dir, destination, options.replace_existing);
  } catch (...) {
    remove_temporary_directory(dir);
    throw;
  }
  return report;
}

}  // namespace surfdb

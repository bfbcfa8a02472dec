#include "assembly_output.hpp"

#include <algorithm>
#include <cmath>

#include "atomic_file.hpp"
#include "deferred_signals.hpp"
#include "number_format.hpp"
#include "surfdb/libsurfdb/cad_mesh.hpp"
#include "surfdb/libsurfdb/mesh_refinement.hpp"

namespace surfdb::cli {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kSpacingPerDiagonal = 1.0 / 100, kDeflectionPerDiagonal = 1.0 / 500, kEdgePerDiagonal = 1.0 / 25;
constexpr std::uint64_t kMeshWork = 1000;  // progress units per part mesh written

double box_diagonal(const CadModel& model) {
  Box3 all;
  for (std::uint32_t f = 1; f <= model.face_count(); ++f) {
    const Box3 b = model.bounding_box(f);
    for (int k = 0; k < 3; ++k) {
      all.min[k] = f == 1 ? b.min[k] : std::min(all.min[k], b.min[k]);
      all.max[k] = f == 1 ? b.max[k] : std::max(all.max[k], b.max[k]);
    }
  }
  return std::hypot(all.max[0] - all.min[0], all.max[1] - all.min[1], all.max[2] - all.min[2]);
}

std::uint64_t records_of(const PartOutput& p) {
  std::uint64_t records = 0;
  for (const PlannedFace& f : p.faces) {
    ConvertOptions o = p.set.table;
    o.grid = f.grid;
    o.record = f.record;
    records += table_layout(o).data_records;
  }
  return records;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  AtomicFile file(path);
  std::fwrite(text.data(), 1, text.size(), file.get());
  file.commit();
}

}  // namespace

PartOutput plan_part(std::string name, CadModel model, const PartOutputOptions& options) {
  const double diagonal = box_diagonal(model);
  PartOutput p{std::move(name), std::move(model), diagonal, {}, {}, {}, 0, 0};
  p.set.table.threads = options.threads;
  p.set.spacing = options.spacing ? *options.spacing : diagonal * kSpacingPerDiagonal;
  p.faces = plan_surface_set(p.model, p.set);
  for (const PlannedFace& f : p.faces) {
    ConvertOptions o = p.set.table;
    o.grid = f.grid;
    o.record = f.record;
    p.set_bytes += table_layout(o).file_bytes;
  }
  return p;
}

void mesh_part(PartOutput& p, const PartOutputOptions& options) {
  CadMeshOptions m;
  m.linear_deflection = options.deflection ? *options.deflection : p.diagonal * kDeflectionPerDiagonal;
  m.angular_deflection = 20 * kPi / 180;
  MeshResult r = mesh_cad_model(p.model, m);
  if (!r.report.closed() || !r.report.consistent())
    throw std::runtime_error("part '" + p.name + "': its mesh does not bound a solid (" +
                             count_of(r.report.open_edges, "open edge") + ", " +
                             count_of(r.report.non_manifold_edges, "non-manifold edge") + ", " +
                             count_of(r.report.misoriented_edges, "misoriented edge") +
                             "); a smaller --deflection may close it");
  p.mesh = std::move(r.mesh);
  refine_mesh(p.mesh, p.diagonal * kEdgePerDiagonal);  // the polygonal model's elements: no face a single triangle
  p.mesh.source_name = p.name + ".step";
  p.mesh_bytes = encode_mesh(p.mesh).size();
}

std::uint64_t writing_work(const std::vector<PartOutput>& parts) {
  std::uint64_t total = 0;
  for (const PartOutput& p : parts) total += records_of(p) + kMeshWork;
  return total;
}

void check_assembly_destination(const std::filesystem::path& dir) {
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(dir, ec);
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_directory(status))
      throw std::runtime_error("cannot write " + dir.string() + ": it exists and is not a directory");
    if (!std::filesystem::is_empty(dir, ec))
      throw std::runtime_error("cannot write " + dir.string() + ": the directory is not empty (assemble writes a new one)");
  }
  const std::filesystem::path parent = std::filesystem::absolute(dir).lexically_normal().parent_path();
  if (!std::filesystem::is_directory(parent))
    throw std::runtime_error("cannot write " + dir.string() + ": " + parent.string() + " is not a directory");
}

void write_assembly_directory(const std::filesystem::path& dir, std::vector<PartOutput>& parts, const std::string& scene,
                              const std::string& json, const std::function<void(std::uint64_t)>& progress) {
  std::uint64_t done = 0;
  TemporaryDirectory temporary = create_temporary_directory_beside(dir);
  try {
    std::filesystem::create_directory(temporary.path / "parts");
    for (PartOutput& p : parts) {
      DeferredSignals::check();
      SetObserver observer;
      std::uint64_t before = done;
      observer.face_started = [&](std::size_t, std::size_t, std::uint32_t) { before = done; };
      observer.face_progress = [&](std::uint64_t records, std::uint64_t) {
        DeferredSignals::check();
        done = before + records;
        progress(done);
      };
      write_surface_set(p.model, p.faces, p.set, temporary.path / "parts" / (p.name + ".sdbs"), observer);
      write_mesh_file(temporary.path / "parts" / (p.name + ".mesh"), p.mesh);
      done += kMeshWork;
      progress(done);
    }
    DeferredSignals::check();
    write_text(temporary.path / "scene.toml", scene);
    write_text(temporary.path / "assembly.json", json);
    commit_temporary_directory(temporary, false);
  } catch (...) {
    remove_temporary_directory(temporary);
    DeferredSignals::check();  // the set writer names the face in what it rethrows: a signal stays a signal
    throw;
  }
}

}  // namespace surfdb::cli

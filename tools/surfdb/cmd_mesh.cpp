// surfdb mesh: a CAD part or an STL file -> a triangle mesh file (.mesh) for the polygonal
// contact model, refused when it does not bound a solid unless the user allows it.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "cad_input.hpp"
#include "convert_set.hpp"
#include "cad_commands.hpp"
#include "commands.hpp"
#include "log.hpp"
#include "number_format.hpp"
#include "option_checks.hpp"
#include "output_checks.hpp"
#include "progress_bar.hpp"
#include "surfdb/formats/mesh_file.hpp"
#include "surfdb/libsurfdb/cad_assembly.hpp"
#include "surfdb/libsurfdb/cad_mesh.hpp"

namespace surfdb::cli {
namespace {

struct MeshArgs {
  std::string input, output, part, faces;
  std::uint32_t face = 0;
  bool all_faces = false, allow_open = false, strict = false;
  double deflection = 0, angle_degrees = 20;
};

constexpr double kPi = 3.14159265358979323846;

bool is_stl(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".stl";
}

// Options that would be silently ignored are refused: an STL file is meshed already.
void check_combinations(const MeshArgs& a, const CLI::App& cmd) {
  const auto given = [&](const char* name) { return cmd.count(name) > 0; };
  if (given("--face") && a.all_faces) throw UsageError("give --face K or --all-faces, not both");
  if (given("--faces") && (a.all_faces || given("--face"))) throw UsageError("give --faces LIST, --face K or --all-faces, one of them");
  if (given("--part") && given("--strict")) throw UsageError("--strict applies to a part file, not to --part of an assembly");
  if (is_stl(a.input)) {
    for (const char* name : {"--face", "--faces", "--part", "--all-faces", "--deflection", "--angle", "--strict"})
      if (given(name)) throw UsageError(std::string(name) + " does not apply to an STL file, which is a mesh already");
    return;
  }
  if (!given("--deflection")) throw UsageError("--deflection D is required to mesh a CAD part");
  if (a.angle_degrees > 180) throw UsageError("--angle " + format_number(a.angle_degrees) + ": at most 180 degrees");
}

// One part of an assembly, in its own coordinates (its faces numbered within it: PART:K).
CadModel assembly_part(const std::string& input, const std::string& name) {
  const CadAssembly assembly = CadAssembly::load(input);
  return assembly.part_model(assembly.part_index(name), Placement{});
}

MeshResult mesh_part(const MeshArgs& a) {
  if (is_stl(a.input)) return read_stl_mesh(a.input);
  const CadModel model = a.part.empty() ? load_part(a.input, a.strict) : assembly_part(a.input, a.part);
  CadMeshOptions o;
  o.linear_deflection = a.deflection;
  o.angular_deflection = a.angle_degrees * kPi / 180;
  o.face = a.face;
  if (!a.faces.empty()) o.faces = faces_in(parse_face_list(a.faces), model);
  const bool shown = a.face == 0 && model.face_count() > 1;
  ProgressBar bar("meshing " + count_of(model.face_count(), "face") + " of " + model.file_name(), shown);
  MeshResult r = mesh_cad_model(model, o, [&](std::uint64_t done, std::uint64_t total) { bar.update(done, total); });
  bar.finish();
  for (const std::uint32_t f : r.faces_without_triangles)
    spdlog::warn("{}: face {} gave no triangles; the mesh has a hole there", model.file_name(), f);
  return r;
}

void print_report(const MeshResult& r, const MeshArgs& a) {
  const MeshReport& q = r.report;
  const std::string unit = length_unit_name(r.mesh.length_unit);
  const auto yes = [](bool b) { return b ? "yes" : "no"; };
  std::printf("%-20s %s (%s)%s\n", "source", r.mesh.source_name.c_str(), r.mesh.source_kind.c_str(),
              a.face ? (", face " + std::to_string(a.face)).c_str() : a.faces.empty() ? "" : (", faces " + a.faces).c_str());
  std::printf("%-20s %llu\n%-20s %llu\n", "triangles", static_cast<unsigned long long>(q.triangles), "vertices",
              static_cast<unsigned long long>(q.vertices));
  std::printf("%-20s %llu\n%-20s %llu\n%-20s %llu\n%-20s %llu\n", "open_edges",
              static_cast<unsigned long long>(q.open_edges), "non_manifold_edges",
              static_cast<unsigned long long>(q.non_manifold_edges), "misoriented_edges",
              static_cast<unsigned long long>(q.misoriented_edges), "degenerate_removed",
              static_cast<unsigned long long>(q.degenerate_removed));
  std::printf("%-20s %s\n%-20s %s\n", "closed", yes(q.closed()), "consistent", yes(q.consistent()));
  std::printf("%-20s %s %s^2\n", "area", format_number(q.area).c_str(), unit.c_str());
  if (q.closed() && q.consistent()) {
    std::printf("%-20s %s %s^3\n", "volume", format_number(q.volume).c_str(), unit.c_str());
    std::printf("%-20s %s\n", "turned_over", yes(q.flipped));
  }
}

// What keeps the mesh from bounding a solid, or "" when nothing does. A face alone is open by
// nature, so --face allows open edges; --allow-open allows everything.
std::string refusal(const MeshReport& q, const MeshArgs& a) {
  if (a.allow_open) return {};
  if (q.non_manifold_edges > 0)
    return count_of(q.non_manifold_edges, "edge") + " used by more than two triangles (non-manifold)";
  if (q.misoriented_edges > 0)
    return count_of(q.misoriented_edges, "edge") + " whose two triangles disagree in orientation";
  if (q.open_edges > 0 && a.face == 0 && a.faces.empty()) return count_of(q.open_edges, "open edge") + " (the mesh is not closed)";
  return {};
}

void run(const MeshArgs& a, const CLI::App& cmd) {
  check_combinations(a, cmd);
  refuse_input_as_output(a.output, {a.input});
  (void)resolve_output(a.output);  // a directory or device at -o is refused before the part is read
  const MeshResult r = mesh_part(a);
  print_report(r, a);
  if (const std::string why = refusal(r.report, a); !why.empty())
    throw std::runtime_error("not writing " + a.output + ": " + why + "; --allow-open writes it anyway");
  write_mesh_file(a.output, r.mesh);
  std::printf("%-20s %s\n", "wrote", a.output.c_str());
}

}  // namespace

void add_mesh_command(CLI::App& app) {
  auto args = std::make_shared<MeshArgs>();
  CLI::App* cmd = app.add_subcommand(kMeshCommand.name, kMeshCommand.description);
  cmd->add_option("PART", args->input, "STEP, IGES, BREP or STL file")->required();
  cmd->add_option("-o,--output", args->output, "Output mesh file NAME.mesh")->required();
  cmd->add_option("--face", args->face, "Mesh this face alone (1-based, as convert --list-faces numbers them)")
      ->check(at_least(1));
  cmd->add_option("--faces", args->faces, "Mesh these faces together, e.g. 2,5,7 or 3-6 (open edges allowed)");
  cmd->add_option("--part", args->part, "Mesh this part of an assembly (a name convert --list-parts gives), in its own coordinates");
  cmd->add_flag("--all-faces", args->all_faces, "Mesh every face of the part (the default)");
  cmd->add_option("--deflection", args->deflection,
                  "Largest distance between the triangles and the surface (length unit of PART)")
      ->check(positive_number());
  cmd->add_option("--angle", args->angle_degrees, "Largest angle between the normals along a triangle edge, degrees")
      ->capture_default_str()
      ->check(positive_number());
  cmd->add_flag("--allow-open", args->allow_open,
                "Write a mesh that does not bound a solid (open, non-manifold or inconsistently oriented edges)");
  cmd->add_flag("--strict", args->strict, "Refuse a damaged CAD file instead of warning (entities lost, units assumed)");
  cmd->callback([args, cmd] { run(*args, *cmd); });
}

}  // namespace surfdb::cli

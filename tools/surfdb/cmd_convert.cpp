// surfdb convert: CAD face, NURBS text or analytic surface -> surface database.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <regex>
#include <stdexcept>

#include "cad_input.hpp"
#include "cad_commands.hpp"
#include "commands.hpp"
#include "convert_set.hpp"
#include "list_parts.hpp"
#include "log.hpp"
#include "mpi_session.hpp"
#include "number_format.hpp"
#include "output_checks.hpp"
#include "option_checks.hpp"
#include "progress_bar.hpp"
#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/libsurfdb/grid_spacing.hpp"

namespace surfdb::cli {
namespace {

struct ConvertArgs {
  std::string input, output, grid = "999x999", record = "27x27", analytic, faces;
  std::uint32_t face = 1;
  bool float32 = false, flip_normals = false, list_faces = false, list_parts = false, json = false, all_faces = false;
  bool skip_bad_faces = false, force = false, strict = false;
  double spacing = 0;
  std::uint64_t max_grid = 999;
  unsigned threads = 0;
  std::string max_size = "64G";
  AnalyticSpec spec;
  std::vector<double> u_range, v_range;
};

// The largest number of points along u or v that --grid and --record take (a record's sizes are
// 32-bit; a grid this long on one side is already terabytes).
constexpr std::uint64_t kMaxPointsPerSide = 4294967295;

// "NUxNV" -> two whole numbers, each at most kMaxPointsPerSide.
std::pair<std::uint64_t, std::uint64_t> parse_pair(const std::string& text, const char* option) {
  static const std::regex pattern(R"((\d+)[xX](\d+))");
  std::smatch m;
  if (!std::regex_match(text, m, pattern))
    throw UsageError(std::string(option) + " '" + text + "' is not of the form NUxNV");
  const auto number = [&](const std::string& digits) {
    const std::size_t first = std::min(digits.find_first_not_of('0'), digits.size() - 1);
    if (digits.size() - first > 10 || std::stoull(digits.substr(first)) > kMaxPointsPerSide)
      throw UsageError(std::string(option) + " '" + text + "': " + digits + " is too large (at most " +
                       std::to_string(kMaxPointsPerSide) + " points along u or v)");
    return std::stoull(digits.substr(first));
  };
  return {number(m[1]), number(m[2])};
}

// A record larger than the grid is an error when --record asks for it; the default record
// shrinks to a smaller grid.
ConvertOptions options_from(const ConvertArgs& a, const CLI::App& cmd) {
  ConvertOptions o;
  const auto [nu, nv] = parse_pair(a.grid, "--grid");
  if (nu < 2 || nv < 2)
    throw UsageError("--grid " + a.grid + ": at least 2x2 points are needed");
  auto [pu, pv] = parse_pair(a.record, "--record");
  if (cmd.count("--record") == 0) pu = std::min(pu, nu), pv = std::min(pv, nv);
  if (pu < 1 || pv < 1) throw UsageError("--record " + a.record + ": at least 1x1 points");
  if (pu > nu || pv > nv)
    throw UsageError("--record " + a.record + " is larger than the grid " + a.grid);
  o.grid = {nu, nv};
  o.record = {static_cast<std::uint32_t>(pu), static_cast<std::uint32_t>(pv)};
  o.scalar = a.float32 ? ScalarType::f32 : ScalarType::f64;
  o.flip_normals = a.flip_normals;
  o.threads = a.threads;
  return o;
}

// The table's size follows from its layout (header, records, checksum table): refused before
// anything is written when one table exceeds --max-size or `files` of them the free space.
void check_table_size(const ConvertOptions& o, const std::filesystem::path& out, const std::string& max_size,
                      std::uint64_t files) {
  const RecordLayout l = table_layout(o);
  const std::uint64_t max_bytes = parse_size(max_size, "--max-size");
  if (l.file_bytes > max_bytes)
    throw std::runtime_error("cannot write " + out.string() + ": the table would take " + size_text(l.file_bytes) +
                             ", more than --max-size " + max_size + " (" + format_size(max_bytes) + ")");
  const std::uint64_t total = files > UINT64_MAX / l.file_bytes ? UINT64_MAX : files * l.file_bytes;
  check_free_space(out, total, "cannot write " + out.string() + ": " +
                                   (files == 1 ? std::string("the table") : std::to_string(files) + " tables"));
}

void convert_one(const SurfaceSource& source, const ConvertOptions& options,
                 const std::filesystem::path& out) {
  ProgressBar bar("converting " + out.filename().string() + " (" + format_size(table_layout(options).file_bytes) + ")");
  const ConvertReport r = convert_surface(source, options, out, [&](std::uint64_t done, std::uint64_t total) {
    bar.update(done, total);
  });
  bar.finish();  // the line below starts on a line of its own
  const double points = static_cast<double>(r.header.layout.u_points * r.header.layout.v_points);
  spdlog::info("wrote {} ({}): {} x {} points in {} of {} bytes, {} invalid, {} degenerate; "
               "{:.2f} s ({:.2f} s sampling and writing records, {:.2f} s flushing to disk and reading the file back), {:.3g} points/s",
               out.string(), format_size(r.header.layout.file_bytes), r.header.layout.u_points, r.header.layout.v_points,
               count_of(r.header.layout.data_records, "record"), r.header.layout.record_bytes, r.header.invalid_points,
               r.header.degenerate_points, r.total_seconds, r.sampling_seconds, r.writing_seconds,
               points / r.total_seconds);
}

// --spacing: the grid from the surface's extent, the record no larger than the grid.
void use_spacing(ConvertOptions& o, const SurfaceSource& source, const ConvertArgs& a) {
  o.grid = grid_for_spacing(source, a.spacing, a.max_grid);
  o.record = record_within(o.record, o.grid);
}

// One row per face; every row names the file's length unit and the unit of its area.
void list_faces(const CadModel& model) {
  const std::string unit(length_unit_name(model.face(1)->unit()));
  std::printf("face,surface_type,u_min,u_max,v_min,v_max,orientation,area,length_unit,area_unit\n");
  for (std::uint32_t f = 1; f <= model.face_count(); ++f) {
    const FaceInfo i = model.face_info(f);
    std::printf("%u,%s,%s,%s,%s,%s,%s,%s,%s,%s^2\n", i.index, i.surface_type.c_str(),
                format_number(i.bounds.u0).c_str(), format_number(i.bounds.u1).c_str(),
                format_number(i.bounds.v0).c_str(), format_number(i.bounds.v1).c_str(),
                i.orientation == FaceOrientation::reversed ? "reversed" : "forward",
                format_number(i.area).c_str(), unit.c_str(), unit.c_str());
  }
}

// Options that would be silently ignored are refused: each applies to some inputs only.
void check_combinations(const ConvertArgs& a, const CLI::App& cmd) {
  const auto given = [&](const char* name) { return cmd.count(name) > 0; };
  if (a.list_faces && a.list_parts) throw UsageError("give --list-faces or --list-parts, not both");
  if (a.json && !a.list_parts) throw UsageError("--json applies to --list-parts");
  if (a.list_parts && a.strict) throw UsageError("--strict applies to reading a part's faces, not to --list-parts");
  if (a.list_faces || a.list_parts) {
    const std::string what = a.list_faces ? "--list-faces only lists the faces; " : "--list-parts only lists the parts; ";
    for (const char* name : {"--output", "--face", "--faces", "--all-faces", "--grid", "--spacing", "--max-grid",
                             "--record", "--float32", "--flip-normals", "--threads", "--max-size",
                             "--skip-bad-faces", "--force"})
      if (given(name)) throw UsageError(what + name + " does not apply");
  }
  if (a.all_faces && given("--faces")) throw UsageError("give --all-faces or --faces LIST, not both");
  if (given("--face") && (a.all_faces || given("--faces")))
    throw UsageError("--face converts one face into a table; --all-faces and --faces write a set");
  if (given("--spacing") && given("--grid")) throw UsageError("give --grid or --spacing, not both");
  if (given("--max-grid") && !given("--spacing")) throw UsageError("--max-grid bounds the grids --spacing chooses");
  for (const char* name : {"--skip-bad-faces", "--force"})
    if (given(name) && !a.all_faces && !given("--faces"))
      throw UsageError(std::string(name) + " applies to a surface set (--all-faces or --faces)");
  const char* analytic_only[] = {"--radius", "--minor-radius", "--length", "--u-range", "--v-range"};
  if (a.analytic.empty()) {
    for (const char* name : analytic_only)
      if (given(name)) throw UsageError(std::string(name) + " applies to --analytic surfaces, not to an INPUT file");
    return;
  }
  if (a.list_faces || a.list_parts) throw UsageError("--list-faces and --list-parts apply to an INPUT file, not to --analytic");
  if (given("--face")) throw UsageError("--face applies to an INPUT file, not to --analytic");
  if (a.strict) throw UsageError("--strict applies to an INPUT file, not to --analytic");
  for (const char* name : {"--all-faces", "--faces"})
    if (given(name)) throw UsageError(std::string(name) + " applies to an INPUT file, not to --analytic");
  const AnalyticKind kind = parse_analytic_kind(a.analytic);
  if (given("--radius") && kind == AnalyticKind::plane) throw UsageError("--radius does not apply to the plane");
  if (given("--minor-radius") && kind != AnalyticKind::torus) throw UsageError("--minor-radius applies to the torus only");
  if (given("--length") && kind != AnalyticKind::plane && kind != AnalyticKind::cylinder)
    throw UsageError("--length applies to the plane and the cylinder only");
}

void run(const ConvertArgs& a, const CLI::App& cmd) {
  if (!a.analytic.empty()) {
    if (!a.input.empty()) throw UsageError("give either INPUT or --analytic, not both");
    try {
      (void)parse_analytic_kind(a.analytic);
    } catch (const std::exception& e) {
      throw UsageError(std::string("--analytic: ") + e.what());
    }
  }
  check_combinations(a, cmd);
  if (!a.analytic.empty()) {
    if (a.output.empty()) throw UsageError("-o OUT.sdb is required");
    AnalyticSpec spec = a.spec;
    spec.kind = parse_analytic_kind(a.analytic);
    if (!a.u_range.empty()) spec.u_range = std::pair{a.u_range[0], a.u_range[1]};
    if (!a.v_range.empty()) spec.v_range = std::pair{a.v_range[0], a.v_range[1]};
    const auto source = make_analytic_surface(spec);
    ConvertOptions options = options_from(a, cmd);
    if (a.spacing > 0) use_spacing(options, *source, a);
    check_table_size(options, a.output, a.max_size, 1);
    convert_one(*source, options, a.output);
    return;
  }
  if (a.input.empty()) throw UsageError("give an INPUT file or --analytic KIND");
  if (a.list_faces) {
    list_faces(load_part(a.input, a.strict));
    return;
  }
  if (a.list_parts) {
    list_parts(CadAssembly::load(a.input), a.json);
    return;
  }
  if (a.output.empty()) throw UsageError("-o OUT is required");
  ConvertOptions options = options_from(a, cmd);  // checked before the CAD file is read
  if (a.all_faces || cmd.count("--faces") > 0) {
    const auto ranges = a.all_faces ? std::vector<FaceRange>{} : parse_face_list(a.faces);
    SurfaceSetOptions set;
    set.table = options;
    if (a.spacing > 0) set.spacing = a.spacing;
    set.max_grid = a.max_grid;
    set.skip_bad_faces = a.skip_bad_faces;
    set.replace_existing = a.force;
    check_set_destination(a.output, a.force);  // before the CAD file is read
    const CadModel model = load_part(a.input, a.strict);
    set.faces = faces_in(ranges, model);  // none: every face
    MpiSession mpi;  // under mpirun, the faces are shared among the ranks
    if (mpi.size() == 1) return convert_set(model, set, a.input, a.output, parse_size(a.max_size, "--max-size"), a.max_size);
    if (cmd.count("--threads") == 0) set.table.threads = 1;  // a rank per core
    if (mpi.rank() != 0) spdlog::set_level(spdlog::level::warn);
    refuse_input_as_output(a.output, {a.input});
    convert_set_on_ranks(mpi, model, set, a.output, parse_size(a.max_size, "--max-size"), a.max_size);
    return;
  }
  refuse_input_as_output(a.output, {a.input});
  if (a.spacing == 0) check_table_size(options, a.output, a.max_size, 1);
  const CadModel model = load_part(a.input, a.strict);
  const auto source = model.face(a.face);
  if (a.spacing > 0) {
    use_spacing(options, *source, a);
    check_table_size(options, a.output, a.max_size, 1);
  }
  convert_one(*source, options, a.output);
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* cmd = app.add_subcommand(kConvertCommand.name, kConvertCommand.description);
  cmd->add_option("INPUT", args->input, "STEP, IGES, BREP or .nurbs file");
  cmd->add_option("-o,--output", args->output, "Output .sdb file, or the surface set NAME.sdbs with --all-faces/--faces");
  cmd->add_option("--face", args->face, "Face number, 1-based, as --list-faces shows")->check(at_least(1));
  cmd->add_option("--faces", args->faces, "Convert these faces into a surface set, e.g. 2,5,7 or 3-6");
  cmd->add_option("--grid", args->grid, "Grid points NUxNV, end points included")->capture_default_str();
  cmd->add_option("--spacing", args->spacing, "Choose each face's grid for this node spacing (length unit of INPUT)")
      ->check(positive_number());
  cmd->add_option("--max-grid", args->max_grid, "Most points along u or v that --spacing may choose")
      ->capture_default_str()->check(at_least(2));
  cmd->add_option("--record", args->record, "Points per record PUxPV")->capture_default_str();
  cmd->add_flag("--float32", args->float32, "Store 32-bit floats instead of 64-bit");
  cmd->add_flag("--flip-normals", args->flip_normals, "Store the opposite normals");
  cmd->add_flag("--list-faces", args->list_faces, "List the faces of INPUT as CSV and stop");
  cmd->add_flag("--list-parts", args->list_parts,
                "List the parts of an assembly (STEP, IGES), their instances and placements, and stop");
  cmd->add_flag("--json", args->json, "With --list-parts: print JSON");
  cmd->add_flag("--all-faces", args->all_faces, "Convert every face into the surface set given by -o");
  cmd->add_flag("--skip-bad-faces", args->skip_bad_faces, "Leave faces that cannot be sampled out of the set, with a warning");
  cmd->add_flag("--force", args->force, "Replace an existing surface set at -o");
  cmd->add_flag("--strict", args->strict, "Refuse a damaged CAD file instead of warning (entities lost, units assumed)");
  cmd->add_option("--max-size", args->max_size, "Refuse a table larger than this, e.g. 500M, 2G (K, M, G, T: powers of 1024)")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            try {
              (void)parse_size(text, "--max-size");
              return {};
            } catch (const std::exception& e) {
              const std::string message = e.what();  // CLI11 names the option already
              return message.substr(std::min(message.find('\''), message.size()));
            }
          },
          "SIZE"));
  cmd->add_option("--threads", args->threads, "Worker threads (default: all cores)")
      ->check(at_least(1, " (leave --threads out to use every core)"));
  cmd->add_option("--analytic", args->analytic, "Built-in surface: octant, sphere, plane, cylinder, torus");
  cmd->add_option("--radius", args->spec.radius, "Radius R of the analytic surface, mm")
      ->capture_default_str()->check(positive_number());
  cmd->add_option("--minor-radius", args->spec.minor_radius, "Tube radius r of the torus, mm")
      ->capture_default_str()->check(positive_number());
  cmd->add_option("--length", args->spec.length, "Plane side or cylinder height, mm")
      ->capture_default_str()->check(positive_number());
  cmd->add_option("--u-range", args->u_range, "Parameter range U0 U1 of the analytic surface")->expected(2)
      ->check(finite_number());
  cmd->add_option("--v-range", args->v_range, "Parameter range V0 V1 of the analytic surface")->expected(2)
      ->check(finite_number());
  cmd->callback([args, cmd] { run(*args, *cmd); });
}

}  // namespace surfdb::cli

// surfdb query: point and frame at (u,v), one pair or a batch.
#include <CLI/CLI.hpp>

#include "batch_input.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "point_rows.hpp"
#include "surfdb/table/surface_binding.hpp"

namespace surfdb::cli {
namespace {

struct QueryArgs {
  std::string file, batch;
  std::vector<double> uv;
  std::string interpolation = "bilinear";
  bool json = false;
};

void run(const QueryArgs& a) {
  if (a.uv.empty() == a.batch.empty()) throw UsageError("give either --uv U V or --batch PATH|-");
  SurfaceBinding binding(Database::open(a.file), {}, Residency::direct_mapping,
                         a.interpolation == "curved" ? Interpolation::curved : Interpolation::bilinear);
  // The CSV header follows the first answer, so a bad input or table prints nothing on stdout.
  bool header = a.json;
  const auto emit = [&](double u, double v) {
    const SurfacePoint p = binding.query(u, v);
    if (!header) print_point_header(false), header = true;
    print_point_row(p, std::nullopt, a.json);
  };
  if (!a.uv.empty()) {
    emit(a.uv[0], a.uv[1]);
    return;
  }
  BatchInput<2> in(a.batch);
  for (std::array<double, 2> row; in.next(row);) emit(row[0], row[1]);
  if (!header) print_point_header(false);  // no rows: the header alone
}

}  // namespace

void add_query_command(CLI::App& app) {
  auto args = std::make_shared<QueryArgs>();
  CLI::App* cmd = app.add_subcommand("query", "Interpolated point and frame at surface parameters (u,v)");
  cmd->add_option("FILE", args->file, "Surface database (.sdb)")->required();
  cmd->add_option("--uv", args->uv, "One parameter pair U V")->expected(2)->check(finite_number());
  cmd->add_option("--batch", args->batch, "File of 'u v' lines, or - for standard input");
  cmd->add_option("--interpolation", args->interpolation,
                  "bilinear (default: the paper's; the point lies on the cell's chords, off the surface by the sag) or "
                  "curved (the point lifted by the sag the corners' normals imply: error O(h^4))")
      ->check(CLI::IsMember({"bilinear", "curved"}));
  cmd->add_flag("--json", args->json, "One JSON object per row instead of CSV");
  cmd->callback([args] { run(*args); });
}

}  // namespace surfdb::cli

// surfdb project: the closest surface point to (x,y,z), one point or a batch.
#include <CLI/CLI.hpp>

#include "batch_input.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "point_rows.hpp"
#include "surfdb/table/projection.hpp"

namespace surfdb::cli {
namespace {

struct ProjectArgs {
  std::string file, batch;
  std::vector<double> xyz, guess;
  bool json = false;
};

void run(const ProjectArgs& a) {
  if (a.xyz.empty() == a.batch.empty()) throw UsageError("give either --xyz X Y Z or --batch PATH|-");
  const auto db = Database::open(a.file);
  SurfaceBinding binding(db);
  std::optional<std::pair<double, double>> warm;
  if (!a.guess.empty()) warm = std::pair{a.guess[0], a.guess[1]};
  // The CSV header follows the first answer, so a bad input or table prints nothing on stdout.
  bool header = a.json;
  const auto emit = [&](const Eigen::Vector3d& x) {
    const Projection p = project_near(binding, x, warm);
    warm = std::pair{p.point.u, p.point.v};
    if (!header) print_point_header(true), header = true;
    print_point_row(p.point, p.distance, a.json, p.converged);
  };
  if (!a.xyz.empty()) {
    emit({a.xyz[0], a.xyz[1], a.xyz[2]});
    return;
  }
  BatchInput<3> in(a.batch);
  for (std::array<double, 3> row; in.next(row);) emit({row[0], row[1], row[2]});
  if (!header) print_point_header(true);  // no rows: the header alone
}

}  // namespace

void add_project_command(CLI::App& app) {
  auto args = std::make_shared<ProjectArgs>();
  CLI::App* cmd = app.add_subcommand("project", "Closest surface point to a point in space");
  cmd->add_option("FILE", args->file, "Surface database (.sdb)")->required();
  cmd->add_option("--xyz", args->xyz, "One point X Y Z, in the file's length unit")->expected(3)->check(finite_number());
  cmd->add_option("--batch", args->batch, "File of 'x y z' lines, or - for standard input");
  cmd->add_option("--uv", args->guess, "Initial guess U V (default: global search)")->expected(2)->check(finite_number());
  cmd->add_flag("--json", args->json, "One JSON object per row instead of CSV");
  cmd->callback([args] { run(*args); });
}

}  // namespace surfdb::cli

// surfdb query: point and frame at (u,v), one pair or a batch.
#include <CLI/CLI.hpp>

#include "batch_input.hpp"
#include "commands.hpp"
#include "point_rows.hpp"
#include "surfdb/table/surface_binding.hpp"

namespace surfdb::cli {
namespace {

struct QueryArgs {
  std::string file, batch;
  std::vector<double> uv;
  bool json = false;
};

void run(const QueryArgs& a) {
  if (a.uv.empty() == a.batch.empty()) throw std::invalid_argument("give either --uv U V or --batch PATH|-");
  SurfaceBinding binding(Database::open(a.file));
  if (!a.json) print_point_header(false);
  if (!a.uv.empty()) {
    print_point_row(binding.query(a.uv[0], a.uv[1]), std::nullopt, a.json);
    return;
  }
  BatchInput<2> in(a.batch);
  for (std::array<double, 2> row; in.next(row);) print_point_row(binding.query(row[0], row[1]), std::nullopt, a.json);
}

}  // namespace

void add_query_command(CLI::App& app) {
  auto args = std::make_shared<QueryArgs>();
  CLI::App* cmd = app.add_subcommand("query", "Interpolated point and frame at surface parameters (u,v)");
  cmd->add_option("FILE", args->file, "Surface database (.sdb)")->required();
  cmd->add_option("--uv", args->uv, "One parameter pair U V")->expected(2);
  cmd->add_option("--batch", args->batch, "File of 'u v' lines, or - for standard input");
  cmd->add_flag("--json", args->json, "One JSON object per row instead of CSV");
  cmd->callback([args] { run(*args); });
}

}  // namespace surfdb::cli

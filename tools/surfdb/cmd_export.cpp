// surfdb export: the whole table as CSV, or as a VTK structured grid ParaView opens.
#include <CLI/CLI.hpp>
#include <bit>
#include <cstring>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "number_format.hpp"
#include "output_checks.hpp"
#include "progress_bar.hpp"
#include "surfdb/formats/scalar.hpp"
#include "surfdb/table/database.hpp"

namespace surfdb::cli {
namespace {

struct ExportArgs {
  std::string file, format = "csv", output;
};

// Reads every node's values, in grid order (u slow, v fast), record by record.
template <class Visit>
void for_each_node(const Database& db, Visit&& visit) {
  const RecordLayout& l = db.layout();
  std::vector<double> values(l.column_count);
  ProgressBar bar("exporting");
  for (std::uint64_t i = 0; i < l.u_points; ++i) {
    for (std::uint64_t j = 0; j < l.v_points; ++j) {
      const NodeIndex n{i, j};
      const std::uint8_t* at = db.record(l.record_number(l.record_of_node(n))) +
                               l.slot_of_node(n) * l.column_count * l.scalar_bytes;
      for (std::uint32_t c = 0; c < l.column_count; ++c) values[c] = load_scalar(at, l.scalar_bytes, static_cast<int>(c));
      visit(values);
    }
    bar.update(i + 1, l.u_points);
  }
}

void write_csv(const Database& db, std::FILE* out) {
  const Header& h = db.header();
  for (std::size_t c = 0; c < h.columns.size(); ++c)
    std::fprintf(out, "%s%s", c ? "," : "", std::string(column_name(h.columns[c])).c_str());
  std::fputc('\n', out);
  for_each_node(db, [&](const std::vector<double>& v) {
    for (std::size_t c = 0; c < v.size(); ++c) std::fprintf(out, "%s%s", c ? "," : "", format_number(v[c]).c_str());
    std::fputc('\n', out);
  });
}

// Legacy VTK, binary (big-endian), structured grid: points, normals and the flags as point data.
void write_vtk(const Database& db, std::FILE* out) {
  const Header& h = db.header();
  const RecordLayout& l = h.layout;
  const std::uint64_t n = l.u_points * l.v_points;
  const int x = column_offset(h, Column::x), y = column_offset(h, Column::y), z = column_offset(h, Column::z);
  const int nx = column_offset(h, Column::nx), ny = column_offset(h, Column::ny), nz = column_offset(h, Column::nz);
  const int cf = column_offset(h, Column::flags);
  const auto put = [&](double x) {
    const std::uint64_t be = __builtin_bswap64(std::bit_cast<std::uint64_t>(x));
    std::fwrite(&be, 8, 1, out);
  };
  std::fprintf(out, "# vtk DataFile Version 3.0\nsurfdb %s face %u\nBINARY\nDATASET STRUCTURED_GRID\n",
               h.source.name.c_str(), h.source.face_index);
  std::fprintf(out, "DIMENSIONS %llu %llu 1\nPOINTS %llu double\n", static_cast<unsigned long long>(l.v_points),
               static_cast<unsigned long long>(l.u_points), static_cast<unsigned long long>(n));
  for_each_node(db, [&](const std::vector<double>& v) { put(v[x]); put(v[y]); put(v[z]); });
  std::fprintf(out, "\nPOINT_DATA %llu\nNORMALS normals double\n", static_cast<unsigned long long>(n));
  for_each_node(db, [&](const std::vector<double>& v) { put(v[nx]); put(v[ny]); put(v[nz]); });
  if (cf >= 0) {
    std::fprintf(out, "\nSCALARS flags double 1\nLOOKUP_TABLE default\n");
    for_each_node(db, [&](const std::vector<double>& v) { put(v[cf]); });
  }
  std::fputc('\n', out);
}

void run(const ExportArgs& a) {
  if (a.format != "csv" && a.format != "vtk") throw UsageError("--format must be csv or vtk, not " + a.format);
  refuse_input_as_output(a.output, {a.file});
  const auto db = Database::open(a.file);
  AtomicFile out(a.output);
  if (a.format == "csv") {
    write_csv(*db, out.get());
  } else {
    write_vtk(*db, out.get());
  }
  out.commit();
}

}  // namespace

void add_export_command(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  CLI::App* cmd = app.add_subcommand("export", "Write the whole table as CSV or as a VTK structured grid");
  cmd->add_option("FILE", args->file, "Surface database (.sdb)")->required();
  cmd->add_option("--format", args->format, "csv or vtk")->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Output file")->required();
  cmd->callback([args] { run(*args); });
}

}  // namespace surfdb::cli

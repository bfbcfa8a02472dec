// surfdb info: every header field of a surface database, as text or JSON.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "surfdb/table/database.hpp"

namespace surfdb::cli {
namespace {

nlohmann::ordered_json header_json(const Header& h) {
  const RecordLayout& l = h.layout;
  nlohmann::ordered_json j;
  j["format_version"] = h.format_version;
  j["u_points"] = l.u_points;
  j["v_points"] = l.v_points;
  j["u_record_points"] = l.u_record_points;
  j["v_record_points"] = l.v_record_points;
  j["u_records"] = l.u_records;
  j["v_records"] = l.v_records;
  j["u0"] = h.u0;
  j["v0"] = h.v0;
  j["u1"] = h.u1;
  j["v1"] = h.v1;
  j["du"] = h.du;
  j["dv"] = h.dv;
  j["record_bytes"] = l.record_bytes;
  j["header_records"] = l.header_records;
  j["data_records"] = l.data_records;
  j["checksum_records"] = l.checksum_records;
  j["file_bytes"] = l.file_bytes;
  j["columns"] = nlohmann::json::array();
  for (Column c : h.columns) j["columns"].push_back(std::string(column_name(c)));
  j["scalar"] = scalar_name(h.scalar);
  j["length_unit"] = length_unit_name(h.length_unit);
  j["meters_per_unit"] = h.meters_per_unit;
  j["periodic_u"] = h.periodic_u;
  j["periodic_v"] = h.periodic_v;
  j["u_period"] = h.u_period;
  j["v_period"] = h.v_period;
  j["invalid_points"] = h.invalid_points;
  j["degenerate_points"] = h.degenerate_points;
  j["source"] = {{"kind", h.source.kind},
                 {"name", h.source.name},
                 {"surface_type", h.source.surface_type},
                 {"face_index", h.source.face_index},
                 {"orientation", h.source.orientation == FaceOrientation::reversed ? "reversed" : "forward"},
                 {"normals_flipped", h.source.normals_flipped}};
  return j;
}

void print_text(const nlohmann::ordered_json& j, const std::string& prefix = "") {
  for (const auto& [key, value] : j.items()) {
    if (value.is_object()) {
      print_text(value, prefix + key + ".");
    } else {
      const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
      std::printf("%-24s %s\n", (prefix + key).c_str(), text.c_str());
    }
  }
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("info", "Print the header of a surface database");
  cmd->add_option("FILE", *file, "Surface database (.sdb)")->required();
  cmd->add_flag("--json", *json, "Print JSON instead of text");
  cmd->callback([file, json] {
    const auto db = Database::open(*file);
    const auto j = header_json(db->header());
    if (*json) {
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      print_text(j);
    }
  });
}

}  // namespace surfdb::cli

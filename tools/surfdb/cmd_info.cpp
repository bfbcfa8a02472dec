// surfdb info: every header field of a surface database, or a summary of a surface set or of a
// mesh file, as text or JSON.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "surfdb/formats/mesh_file.hpp"
#include "surfdb/formats/surface_set.hpp"
#include "surfdb/formats/mesh_report.hpp"
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

// A set: its source, then one entry per face with what a user picks faces by.
nlohmann::ordered_json set_json(const std::filesystem::path& dir) {
  const SurfaceSet set = read_surface_set(dir);
  const SetManifest& m = set.manifest;
  nlohmann::ordered_json j;
  j["surface_set"] = dir.string();
  j["format_version"] = m.format_version;
  j["source"] = {{"kind", m.source_kind}, {"name", m.source_name}, {"faces", m.part_faces}};
  j["length_unit"] = length_unit_name(m.length_unit);
  j["spacing"] = m.spacing ? nlohmann::json(*m.spacing) : nlohmann::json(nullptr);
  std::uint64_t bytes = 0;
  nlohmann::ordered_json faces = nlohmann::json::array();
  for (std::size_t k = 0; k < m.faces.size(); ++k) {
    const SetFace& f = m.faces[k];
    const Header& h = set.headers[k];
    bytes += h.layout.file_bytes;
    faces.push_back({{"face", f.index},
                     {"file", f.file},
                     {"surface_type", f.surface_type},
                     {"orientation", f.orientation == FaceOrientation::reversed ? "reversed" : "forward"},
                     {"grid", {f.u_points, f.v_points}},
                     {"invalid_points", h.invalid_points},
                     {"adjacent_faces", f.adjacent},
                     {"bounding_box", {{"min", f.bounding_box.min}, {"max", f.bounding_box.max}}}});
  }
  j["file_bytes"] = bytes;
  j["faces"] = faces;
  j["skipped_faces"] = nlohmann::json::array();
  for (const SkippedFace& s : m.skipped) j["skipped_faces"].push_back({{"face", s.index}, {"reason", s.reason}});
  j["mass_frame"] = nullptr;
  if (const auto& f = m.mass_frame)
    j["mass_frame"] = {{"volume", f->volume}, {"centre", f->centre}, {"axes", f->axes}, {"moments", f->moments}};
  return j;
}

void print_set_text(const nlohmann::ordered_json& j) {
  std::printf("surface set %s: %zu of the %s faces of %s (%s), length unit %s, %s bytes\n",
              j["surface_set"].get<std::string>().c_str(), j["faces"].size(), j["source"]["faces"].dump().c_str(),
              j["source"]["name"].get<std::string>().c_str(), j["source"]["kind"].get<std::string>().c_str(),
              j["length_unit"].get<std::string>().c_str(), j["file_bytes"].dump().c_str());
  std::printf("%6s  %-22s %-9s %13s  %s\n", "face", "surface_type", "orient.", "grid", "adjacent_faces");
  for (const auto& f : j["faces"]) {
    std::string adjacent;
    for (const auto& a : f["adjacent_faces"]) {
      if (!adjacent.empty()) adjacent += ',';
      adjacent += a.dump();
    }
    const std::string grid = f["grid"][0].dump() + "x" + f["grid"][1].dump();
    std::printf("%6s  %-22s %-9s %13s  %s\n", f["face"].dump().c_str(), f["surface_type"].get<std::string>().c_str(),
                f["orientation"].get<std::string>().c_str(), grid.c_str(), adjacent.empty() ? "-" : adjacent.c_str());
  }
  for (const auto& s : j["skipped_faces"])
    std::printf("face %s left out: %s\n", s["face"].dump().c_str(), s["reason"].get<std::string>().c_str());
  if (const auto& f = j["mass_frame"]; !f.is_null()) {
    const auto triple = [](const nlohmann::ordered_json& v) {
      char text[96];
      std::snprintf(text, sizeof(text), "(%.6g, %.6g, %.6g)", v[0].get<double>(), v[1].get<double>(), v[2].get<double>());
      return std::string(text);
    };
    const std::string unit = j["length_unit"].get<std::string>();
    std::printf("part frame (placement = \"part\"): centre of mass %s %s, principal axes %s %s %s, volume %.6g %s^3\n",
                triple(f["centre"]).c_str(), unit.c_str(), triple(f["axes"][0]).c_str(), triple(f["axes"][1]).c_str(),
                triple(f["axes"][2]).c_str(), f["volume"].get<double>(), unit.c_str());
  }
}

// A mesh file: its unit, source and counts, its extent and area, and whether it bounds a solid.
nlohmann::ordered_json mesh_json(const std::filesystem::path& path) {
  const MeshData m = read_mesh_file(path);
  const MeshReport q = mesh_report(m);
  std::array<double, 3> lo = m.vertices[0], hi = m.vertices[0];
  for (const auto& p : m.vertices)
    for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
  nlohmann::ordered_json j;
  j["mesh_file"] = path.string();
  j["format_version"] = kMeshFormatVersion;
  j["length_unit"] = length_unit_name(m.length_unit);
  j["source"] = {{"kind", m.source_kind}, {"name", m.source_name}};
  j["vertices"] = q.vertices;
  j["triangles"] = q.triangles;
  j["bounding_box"] = {{"min", lo}, {"max", hi}};
  j["area"] = q.area;
  j["open_edges"] = q.open_edges;
  j["non_manifold_edges"] = q.non_manifold_edges;
  j["misoriented_edges"] = q.misoriented_edges;
  j["closed"] = q.closed();
  j["consistent"] = q.consistent();
  j["volume"] = q.closed() && q.consistent() ? nlohmann::json(q.volume) : nlohmann::json(nullptr);
  return j;
}

}  // namespace

void add_info_command(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("info", "Print the header of a surface database or summarise a surface set or a mesh file");
  cmd->add_option("FILE", *file, "Surface database (.sdb), surface set (.sdbs directory) or mesh file (.mesh)")->required();
  cmd->add_flag("--json", *json, "Print JSON instead of text");
  cmd->callback([file, json] {
    if (is_mesh_file(*file) || std::filesystem::path(*file).extension() == ".mesh") {
      const auto j = mesh_json(*file);
      if (*json) std::printf("%s\n", j.dump(2).c_str());
      else print_text(j);
      return;
    }
    if (is_surface_set_path(*file)) {
      const auto j = set_json(*file);
      if (*json) std::printf("%s\n", j.dump(2).c_str());
      else print_set_text(j);
      return;
    }
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

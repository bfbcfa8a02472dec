#include "surfdb/formats/surface_set.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "surfdb/formats/checksum.hpp"
#include "surfdb/formats/error.hpp"

namespace surfdb {
namespace {

using nlohmann::json;

constexpr const char* kFormatName = "surfdb surface set";

const char* orientation_name(FaceOrientation o) {
  return o == FaceOrientation::reversed ? "reversed" : "forward";
}

std::string hex16(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(value));
  return text;
}

json face_json(const SetFace& f) {
  return {{"face", f.index},
          {"file", f.file},
          {"surface_type", f.surface_type},
          {"orientation", orientation_name(f.orientation)},
          {"bounding_box", {{"min", f.bounding_box.min}, {"max", f.bounding_box.max}}},
          {"adjacent_faces", f.adjacent},
          {"grid", {f.u_points, f.v_points}},
          {"header_xxh64", hex16(f.header_checksum)}};
}

// Reading: every access names the manifest and the field it wanted.
struct Fields {
  const json& object;
  std::string where;

  const json& at(const char* key) const {
    const auto it = object.find(key);
    if (it == object.end()) throw FormatError(where + ": missing field \"" + key + "\"");
    return *it;
  }
  [[noreturn]] void wrong(const char* key, const char* expected) const {
    throw FormatError(where + ": field \"" + key + "\" must be " + expected);
  }
  std::uint64_t whole(const char* key) const {
    const json& v = at(key);
    if (!v.is_number_unsigned()) wrong(key, "a whole number");
    return v.get<std::uint64_t>();
  }
  std::string text(const char* key) const {
    const json& v = at(key);
    if (!v.is_string()) wrong(key, "a string");
    return v.get<std::string>();
  }
  std::array<double, 3> point(const json& v, const char* key) const {
    if (!v.is_array() || v.size() != 3 || !std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_number(); }))
      wrong(key, "three numbers");
    return {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
  }
};

LengthUnit unit_from(const Fields& f) {
  const std::string name = f.text("length_unit");
  if (name == "mm") return LengthUnit::millimetre;
  if (name == "m") return LengthUnit::metre;
  f.wrong("length_unit", "\"mm\" or \"m\"");
}

SetFace face_from(const json& j, const std::string& where, std::uint32_t part_faces) {
  if (!j.is_object()) throw FormatError(where + ": each entry of \"faces\" must be an object");
  SetFace face;
  const std::uint64_t index = Fields{j, where}.whole("face");
  if (index < 1 || index > part_faces)
    throw FormatError(where + ": face " + std::to_string(index) + " is not a face of the part (1.." +
                      std::to_string(part_faces) + ")");
  face.index = static_cast<std::uint32_t>(index);
  const Fields f{j, where + ", face " + std::to_string(index)};
  face.file = f.text("file");
  if (face.file.empty() || face.file.find('/') != std::string::npos || face.file[0] == '.')
    f.wrong("file", "a plain file name inside the set (no directories, not hidden)");
  face.surface_type = f.text("surface_type");
  const std::string orientation = f.text("orientation");
  if (orientation != "forward" && orientation != "reversed") f.wrong("orientation", "\"forward\" or \"reversed\"");
  face.orientation = orientation == "reversed" ? FaceOrientation::reversed : FaceOrientation::forward;
  const json& box = f.at("bounding_box");
  if (!box.is_object() || !box.contains("min") || !box.contains("max")) f.wrong("bounding_box", "{\"min\": [x,y,z], \"max\": [x,y,z]}");
  face.bounding_box = {f.point(box["min"], "bounding_box.min"), f.point(box["max"], "bounding_box.max")};
  const json& adjacent = f.at("adjacent_faces");
  if (!adjacent.is_array()) f.wrong("adjacent_faces", "an array of face numbers");
  for (const json& a : adjacent) {
    if (!a.is_number_unsigned() || a.get<std::uint64_t>() < 1 || a.get<std::uint64_t>() > part_faces)
      f.wrong("adjacent_faces", "an array of face numbers of the part");
    face.adjacent.push_back(a.get<std::uint32_t>());
  }
  const json& grid = f.at("grid");
  if (!grid.is_array() || grid.size() != 2 || !grid[0].is_number_unsigned() || !grid[1].is_number_unsigned())
    f.wrong("grid", "[u_points, v_points]");
  face.u_points = grid[0].get<std::uint64_t>();
  face.v_points = grid[1].get<std::uint64_t>();
  const std::string hash = f.text("header_xxh64");
  if (hash.size() != 16 || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
    f.wrong("header_xxh64", "16 lower-case hexadecimal digits");
  face.header_checksum = std::stoull(hash, nullptr, 16);
  return face;
}

std::optional<SetEdgesEntry> edges_entry_from(const Fields& top) {
  const json& edges = top.at("edges");
  if (edges.is_null()) return std::nullopt;
  if (!edges.is_object()) top.wrong("edges", "an object or null");
  const Fields f{edges, top.where + ", edges"};
  SetEdgesEntry e{f.text("file"), f.whole("count"), 0};
  if (e.file != kEdgesName) f.wrong("file", "\"edges.json\"");
  const std::string hash = f.text("xxh64");
  if (hash.size() != 16 || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
    f.wrong("xxh64", "16 lower-case hexadecimal digits");
  e.checksum = std::stoull(hash, nullptr, 16);
  return e;
}

// Unit vectors this close to orthonormal (and right-handed) are the part's principal axes.
constexpr double kAxesTolerance = 1e-9;

json mass_frame_json(const std::optional<SetMassFrame>& f) {
  if (!f) return nullptr;
  return {{"volume", f->volume}, {"centre", f->centre}, {"axes", f->axes}, {"moments", f->moments}};
}

std::optional<SetMassFrame> mass_frame_from(const Fields& top) {
  const json& frame = top.at("mass_frame");
  if (frame.is_null()) return std::nullopt;
  if (!frame.is_object()) top.wrong("mass_frame", "an object or null");
  const Fields f{frame, top.where + ", mass_frame"};
  SetMassFrame m;
  const json& volume = f.at("volume");
  if (!volume.is_number() || !(volume.get<double>() > 0) || !std::isfinite(volume.get<double>()))
    f.wrong("volume", "a positive number");
  m.volume = volume.get<double>();
  m.centre = f.point(f.at("centre"), "centre");
  m.moments = f.point(f.at("moments"), "moments");
  if (!(m.moments[0] > 0 && m.moments[0] <= m.moments[1] && m.moments[1] <= m.moments[2] && std::isfinite(m.moments[2])))
    f.wrong("moments", "three positive numbers, ascending");
  const json& axes = f.at("axes");
  if (!axes.is_array() || axes.size() != 3) f.wrong("axes", "three unit vectors");
  for (std::size_t k = 0; k < 3; ++k) m.axes[k] = f.point(axes[k], "axes");
  const auto dot = [&](std::size_t a, std::size_t b) {
    return m.axes[a][0] * m.axes[b][0] + m.axes[a][1] * m.axes[b][1] + m.axes[a][2] * m.axes[b][2];
  };
  const auto& [x, y, z] = m.axes;
  const double handed = x[0] * (y[1] * z[2] - y[2] * z[1]) - x[1] * (y[0] * z[2] - y[2] * z[0]) + x[2] * (y[0] * z[1] - y[1] * z[0]);
  for (std::size_t a = 0; a < 3; ++a)
    for (std::size_t b = 0; b < 3; ++b)
      if (std::abs(dot(a, b) - (a == b ? 1.0 : 0.0)) > kAxesTolerance) f.wrong("axes", "three orthonormal unit vectors");
  if (!(handed > 0)) f.wrong("axes", "right-handed");
  return m;
}

std::string read_text(const std::filesystem::path& path, const std::string& where) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError(where + ": cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The header of one table of the set, checked against its manifest entry.
Header read_table_header(const std::filesystem::path& dir, const SetManifest& m, const SetFace& face,
                 const std::string& set_name) {
  const std::filesystem::path path = dir / face.file;
  const std::string where = set_name + ", face " + std::to_string(face.index) + " (" + face.file + ")";
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (!std::filesystem::exists(status)) throw FormatError(where + ": the table is missing");
  if (!std::filesystem::is_regular_file(status)) throw FormatError(where + ": not a regular file");
  const std::uint64_t bytes = std::filesystem::file_size(path, ec);
  std::vector<std::uint8_t> head(kHeaderBytes);
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size())))
    throw FormatError(where + ": shorter than a header");
  Header h;
  try {
    h = decode_header(head, bytes);
  } catch (const FormatError& e) {
    throw FormatError(where + ": " + e.what());
  }
  if (header_checksum(head) != face.header_checksum)
    throw FormatError(where + ": its header does not match the manifest's checksum (a table from another conversion)");
  if (h.source.name != m.source_name || h.source.face_index != face.index)
    throw FormatError(where + ": the table holds face " + std::to_string(h.source.face_index) + " of " +
                      h.source.name + ", not face " + std::to_string(face.index) + " of " + m.source_name);
  return h;
}

// The edges file, checked against the manifest's entry.
std::vector<SetEdge> read_edges(const std::filesystem::path& dir, const SetManifest& m, const std::string& set_name) {
  const std::filesystem::path path = dir / m.edges->file;
  const std::string where = set_name + ", " + m.edges->file;
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (!std::filesystem::exists(status)) throw FormatError(where + ": the edges file is missing");
  if (!std::filesystem::is_regular_file(status)) throw FormatError(where + ": not a regular file");
  const std::string text = read_text(path, set_name);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  if (checksum({bytes, text.size()}) != m.edges->checksum)
    throw FormatError(where + ": its checksum does not match the manifest's (damaged, or from another conversion)");
  std::vector<SetEdge> edges = decode_edges(text, where, m.part_faces);
  if (edges.size() != m.edges->count)
    throw FormatError(where + ": holds " + std::to_string(edges.size()) + " edges, the manifest says " +
                      std::to_string(m.edges->count));
  return edges;
}

}  // namespace

const SetFace* SetManifest::find(std::uint32_t index) const {
  const auto it = std::lower_bound(faces.begin(), faces.end(), index,
                                   [](const SetFace& f, std::uint32_t i) { return f.index < i; });
  return it != faces.end() && it->index == index ? &*it : nullptr;
}

std::string set_table_name(std::uint32_t index) {
  char name[32];
  std::snprintf(name, sizeof(name), "face_%04u.sdb", index);
  return name;
}

std::uint64_t header_checksum(std::span<const std::uint8_t> first_bytes) {
  return checksum(first_bytes.first(std::min<std::size_t>(first_bytes.size(), kHeaderBytes)));
}

std::string encode_manifest(const SetManifest& m) {
  json faces = json::array();
  for (const SetFace& f : m.faces) faces.push_back(face_json(f));
  json skipped = json::array();
  for (const SkippedFace& s : m.skipped) skipped.push_back({{"face", s.index}, {"reason", s.reason}});
  json j = {{"format", kFormatName},
            {"format_version", m.format_version},
            {"source", {{"kind", m.source_kind}, {"name", m.source_name}, {"faces", m.part_faces}}},
            {"length_unit", length_unit_name(m.length_unit)},
            {"faces", faces},
            {"skipped_faces", skipped}};
  j["spacing"] = m.spacing ? json(*m.spacing) : json(nullptr);
  if (m.format_version >= 3) j["mass_frame"] = mass_frame_json(m.mass_frame);
  if (m.format_version >= 2)
    j["edges"] = m.edges ? json{{"file", m.edges->file}, {"count", m.edges->count}, {"xxh64", hex16(m.edges->checksum)}}
                         : json(nullptr);
  return j.dump(2) + "\n";
}

SetManifest decode_manifest(std::string_view text, const std::string& where) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw FormatError(where + ": not valid JSON (" + e.what() + ")");
  }
  if (!j.is_object()) throw FormatError(where + ": not a JSON object");
  const Fields top{j, where};
  if (top.text("format") != kFormatName) top.wrong("format", "\"surfdb surface set\"");
  SetManifest m;
  const std::uint64_t version = top.whole("format_version");
  if (version < 1 || version > kSurfaceSetVersion)
    throw FormatError(where + ": surface set format version " + std::to_string(version) +
                      " is not supported (this surfdb reads versions 1 to " + std::to_string(kSurfaceSetVersion) + ")");
  m.format_version = static_cast<std::uint32_t>(version);
  const json& source = top.at("source");
  if (!source.is_object()) top.wrong("source", "an object");
  const Fields src{source, where + ", source"};
  m.source_kind = src.text("kind");
  m.source_name = src.text("name");
  m.part_faces = static_cast<std::uint32_t>(std::min<std::uint64_t>(src.whole("faces"), UINT32_MAX));
  m.length_unit = unit_from(top);
  const json& spacing = top.at("spacing");
  if (spacing.is_number() && spacing.get<double>() > 0) m.spacing = spacing.get<double>();
  else if (!spacing.is_null()) top.wrong("spacing", "a positive number or null");
  const json& faces = top.at("faces");
  if (!faces.is_array()) top.wrong("faces", "an array");
  for (const json& f : faces) {
    m.faces.push_back(face_from(f, where, m.part_faces));
    if (m.faces.size() > 1 && m.faces[m.faces.size() - 2].index >= m.faces.back().index)
      throw FormatError(where + ": faces must be listed once each, in ascending order");
  }
  const json& skipped = top.at("skipped_faces");
  if (!skipped.is_array()) top.wrong("skipped_faces", "an array");
  for (const json& s : skipped) {
    if (!s.is_object()) top.wrong("skipped_faces", "an array of objects");
    const Fields f{s, where + ", skipped_faces"};
    m.skipped.push_back({static_cast<std::uint32_t>(std::min<std::uint64_t>(f.whole("face"), UINT32_MAX)), f.text("reason")});
  }
  if (version >= 2) m.edges = edges_entry_from(top);
  if (version >= 3) m.mass_frame = mass_frame_from(top);
  return m;
}

bool is_surface_set_path(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

SurfaceSet read_surface_set(const std::filesystem::path& set_dir) {
  const std::string set_name = set_dir.string();
  if (!is_surface_set_path(set_dir)) throw FormatError(set_name + ": not a surface set directory");
  const std::filesystem::path manifest_path = set_dir / kManifestName;
  std::error_code ec;
  if (!std::filesystem::exists(manifest_path, ec))
    throw FormatError(set_name + ": no " + kManifestName + " (not a surface set, or an interrupted copy)");
  SurfaceSet set{decode_manifest(read_text(manifest_path, set_name), manifest_path.string()), {}, {}};
  const SetManifest& m = set.manifest;
  if (m.faces.empty()) throw FormatError(manifest_path.string() + ": the set holds no faces");
  for (const SetFace& face : m.faces) set.headers.push_back(read_table_header(set_dir, m, face, set_name));
  if (m.edges) set.edges = read_edges(set_dir, m, set_name);
  for (const auto& entry : std::filesystem::directory_iterator(set_dir)) {
    const std::string name = entry.path().filename().string();
    if (name == kManifestName || (m.edges && name == m.edges->file)) continue;
    const bool listed = std::any_of(m.faces.begin(), m.faces.end(), [&](const SetFace& f) { return f.file == name; });
    if (!listed) throw FormatError(set_name + ": " + name + " is not listed in the manifest (a stray file in the set)");
  }
  return set;
}

}  // namespace surfdb

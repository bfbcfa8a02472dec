#include "surfdb/formats/set_edges.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "surfdb/formats/error.hpp"

namespace surfdb {
namespace {

using nlohmann::json;

constexpr const char* kFormatName = "surfdb surface set edges";
constexpr EdgeKind kKinds[] = {EdgeKind::convex, EdgeKind::concave, EdgeKind::smooth, EdgeKind::free};

json vectors_json(const std::vector<std::array<double, 3>>& v) {
  json a = json::array();
  for (const auto& x : v) a.push_back(x);
  return a;
}

json edge_json(const SetEdge& e) {
  json sides = json::array();
  for (const EdgeSide& s : e.sides)
    sides.push_back({{"face", s.face}, {"normal", vectors_json(s.normal)}, {"inward", vectors_json(s.inward)}});
  return {{"edge", e.index}, {"kind", edge_kind_name(e.kind)}, {"points", vectors_json(e.points)}, {"sides", sides}};
}

[[noreturn]] void refuse(const std::string& where, const std::string& what) { throw FormatError(where + ": " + what); }

const json& field(const json& object, const char* key, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end()) refuse(where, std::string("missing field \"") + key + "\"");
  return *it;
}

// An array of [x, y, z] triples; unit vectors when `unit` (to 1e-6).
std::vector<std::array<double, 3>> triples(const json& v, const char* key, bool unit, const std::string& where) {
  if (!v.is_array()) refuse(where, std::string("field \"") + key + "\" must be an array of [x, y, z]");
  std::vector<std::array<double, 3>> out;
  out.reserve(v.size());
  for (const json& t : v) {
    if (!t.is_array() || t.size() != 3 || !t[0].is_number() || !t[1].is_number() || !t[2].is_number())
      refuse(where, std::string("field \"") + key + "\" must be an array of [x, y, z]");
    const std::array<double, 3> x{t[0].get<double>(), t[1].get<double>(), t[2].get<double>()};
    const double length = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    if (unit && !(std::abs(length - 1) < 1e-6)) refuse(where, std::string("field \"") + key + "\" holds a vector that is not of unit length");
    out.push_back(x);
  }
  return out;
}

std::uint32_t face_number(const json& v, std::uint32_t part_faces, const std::string& where) {
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() < 1 || v.get<std::uint64_t>() > part_faces)
    refuse(where, "field \"face\" must be a face number of the part (1.." + std::to_string(part_faces) + ")");
  return v.get<std::uint32_t>();
}

SetEdge edge_from(const json& j, const std::string& where, std::uint32_t part_faces) {
  if (!j.is_object()) refuse(where, "each entry of \"edges\" must be an object");
  SetEdge e;
  const json& index = field(j, "edge", where);
  if (!index.is_number_unsigned() || index.get<std::uint64_t>() < 1 || index.get<std::uint64_t>() > UINT32_MAX)
    refuse(where, "field \"edge\" must be a whole number from 1");
  e.index = index.get<std::uint32_t>();
  const std::string at = where + ", edge " + std::to_string(e.index);
  const json& kind = field(j, "kind", at);
  bool known = false;
  for (const EdgeKind k : kKinds)
    if (kind.is_string() && kind.get<std::string>() == edge_kind_name(k)) e.kind = k, known = true;
  if (!known) refuse(at, "field \"kind\" must be \"convex\", \"concave\", \"smooth\" or \"free\"");
  e.points = triples(field(j, "points", at), "points", false, at);
  if (e.points.size() < 2) refuse(at, "an edge needs at least two points");
  const json& sides = field(j, "sides", at);
  if (!sides.is_array() || sides.empty() || sides.size() > 2) refuse(at, "field \"sides\" must hold one or two faces");
  if ((sides.size() == 1) != (e.kind == EdgeKind::free)) refuse(at, "a free edge has one side, every other edge two");
  for (const json& s : sides) {
    if (!s.is_object()) refuse(at, "each entry of \"sides\" must be an object");
    EdgeSide side{face_number(field(s, "face", at), part_faces, at), triples(field(s, "normal", at), "normal", true, at),
                  triples(field(s, "inward", at), "inward", true, at)};
    if (side.normal.size() != e.points.size() || side.inward.size() != e.points.size())
      refuse(at, "a side's \"normal\" and \"inward\" must hold one vector per point");
    e.sides.push_back(std::move(side));
  }
  if (e.sides.size() == 2 && e.sides[0].face > e.sides[1].face) refuse(at, "the sides must be in ascending face order");
  return e;
}

}  // namespace

const char* edge_kind_name(EdgeKind k) {
  switch (k) {
    case EdgeKind::convex: return "convex";
    case EdgeKind::concave: return "concave";
    case EdgeKind::smooth: return "smooth";
    case EdgeKind::free: return "free";
  }
  return "convex";
}

std::string encode_edges(const std::vector<SetEdge>& edges) {
  json list = json::array();
  for (const SetEdge& e : edges) list.push_back(edge_json(e));
  return json{{"format", kFormatName}, {"edges", list}}.dump() + "\n";
}

std::vector<SetEdge> decode_edges(std::string_view text, const std::string& where, std::uint32_t part_faces) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    refuse(where, std::string("not valid JSON (") + e.what() + ")");
  }
  if (!j.is_object()) refuse(where, "not a JSON object");
  const json& format = field(j, "format", where);
  if (!format.is_string() || format.get<std::string>() != kFormatName)
    refuse(where, "field \"format\" must be \"surfdb surface set edges\"");
  const json& list = field(j, "edges", where);
  if (!list.is_array()) refuse(where, "field \"edges\" must be an array");
  std::vector<SetEdge> edges;
  for (const json& e : list) {
    edges.push_back(edge_from(e, where, part_faces));
    if (edges.size() > 1 && edges[edges.size() - 2].index >= edges.back().index)
      refuse(where, "edges must be listed once each, in ascending order");
  }
  return edges;
}

}  // namespace surfdb

// The edges of a surface set (`edges.json`, docs/surface-set.md#edgesjson): every edge bounding a
// face of the set, tabulated as points along it with, per face on each side, the face's outward
// normal and the direction into the face across the edge. Contact uses them as features: a
// sphere that leaves a face over a convex edge or rests on a hole's rim touches the edge.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace surfdb {

inline constexpr const char* kEdgesName = "edges.json";

/// How the faces meet along an edge: `convex` (the solid's material lies inside the wedge between
/// the faces, as at a box's edge), `concave` (an inner corner), `smooth` (tangent faces, within
/// 1 degree everywhere) or `free` (one face only: an open shell's boundary).
enum class EdgeKind { convex, concave, smooth, free };

const char* edge_kind_name(EdgeKind k);

/// One face along an edge: its number in the part, and at each of the edge's points the face's
/// outward unit normal and the unit direction, perpendicular to the edge, pointing into the face.
struct EdgeSide {
  std::uint32_t face = 0;
  std::vector<std::array<double, 3>> normal, inward;
};

struct SetEdge {
  std::uint32_t index = 0;  // the edge's number among the set's edges (1-based; see the format page)
  EdgeKind kind = EdgeKind::convex;
  std::vector<std::array<double, 3>> points;  // along the edge, in the part's coordinates and unit
  std::vector<EdgeSide> sides;                // one (free) or two faces, ascending face number
};

/// The edges as JSON text: keys sorted, numbers in shortest round-trip form, no whitespace, a
/// final newline. The same edges always give the same bytes.
std::string encode_edges(const std::vector<SetEdge>& edges);

/// Parses and checks the edges (field types, at least two points, every side's arrays as long as
/// the points, unit vectors, face numbers within 1..part_faces). Throws FormatError naming `where`.
std::vector<SetEdge> decode_edges(std::string_view text, const std::string& where, std::uint32_t part_faces);

}  // namespace surfdb

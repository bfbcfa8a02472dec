// Tabulating the edges of a surface set's faces (set_edges.hpp): each edge of the part that bounds
// a chosen face, sampled at equal arc lengths along OpenCASCADE's exact curve, with each side
// face's outward normal (from its surface and orientation) and the direction into the face (the
// pcurve's side the face classifier finds the face on).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "surfdb/formats/set_edges.hpp"
#include "surfdb/libsurfdb/cad_model.hpp"

namespace surfdb {

/// The edges bounding any of `faces` (part face numbers), numbered 1.. in the order of
/// TopExp::MapShapesAndAncestors over the part's faces; seam edges (one face on both sides) and
/// degenerate edges (a sphere's pole) are left out. Points lie at most spacing / 2 apart (the
/// edge's length / 64 without a spacing) and the tangent turns at most 1 degree between two.
/// Throws CadError naming the edge and face when OpenCASCADE cannot evaluate an edge on a face.
std::vector<SetEdge> sample_set_edges(const CadModel& model, const std::vector<std::uint32_t>& faces,
                                      std::optional<double> spacing);

}  // namespace surfdb

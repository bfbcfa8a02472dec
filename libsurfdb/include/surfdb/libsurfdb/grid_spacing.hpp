// Choosing a face's grid from a target node spacing in 3-D, so that a 300 mm face and a 2 mm
// fillet of one part get grids of similar spacing rather than the same number of nodes.
#pragma once

#include <cstdint>

#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/libsurfdb/surface_source.hpp"

namespace surfdb {

/// Length of the longest iso-parametric line of the face's parameter rectangle along u (lines of
/// constant v) and along v, in the source's length unit: each of `lines` lines is measured as a
/// polyline of `segments` chords (a lower bound of the arc length that converges from below).
struct IsoLengths {
  double along_u = 0, along_v = 0;
};
IsoLengths iso_lengths(const SurfaceSource& source, int lines = 9, int segments = 64);

/// Nodes along u and v so that neighbouring nodes lie at most about `spacing` apart along the
/// longest iso-line: ceil(L / spacing) + 1, at least 2 and at most `max_points` per direction.
/// Throws std::invalid_argument when spacing is not positive and finite or max_points < 2.
GridSize grid_for_spacing(const SurfaceSource& source, double spacing, std::uint64_t max_points);

}  // namespace surfdb

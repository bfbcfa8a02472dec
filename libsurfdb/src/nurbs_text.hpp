// Reader of the NURBS text format (docs/nurbs-text.md): one B-spline surface, rational or not.
#pragma once

#include <Geom_BSplineSurface.hxx>
#include <filesystem>

#include "surfdb/formats/header.hpp"

namespace surfdb {

struct NurbsText {
  Handle(Geom_BSplineSurface) surface;
  LengthUnit unit = LengthUnit::millimetre;
};

/// Throws CadError naming the line and the problem.
NurbsText read_nurbs_text(const std::filesystem::path& path);

}  // namespace surfdb

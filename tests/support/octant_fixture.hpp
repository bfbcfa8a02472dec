// The paper's octant (R = 50 mm) at 999 x 999 points in 27 x 27 records, converted once per test
// program into a temporary directory.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <memory>

#include "surfdb/libsurfdb/analytic_surfaces.hpp"
#include "surfdb/libsurfdb/converter.hpp"
#include "surfdb/table/database.hpp"
#include "temp_dir.hpp"

namespace surfdb::test {

/// The closed form of the octant, Machado, Flores and Ambrósio 2014, Eq. 3, R = 50 mm.
inline Eigen::Vector3d octant_point(double u, double v) {
  return 50.0 * Eigen::Vector3d(std::cos(u) * std::cos(v), std::cos(u) * std::sin(v), std::sin(u));
}

inline std::shared_ptr<const Database> paper_octant() {
  static TempDir dir;
  static std::shared_ptr<const Database> db = [] {
    convert_surface(*make_analytic_surface(AnalyticSpec{}), ConvertOptions{}, dir / "octant.sdb");
    return Database::open(dir / "octant.sdb");
  }();
  return db;
}

}  // namespace surfdb::test

// Opens a surface database, follows a point along a straight path in (u,v) with a 5 x 5-record
// storage window, and projects a point onto the surface: the runtime as another simulator uses it.
// Usage: probe_surface FILE.sdb
#include <cstdio>
#include <exception>
#include <surfdb/table/projection.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: probe_surface FILE.sdb\n");
    return 2;
  }
  try {
    const auto db = surfdb::Database::open(argv[1]);
    const surfdb::Header& h = db->header();
    surfdb::SurfaceBinding binding(db, {5, 5});
    double length = 0;
    Eigen::Vector3d previous = binding.query(h.u0, h.v0).p;
    for (int k = 1; k <= 1000; ++k) {  // the diagonal of the parameter rectangle
      const double s = k / 1000.0;
      const surfdb::SurfacePoint p = binding.query(h.u0 + s * (h.u1 - h.u0), h.v0 + s * (h.v1 - h.v0));
      length += (p.p - previous).norm();
      previous = p.p;
    }
    const auto tree = surfdb::NodeTree::build(*db);
    const surfdb::Projection foot = surfdb::project_global(binding, *tree, {10, 20, 30});
    std::printf("diagonal length %.6f %s, window updates %llu\n", length,
                surfdb::length_unit_name(h.length_unit),
                static_cast<unsigned long long>(binding.window().stats().updates));
    std::printf("closest point to (10, 20, 30): (%.6f, %.6f, %.6f), distance %.6f\n", foot.point.p.x(),
                foot.point.p.y(), foot.point.p.z(), foot.distance);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "probe_surface: %s\n", e.what());
    return 1;
  }
}

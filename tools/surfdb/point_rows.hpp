// The CSV and JSON rows `query` and `project` print: u,v,x,y,z,nx,ny,nz,tx,ty,tz,bx,by,bz,valid
// (and distance), numbers in their shortest round-trip form.
#pragma once

#include <cstdio>
#include <optional>

#include "number_format.hpp"
#include "surfdb/table/surface_point.hpp"

namespace surfdb::cli {

inline void print_point_header(bool with_distance) {
  std::fputs("u,v,x,y,z,nx,ny,nz,tx,ty,tz,bx,by,bz,valid", stdout);
  std::fputs(with_distance ? ",distance\n" : "\n", stdout);
}

/// A projection's row passes its distance and whether it converged to the nearest point: an
/// unconverged answer is never printed valid.
inline void print_point_row(const SurfacePoint& s, std::optional<double> distance, bool json, bool converged = true) {
  const double values[14] = {s.u,      s.v,      s.p.x(), s.p.y(), s.p.z(), s.n.x(), s.n.y(),
                             s.n.z(),  s.t.x(),  s.t.y(), s.t.z(), s.b.x(), s.b.y(), s.b.z()};
  static const char* names[14] = {"u", "v", "x", "y", "z", "nx", "ny", "nz", "tx", "ty", "tz", "bx", "by", "bz"};
  const int valid = s.status == QueryStatus::valid && converged ? 1 : 0;
  if (json) {
    std::fputc('{', stdout);
    for (int k = 0; k < 14; ++k) std::printf("\"%s\": %s, ", names[k], format_number(values[k]).c_str());
    std::printf("\"valid\": %d, \"status\": \"%s\"", valid, converged ? status_name(s.status) : "not_converged");
    if (distance) std::printf(", \"distance\": %s", format_number(*distance).c_str());
    std::fputs("}\n", stdout);
    return;
  }
  for (int k = 0; k < 14; ++k) std::printf("%s,", format_number(values[k]).c_str());
  std::printf("%d", valid);
  if (distance) std::printf(",%s", format_number(*distance).c_str());
  std::fputc('\n', stdout);
}

}  // namespace surfdb::cli

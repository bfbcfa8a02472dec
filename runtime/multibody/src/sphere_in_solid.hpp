// Where a sphere is against a solid: for a contact of a sphere with a surface set whose faces
// close (solid_distance.hpp), the signed distance of its centre to the solid at a state, in
// metres; for a sphere in a spherical cavity, while the sphere straddles the cavity's wall from
// outside (its centre beyond the wall by less than its radius, below the rim), the centre's depth
// in the wall (the cavity's outside is no surface the contact sees). The t = 0 check refuses a
// sphere overlapping the solid at any depth; the health monitor counts a sphere whose centre is
// inside while none of its points touches (it passed through).
#pragma once

#include "surfdb/multibody/contact_pair.hpp"

namespace surfdb {

struct SphereInSolid {
  bool applies = false;  // a sphere against a closed surface set, or straddling a cavity's wall
  double centre = 0;     // m: the centre's signed distance to the solid (negative inside)
  double radius = 0;     // m, the sphere's
};

/// The sphere's centre against the pair's solid at the bodies' state y. Where the centre lies
/// farther than the radius outside the set's bounding sphere, `centre` is that lower bound on the
/// distance (no projection is made).
SphereInSolid sphere_in_solid(const ContactPair& pair, const double* y);

}  // namespace surfdb

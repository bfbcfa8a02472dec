// Triangle meshes of a scene's surfaces for `surfdb simulate --animation`, each made once in its
// body's axes (m); a frame only moves the vertices to the body's pose.
//
// Every kind of ContactSurface is drawn: a table set (each face from its grid nodes, subsampled,
// cells with an invalid node left out), a sphere, a spherical cavity (the cap it keeps), a plane (a
// finite square patch), a box, a solid cylinder and a closed cylindrical cavity. Each vertex has the
// surface's unit normal out of the material (into the hollow of a cavity), and each triangle winds
// counter-clockwise seen from the side its vertices' normals point to, so that a viewer lights
// the side a partner touches.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "surfdb/contact/contact_primitives.hpp"
#include "surfdb/multibody/contact_surface.hpp"

namespace surfdb::cli {

/// How finely the curved primitives and the tables are drawn. The defaults keep a frame of many
/// balls small (a ball is 114 vertices and 224 triangles); a viewer's smooth shading from the
/// normals hides the facets.
struct MeshResolution {
  int around = 16;       // segments around a sphere's, a cavity's or a cylinder's axis, >= 3
  int pole_to_pole = 8;  // segments of a whole sphere from pole to pole, >= 2 (a cavity's cap: its share)
  int table_nodes = 150;  // grid nodes drawn per table face along u and along v, at most
};

/// Triangles over vertices with normals, in one body's axes.
struct SurfaceMesh {
  std::vector<Eigen::Vector3d> points;   // m, body axes
  std::vector<Eigen::Vector3f> normals;  // unit, body axes, out of the material: one per point
  std::vector<std::array<std::uint32_t, 3>> triangles;  // indices into points
};

/// The surface's mesh in its body's axes. A plane is the square of half side `plane_half_side`
/// (m) centred on its point (plane_half_side() chooses one); the other kinds ignore it. A table's
/// faces are read through their mappings once (each row of records released again after use).
SurfaceMesh tessellate(const ContactSurface& surface, double plane_half_side, const MeshResolution& resolution = {});

/// The half side (m) of the square drawn for a plane through `point` (world, m): twice the
/// farthest reach from it of `others` (the other surfaces' bounding spheres, world), so that
/// everything above the plane casts onto it with a margin; 1 m when there is nothing to reach.
double plane_half_side(const Eigen::Vector3d& point, std::span<const Sphere> others);

}  // namespace surfdb::cli

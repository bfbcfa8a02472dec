// One output instant of `surfdb simulate --animation` as the text of two VTK XML PolyData files
// (vtk_xml.hpp): the scene's surfaces at the bodies' poses, and the contact points with their
// forces.
//
// Surfaces: every surface of Simulation::surfaces() in one triangle mesh, tessellated once in its
// body's axes (animation_mesh.hpp). A frame moves the points and their normals to the poses; the
// rest (triangles, cell data `surface` and `body`) is text made once, so a frame allocates nothing
// once its buffers have grown. Point data `Normals` (unit, world).
//
// Contacts: a vertex per contact point that carries force at the simulation's last evaluation
// (that of the output instant: RunObserver::output), at the midpoint of the two surfaces'
// contact points, with point data `normal_force` (N, world: the normal force on body i, along the
// contact normal), `friction_force` (N, world, on body i), `indentation` (m) and `contact` (index
// into Simulation::contacts()).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "surfdb/multibody/simulation.hpp"

namespace surfdb::cli {

class AnimationFrame {
 public:
  /// Tessellates the simulation's surfaces at the default resolution; planes are sized at the
  /// state y0 (plane_half_side()).
  AnimationFrame(const Simulation& sim, const double* y0);

  /// The surfaces at the bodies' poses in state y. The text stays valid until the next call.
  const std::string& surfaces(const double* y);
  /// The contact points of the simulation's last evaluation. Valid until the next call.
  const std::string& contacts(const Simulation& sim);

 private:
  struct Placement {  // a run of the mesh's points on one body
    int body = kGround;
    Eigen::Index begin = 0, count = 0;
  };
  void make_surface_text(std::span<const std::int32_t> connectivity, std::span<const std::int32_t> surface_of,
                         std::span<const std::int32_t> body_of);
  void append_contact_point(int contact, const ContactResult& result, const ContactForces& forces);
  void append_element(int contact, const ContactElement& element);  // a polygonal contact's element

  // Surfaces
  std::vector<Placement> placements_;
  Eigen::Matrix3Xd body_points_, world_points_;    // m
  Eigen::Matrix3Xf body_normals_, world_normals_;  // unit
  std::string before_normals_, before_points_, after_points_;  // the frame's text that never changes
  // Contacts, per frame
  std::vector<double> contact_points_, normal_forces_, friction_forces_, indentations_;  // m, N, N, m
  std::vector<std::int32_t> contact_of_, counting_;  // counting_: 0, 1, 2, ... for the vertex cells
  std::string text_;
};

}  // namespace surfdb::cli

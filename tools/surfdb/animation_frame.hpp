// One output instant of `surfdb simulate --animation` as the text of two VTK XML PolyData files
// (vtk_xml.hpp): the scene's surfaces at the bodies' poses, and the contact points with their
// forces.
//
// Surfaces: the surfaces of Simulation::surfaces() on bodies in one triangle mesh, tessellated
// once in their bodies' axes (animation_mesh.hpp); those on the ground, and on bodies that fixed
// joints weld to it (weld_clusters: an assembly's parts fastened to its grounded base), in
// another, made once at the initial state. A
// frame moves the bodies' points and their normals to the poses; the rest (triangles, cell data
// `surface`, the index into Simulation::surfaces(), and `body`) is text made once, so a frame
// allocates nothing once its buffers have grown. Point data `Normals` (unit, world).
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

#include "animation_gltf.hpp"
#include "animation_mesh.hpp"
#include "surfdb/multibody/simulation.hpp"

namespace surfdb::cli {

class AnimationFrame {
 public:
  /// Tessellates the simulation's surfaces at the default resolution; planes are sized at the
  /// state y0 (plane_half_side()).
  AnimationFrame(const Simulation& sim, const double* y0);

  /// The surfaces on bodies at the bodies' poses in state y. Valid until the next call.
  const std::string& surfaces(const double* y);
  /// The surfaces on the ground and on bodies welded to it (world, at the initial state); empty
  /// when there are none.
  const std::string& ground_surfaces() const { return ground_text_; }
  /// The contact points of the simulation's last evaluation. Valid until the next call.
  const std::string& contacts(const Simulation& sim);
  /// The same surfaces as one glTF scene (animation_gltf.hpp): each body's once, moved by its poses.
  GltfAnimation& gltf() { return gltf_; }

 private:
  // Surfaces as one mesh, in their bodies' axes, and the text of a frame of it.
  class Layer {
   public:
    /// Surfaces `which` (indices into `surfaces`) of their tessellations `meshes`.
    void make(const std::vector<ContactSurface>& surfaces, const std::vector<SurfaceMesh>& meshes,
              const std::vector<std::size_t>& which);
    /// The mesh at the bodies' poses in state y, as `out`'s text.
    void write(const double* y, std::string& out);

   private:
    struct Placement {  // a run of the mesh's points on one body
      int body = kGround;
      Eigen::Index begin = 0, count = 0;
    };
    void make_text(std::span<const std::int32_t> connectivity, std::span<const std::int32_t> surface_of,
                   std::span<const std::int32_t> body_of);

    std::vector<Placement> placements_;
    Eigen::Matrix3Xd body_points_, world_points_;    // m
    Eigen::Matrix3Xf body_normals_, world_normals_;  // unit
    std::string before_normals_, before_points_, after_points_;  // the frame's text that never changes
  };
  void append_contact_point(int contact, const ContactResult& result, const ContactForces& forces);
  void append_element(int contact, const ContactElement& element);  // a polygonal contact's element

  Layer bodies_, ground_;
  std::string ground_text_;
  GltfAnimation gltf_;
  // Contacts, per frame
  std::vector<double> contact_points_, normal_forces_, friction_forces_, indentations_;  // m, N, N, m
  std::vector<std::int32_t> contact_of_, counting_;  // counting_: 0, 1, 2, ... for the vertex cells
  std::string text_;
};

}  // namespace surfdb::cli

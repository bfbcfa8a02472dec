// `surfdb simulate --animation` as one glTF 2.0 scene (the Khronos Group's format for 3-D scenes,
// read by ParaView, Blender and web viewers): every moving body's surfaces as one mesh in its body
// axes, written once, and an animation that moves each body by its pose at the frame instants
// (translation and rotation channels, linear between instants); the ground's surfaces, with those
// of bodies welded to it, as one mesh that never moves.
//
//   OUTDIR/animation/scene.gltf  the scene (JSON): node 0 "world" turns the run's z up into
//                                glTF's y up (a quarter turn about x); its children are node 1
//                                "ground" (when it has surfaces) and a node per moving body,
//                                named as the body, whose translation (m, world) and rotation
//                                (x, y, z, w; body axes to world) are the body's pose
//   OUTDIR/animation/scene.bin   its one buffer: float32 points (m) and normals, uint32
//                                triangles, the instants (s) and the poses, little-endian
//
// glTF's numbers are float32: an instant whose time does not exceed the last one kept as float32
// (instants microseconds apart late in a long run) is left out of the scene, not of the VTK frames.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace surfdb::cli {

class GltfAnimation {
 public:
  /// A mesh: its points (m) and unit normals in its body's axes (the world's for the ground),
  /// its triangles as indices into the points.
  struct Mesh {
    std::string name;
    int body = -1;  // the body it moves with; -1: the ground
    std::vector<Eigen::Vector3f> points, normals;
    std::vector<std::uint32_t> indices;  // three per triangle
  };

  GltfAnimation() = default;
  /// The meshes: the ground's (body -1, at most one) and one per moving body.
  explicit GltfAnimation(std::vector<Mesh> meshes);

  /// The poses of the moving bodies at time t (s) in state y (multibody_state.hpp's layout).
  void add(double t, const double* y);

  /// The scene's JSON text, naming its buffer file `bin_name`, and the buffer's bytes.
  struct Files {
    std::string json, buffer;
  };
  Files files(const std::string& bin_name) const;

  std::size_t instants() const { return times_.size(); }

 private:

  std::vector<Mesh> meshes_;
  std::vector<float> times_;  // s
  std::vector<float> translations_, rotations_;  // per instant, per moving body: 3 and 4 (x, y, z, w)
  std::size_t moving_ = 0;   // meshes that move (body >= 0)
};

}  // namespace surfdb::cli

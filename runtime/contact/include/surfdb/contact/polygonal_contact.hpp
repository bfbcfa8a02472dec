// The polygonal contact model (Hippmann 2003, paper 002 of docs/references.md): areal contact
// between two triangle meshes on moving bodies, with an elastic foundation.
//
// Per evaluation, in the master mesh's frame: the two bounding-volume trees are traversed against
// each other in the meshes' relative pose; the leaf pairs' triangles are crossed (their segments
// chained into intersection polygons); from the crossed master triangles a walk over the
// half-edges goes inwards (from a crossed triangle across the edges the slave does not cross, on
// the side behind it; from any other triangle only while it lies inside the slave) and finds the
// active surface part. Each of its triangles whose centroid C_e lies inside the
// slave is a contact element k with area A_k = A_e, normal n_k = -n_e and penetration
// u_k, the distance from C_e along -n_e to the slave triangle f that line leaves it through
// (u_k = n_f . r_CeCf / (n_e . n_f) with the signs of docs/notation.md). Its force acts at
// C_k = C_e + c_F / (c_E + c_F) u_k n_k:
//   normal   F_n = max(0, c A u + d A u' min(1, u / u_d))    (elastic foundation, areal damping, no adhesion)
//   friction F_t = -mu F_n g(v) v_t / |v_t|, g = (v/v_e)(2 - v/v_e) below v_e, 1 above   (regularised Coulomb, on the master)
// summed into a force and torque on each body. A pair may hold several patches. The evaluator is
// the pair's mutable state: its buffers grow to the largest contact seen and are reused.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/contact/triangle_intersection.hpp"
#include "surfdb/contact/triangle_mesh.hpp"

namespace surfdb {

/// The contact elements' law. SI units.
struct ElasticFoundation {
  double stiffness = 0;          // c, N/m^3: an element carries c A u
  double damping = 0;            // d, N s/m^3: an element carries d A u' (areal damping)
  double damping_depth = 0;      // u_d, m: below it the damping fades with u / u_d (0: never)
  double master_share = 0.5;     // c_F / (c_E + c_F): the master's part of the penetration
  double friction = 0;           // mu
  double friction_velocity = 1e-4;  // v_e, m/s: full Coulomb friction from this sliding speed

  /// The law of two elastic layers, each of modulus K (Pa) and thickness b (m) over a rigid core:
  /// c = 1 / (b_E / K_E + b_F / K_F), master_share = c_F / (c_E + c_F) with c_X = K_X / b_X.
  static ElasticFoundation from_layers(double modulus_master, double thickness_master, double modulus_slave,
                                       double thickness_slave);
};

/// One contact element, world axes.
struct ContactElement {
  std::uint32_t triangle = 0;  // master triangle e
  std::uint32_t partner = 0;   // slave triangle f
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   // C_k, m
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();  // n_k = -n_e: the force on the master is along it
  double area = 0;             // A_k, m^2
  double penetration = 0;      // u_k, m
  double penetration_rate = 0; // u'_k, m/s
  double normal_force = 0;     // F_n, N
  Eigen::Vector3d friction_force = Eigen::Vector3d::Zero();  // F_t on the master, N
};

/// One evaluation's totals, world axes.
struct PolygonalContactResult {
  std::size_t elements = 0;        // contact elements (active master triangles with a partner)
  std::size_t patches = 0;         // connected groups of elements
  std::size_t polygons = 0;        // intersection polygons (closed loops, or chains ending at open edges)
  std::size_t segments = 0;        // triangle-triangle intersection segments
  double area = 0;                 // m^2, sum of A_k
  double volume = 0;               // m^3, sum of A_k u_k (the penetration volume)
  double max_penetration = 0;      // m
  double normal_force = 0;         // N, sum of F_n
  double elastic_energy = 0;       // J, sum of c A_k u_k^2 / 2
  double dissipated_power = 0;     // W, by damping and friction
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  // m: the elements' points weighted by F_n
  Eigen::Vector3d force_i = Eigen::Vector3d::Zero(), torque_i = Eigen::Vector3d::Zero();  // on the master's body, about its reference point
  Eigen::Vector3d force_j = Eigen::Vector3d::Zero(), torque_j = Eigen::Vector3d::Zero();  // on the slave's body
  TraversalCounts pair_search;     // the trees against each other (or every pair, brute force)
  TraversalCounts element_search;  // the slave's tree against the elements' lines
  bool in_contact() const { return elements > 0; }
};

/// An intersection segment between master triangle e and slave triangle f (master frame).
struct IntersectionSegment {
  std::uint32_t master = 0, slave = 0;
  TriangleCut cut;
};

class PolygonalContact {
 public:
  enum class Search { tree, brute_force };

  /// The master mesh on body i, the slave on body j, each placed by its mount (the meshes in
  /// metres in their surface frames).
  PolygonalContact(std::shared_ptr<const TriangleMesh> master, SurfaceMount mount_master,
                   std::shared_ptr<const TriangleMesh> slave, SurfaceMount mount_slave, ElasticFoundation law);

  /// Evaluates the contact at the bodies' states; `search` = brute_force tests every triangle
  /// pair and every slave triangle per element (a reference for the trees). Asked again at
  /// exactly the last call's states (body_state.hpp, identical) and search, it returns that
  /// call's result at once: an integrator asks for the state of the step just accepted.
  const PolygonalContactResult& evaluate(const BodyState& i, const BodyState& j, Search search = Search::tree);

  const PolygonalContactResult& result() const { return result_; }
  std::span<const ContactElement> elements() const { return elements_; }
  std::span<const IntersectionSegment> segments() const { return segments_; }
  const ElasticFoundation& law() const { return law_; }
  const TriangleMesh& master() const { return *master_; }
  const TriangleMesh& slave() const { return *slave_; }

 private:
  struct Frames;
  void find_segments(const Frames& f, Search search);
  void walk_active_part(const Frames& f, Search search);
  void push_inner_neighbours(const Frames& f, std::uint32_t e);
  std::size_t count_patches();
  enum class Inside { no, yes, element };  // a master triangle's centroid: outside, inside, inside and facing
  Inside make_element(const Frames& f, std::uint32_t e, Search search, ContactElement& element);
  void apply_law(const BodyState& i, const BodyState& j, ContactElement& element);
  std::size_t count_polygons();

  std::shared_ptr<const TriangleMesh> master_, slave_;
  SurfaceMount mount_master_, mount_slave_;
  ElasticFoundation law_;
  PolygonalContactResult result_;
  BodyState evaluated_i_, evaluated_j_;  // the last evaluate()'s states and search, while evaluated_
  Search evaluated_search_ = Search::tree;
  bool evaluated_ = false;
  // Buffers reused between evaluations: the elements and the queue sized for every master triangle
  // at construction, the rest grown to the largest intersection so far.
  std::vector<IntersectionSegment> segments_;
  std::vector<ContactElement> elements_;
  std::vector<std::pair<std::int32_t, std::int32_t>> pair_stack_;
  std::vector<std::int32_t> line_stack_;
  // Per master triangle, stamped with the evaluation (round_) that last set them: reached by the
  // walk; crossed (with the crossed edges and the first slave triangle crossing it); an element.
  std::vector<std::uint32_t> visited_, crossed_, element_of_;
  std::vector<std::uint8_t> crossed_edges_;
  std::vector<std::uint32_t> crossing_slave_;
  std::uint32_t round_ = 0;
  std::vector<std::uint32_t> queue_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> end_keys_;  // segment ends by the edge they lie on
  std::vector<std::uint32_t> chain_;                                // union-find over segments
};

}  // namespace surfdb

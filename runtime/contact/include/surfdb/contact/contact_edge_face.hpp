// An edge of one table set against a face (a lookup table) of the other set: where parts meet
// along a line or over a flat (a rod lying on a plate, a box standing on it, a bolt's head on a
// bracket), the contact region is bounded by edges, and the load along those edges holds the
// parts. A rod lying on a plate rests on its two end rims, a box on its bottom edges, a rod over
// the plate's edge on that edge; the faces' own common-normal solve has no isolated answer there
// (contact_manifold.hpp leaves those face pairs to the edges).
//
// Each tabulated point x(s) of the edge (on a flat face, every 8th and every 4 degrees of turning)
// is projected onto the face (projection.hpp, warm-started from its last foot); between two
// points the depth is the cubic their depths and slopes give. A point behind the face by delta(s) at most the contact's max_entry_depth (a point
// farther behind lies nearer another face of that part: the plate's bottom face is 20 mm "below"
// a rim resting on its top), whose foot lies on the trimmed face nearer the face than its
// boundary, carries a load per length p(s) = k' delta(s)^(n - 1/2) along the face's normal there,
// n the pair's law exponent. The result is one contact point: the resultant's direction, applied
// at the load's centroid, with the indentation delta_eq at which the pair's law K delta^n gives
// the resultant. k' = K / (sqrt(2 rho) B(1/2, n + 1/2)), 1 / rho the sum of the edge's and the
// face's largest curvatures (face_survey.hpp), rho at most half the edge's length, so that where the depth along the edge falls as
// delta(s) = delta0 - s^2 / (2 rho) the edge carries exactly the point law K delta0^n (as a ball on
// an edge, contact_sphere_edge.hpp): a rod's rim standing on a plate, a plate's straight edge
// under a rod lying across it or under a ball table rolling over it. A straight edge on a flat
// face has no curvature (along the set's axes or askew): rho is half its length, and lying flat at depth delta it carries
// K sqrt(L) delta^(n - 1/2) / B.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "surfdb/contact/body_state.hpp"
#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/contact/contact_result.hpp"
#include "surfdb/contact/shape_operator.hpp"
#include "surfdb/table/face_survey.hpp"
#include "surfdb/table/surface_binding.hpp"
#include "surfdb/table/table_set.hpp"

namespace surfdb {

class EdgeFaceContact {
 public:
  /// The edge in its set's axes and unit (meters_per_unit), placed in its body by edge_mount; the
  /// face's table, its boundary edges (TableSet::face_edges) and its survey (the box of the
  /// trimmed face), placed by face_mount. `edge_on_i`: the edge is body i's and the face body j's,
  /// else the reverse. Uses options.edge_exponent (n), max_entry_depth, the window and residency
  /// of the face's side. Builds the table's node tree.
  EdgeFaceContact(const SetEdge& edge, double meters_per_unit, SurfaceMount edge_mount,
                  std::shared_ptr<const Database> face, SurfaceMount face_mount, std::span<const FaceEdge> boundary,
                  const FaceSurvey& survey, bool edge_on_i, const ContactOptions& options);

  /// Detection for the given body states: touching with the resultant's point, normal (out of
  /// body j's material) and indentation, or separated with a lower bound of the gap (from the
  /// edge's bounding sphere to the face's box). Never throws.
  ContactResult evaluate(const BodyState& body_i, const BodyState& body_j);

  /// Both shape operators zero: a sharp edge on a face whose curvature the edge's load does not use.
  ContactShapes shapes() const { return {Eigen::Matrix3d::Zero(), Eigen::Matrix3d::Zero()}; }
  // The detector interface of the other kinds: each point warm-starts from its last foot point.
  void request_global_search() {
    have_guess_ = false;
    for (Guess& g : guesses_) g.valid = false;
  }
  void set_guess(double, double) {}
  std::uint64_t skipped_solves() const { return 0; }
  const SurfaceBinding& binding() const { return binding_; }
  /// Whether the face is body j's (the edge body i's).
  bool face_on_j() const { return edge_on_i_; }

  /// One point of the edge at the current states: whether its depth behind the face is known (its
  /// foot on the face, within reach), the depth (m; negative in front), its place and tangent
  /// (world) and the face's normal at its foot (world).
  struct Point {
    bool known = false;
    double depth = 0;
    Eigen::Vector3d x = Eigen::Vector3d::Zero(), tangent = Eigen::Vector3d::Zero(), normal = Eigen::Vector3d::Zero();
  };

 private:
  struct Placement {  // the edge's set axes and the face's table axes in the world, m
    Eigen::Matrix3d edge_axes;
    Eigen::Vector3d edge_origin;
    Eigen::Matrix3d face_axes;
    Eigen::Vector3d face_origin;
  };
  struct Sphere {
    Eigen::Vector3d centre;
    double radius;
  };
  struct Guess {  // a point's last foot on the face: its next projection's start
    double u = 0, v = 0;
    bool valid = false;
  };
  static constexpr std::size_t kChunk = 16;             // segments a chunk's sphere holds
  static constexpr double kTurn = 4 * 3.14159265358979 / 180;  // rad, on a flat face (thin_out)

  void thin_out();
  Point measure(std::size_t k, const Placement& at);

  std::vector<Eigen::Vector3d> points_;    // the edge's points, its set's axes, m
  std::vector<Eigen::Vector3d> tangents_;  // unit, along the points' order
  Eigen::Vector3d centre_;                 // of the points' box, set axes, m
  double radius_;                          // half the box's diagonal, m
  SurfaceMount edge_mount_, face_mount_;
  SurfaceBinding binding_;
  const NodeTree* tree_;
  FaceSurvey survey_;  // the face's: its boxes (table axes and unit)
  std::span<const FaceEdge> boundary_;
  double scale_face_;       // metres per face file unit
  bool edge_on_i_;
  double exponent_;         // n - 1/2, of the load per length
  double stiffness_scale_;  // sqrt(2 rho) B(1/2, n + 1/2), m^(1/2)
  double max_depth_;        // m
  std::vector<Sphere> chunks_;   // set axes, m
  std::vector<Guess> guesses_;   // per point
  double u_ = 0, v_ = 0;         // the last foot found: the next point's start when it has none
  bool have_guess_ = false;
};

}  // namespace surfdb

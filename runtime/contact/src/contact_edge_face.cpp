#include "surfdb/contact/contact_edge_face.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "surfdb/table/face_boundary.hpp"
#include "surfdb/table/projection.hpp"

namespace surfdb {
namespace {

// Gauss-Legendre on [-1, 1], four points: exact for Hertz's linear load (n = 3/2) and its moment.
constexpr std::array<double, 4> kNode{-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
constexpr std::array<double, 4> kWeight{0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};

// B(1/2, b) = Gamma(1/2) Gamma(b) / Gamma(b + 1/2).
double beta_half(double b) { return std::sqrt(std::numbers::pi) * std::tgamma(b) / std::tgamma(b + 0.5); }

// The depth along a segment from a to b, t in [0, 1]: the cubic through both depths with the
// slopes -|b - a| t . n that the edge's tangents and the face's normals give there (Hermite):
// exact for the quadratic depth along a straight edge under a cylinder or a sphere, or along a
// rim over a plane, so that a contact far shorter than the points' spacing (a rod's 80 um across a
// plate's edge sampled every millimetre) is found whole, and a rim rests on its circle, not on
// the polygon of its points.
struct Depth {
  double c0, c1, c2, c3;
  Depth(double ha, double hb, double ma, double mb)
      : c0(ha), c1(ma), c2(3 * (hb - ha) - 2 * ma - mb), c3(2 * (ha - hb) + ma + mb) {}
  double operator()(double t) const { return c0 + t * (c1 + t * (c2 + t * c3)); }
  // Where the depth crosses zero in [lo, hi], on which it is monotone and changes sign.
  double root(double lo, double hi) const {
    const bool rising = (*this)(hi) > (*this)(lo);
    for (int k = 0; k < 60 && hi - lo > 1e-15; ++k) {
      const double mid = 0.5 * (lo + hi);
      ((*this)(mid) > 0) == rising ? hi = mid : lo = mid;
    }
    return 0.5 * (lo + hi);
  }
};

// The load's integrals along the edge, the pair's K taken as 1 (k' = 1 / scale).
struct Load {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();     // integral of delta^m n ds, m^(m+1)
  double magnitude = 0;                                 // integral of delta^m ds
  Eigen::Vector3d at_edge = Eigen::Vector3d::Zero();   // integral of delta^m x ds
  Eigen::Vector3d at_face = Eigen::Vector3d::Zero();   // integral of delta^m foot ds
  double energy = 0;                                    // integral of delta^(m+1) / (m+1) ds

  // The segment from a to b, loaded where its depth is positive: the cubic where both ends are
  // known; where one is not (beyond reach, or its foot off the face), from a point behind the face
  // along its slope where that falls towards the other end (a block's vertical edge leaving the
  // face), else linearly to zero there.
  void add(const EdgeFaceContact::Point& a, const EdgeFaceContact::Point& b, double m) {
    if (!(a.known && b.known) && !(a.known && a.depth > 0) && !(b.known && b.depth > 0)) return;
    const Eigen::Vector3d ab = b.x - a.x;
    const Eigen::Vector3d na = a.known ? a.normal : b.normal, nb = b.known ? b.normal : a.normal;
    const double length = ab.norm();
    const double ma = -length * a.tangent.dot(na), mb = -length * b.tangent.dot(nb);  // the slopes
    Depth h(0, 0, 0, 0);
    if (a.known && b.known) {
      h = Depth(a.depth, b.depth, ma, mb);
    } else if (a.known) {  // along a's slope where it falls towards b, else to zero at b
      h = ma < 0 ? Depth(a.depth, a.depth + ma, ma, ma) : Depth(a.depth, 0, -a.depth, -a.depth);
    } else {
      h = mb > 0 ? Depth(b.depth - mb, b.depth, mb, mb) : Depth(0, b.depth, b.depth, b.depth);
    }
    // Monotone pieces between the cubic's turning points.
    std::array<double, 4> breaks{0, 1, 1, 1};
    std::size_t count = 1;
    const double qa = 3 * h.c3, qb = 2 * h.c2, qc = h.c1;
    if (std::abs(qa) > 1e-300) {
      const double disc = qb * qb - 4 * qa * qc;
      if (disc > 0) {
        const double r = std::sqrt(disc), t1 = (-qb - r) / (2 * qa), t2 = (-qb + r) / (2 * qa);
        for (const double t : {std::min(t1, t2), std::max(t1, t2)})  // in order
          if (t > 0 && t < 1) breaks[count++] = t;
      }
    } else if (std::abs(qb) > 1e-300 && -qc / qb > 0 && -qc / qb < 1) {
      breaks[count++] = -qc / qb;
    }
    breaks[count++] = 1;
    for (std::size_t k = 0; k + 1 < count; ++k) {
      double lo = breaks[k], hi = breaks[k + 1];
      const double h_lo = h(lo), h_hi = h(hi);
      if (h_lo <= 0 && h_hi <= 0) continue;
      if (h_lo <= 0) lo = h.root(lo, hi);
      if (h_hi <= 0) hi = h.root(lo, hi);
      segment(a, b, na, nb, h, lo, hi, m);
    }
  }

  // Gauss points on [lo, hi] of the segment a-b: the edge's point there on the Hermite curve of
  // the two points and their tangents (on the arc, not its chord), the load along the normal.
  void segment(const EdgeFaceContact::Point& a, const EdgeFaceContact::Point& b, const Eigen::Vector3d& na,
               const Eigen::Vector3d& nb, const Depth& h, double lo, double hi, double m) {
    const double chord = (b.x - a.x).norm(), length = chord * (hi - lo);
    for (std::size_t q = 0; q < kNode.size(); ++q) {
      const double t = lo + 0.5 * (hi - lo) * (1 + kNode[q]);
      const double delta = h(t);
      if (delta <= 0) continue;
      const double p = m == 1 ? delta : std::pow(delta, m), w = 0.5 * length * kWeight[q];
      const double t2 = t * t, t3 = t2 * t;
      const Eigen::Vector3d n = ((1 - t) * na + t * nb).normalized(),
                            x = (2 * t3 - 3 * t2 + 1) * a.x + (t3 - 2 * t2 + t) * chord * a.tangent +
                                (3 * t2 - 2 * t3) * b.x + (t3 - t2) * chord * b.tangent;
      force += w * p * n;
      magnitude += w * p;
      at_edge += w * p * x;
      at_face += w * p * (x + delta * n);
      energy += w * p * delta / (m + 1);
    }
  }
};

}  // namespace

EdgeFaceContact::EdgeFaceContact(const SetEdge& edge, double meters_per_unit, SurfaceMount edge_mount,
                                 std::shared_ptr<const Database> face, SurfaceMount face_mount,
                                 std::span<const FaceEdge> boundary, const FaceSurvey& survey, bool edge_on_i,
                                 const ContactOptions& options)
    : edge_mount_(edge_mount), face_mount_(face_mount),
      binding_(face, edge_on_i ? options.window_j : options.window_i,
               edge_on_i ? options.residency_j : options.residency_i, options.interpolation),
      tree_(&face->node_tree()), survey_(survey), boundary_(boundary),
      scale_face_(face->header().meters_per_unit),
      edge_on_i_(edge_on_i), exponent_(options.edge_exponent - 0.5), max_depth_(options.max_entry_depth) {
  Eigen::Vector3d low = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity()), high = -low;
  for (const auto& p : edge.points) {
    points_.push_back(meters_per_unit * edge_vector(p));
    low = low.cwiseMin(points_.back()), high = high.cwiseMax(points_.back());
  }
  // Unit tangents by central differences (one-sided at an open edge's ends, across the joint of a
  // closed one): a circle's are exact.
  const std::size_t n = points_.size();
  const bool closed = n > 2 && (points_.front() - points_.back()).norm() <= 1e-12 * (high - low).norm();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t before = k > 0 ? k - 1 : closed ? n - 2 : 0, after = k + 1 < n ? k + 1 : closed ? 1 : n - 1;
    tangents_.push_back((points_[after] - points_[before]).normalized());
  }
  // The edge's largest curvature, the angle between neighbouring tangents over their distance,
  // 1/m, and its length, m.
  double bend = 0, length = 0;
  for (std::size_t k = 0; k + 1 < n; ++k)
    if (const double d = (points_[k + 1] - points_[k]).norm(); d > 0) {
      bend = std::max(bend, std::atan2(tangents_[k].cross(tangents_[k + 1]).norm(), tangents_[k].dot(tangents_[k + 1])) /
                                d);
      length += d;
    }
  bend += survey.max_curvature / scale_face_;
  if (survey.shape == SurfaceShape::flat) thin_out();
  // Chunks of kChunk segments, each with the sphere of its points (the last shared with the next).
  for (std::size_t first = 0; first + 1 < points_.size(); first += kChunk) {
    const std::size_t last = std::min(first + kChunk, points_.size() - 1);
    Eigen::Vector3d lo = points_[first], hi = points_[first];
    for (std::size_t k = first; k <= last; ++k) lo = lo.cwiseMin(points_[k]), hi = hi.cwiseMax(points_[k]);
    chunks_.push_back({0.5 * (lo + hi), 0.5 * (hi - lo).norm()});
  }
  guesses_.resize(points_.size());
  centre_ = 0.5 * (low + high);
  radius_ = 0.5 * (high - low).norm();
  // Half the length at most: a straight edge's (whose tangents turn by rounding alone where it
  // runs askew to the set's axes), or one curving less over its length.
  const double rho = std::min(bend > 0 ? 1 / bend : std::numeric_limits<double>::infinity(), 0.5 * length);
  stiffness_scale_ = std::sqrt(2 * rho) * beta_half(options.edge_exponent + 0.5);
}

// On a flat face the depth along a straight run of the edge is linear and along a turn the
// cubic's error falls as the turn's fourth power: every kStride-th point, and every point after
// a turn of more than kTurn from the last kept, both ends kept.
void EdgeFaceContact::thin_out() {
  constexpr std::size_t kStride = 8;
  const double cos_turn = std::cos(kTurn);
  std::vector<Eigen::Vector3d> points{points_.front()}, tangents{tangents_.front()};
  for (std::size_t k = 1, since = 1; k < points_.size(); ++k, ++since)
    if (k + 1 == points_.size() || since == kStride || tangents_[k].dot(tangents.back()) < cos_turn) {
      points.push_back(points_[k]), tangents.push_back(tangents_[k]);
      since = 0;
    }
  points_ = std::move(points), tangents_ = std::move(tangents);
}

EdgeFaceContact::Point EdgeFaceContact::measure(std::size_t k, const Placement& at) {
  Point point;
  point.x = at.edge_origin + at.edge_axes * points_[k];
  point.tangent = at.edge_axes * tangents_[k];
  const Eigen::Vector3d x = at.face_axes.transpose() * (point.x - at.face_origin) / scale_face_;
  if (scale_face_ * survey_.distance_outside(x) > max_depth_) return point;
  // From this point's last foot, else its neighbour's, else the node tree.
  Guess& guess = guesses_[k];
  const bool local = guess.valid || have_guess_;
  Projection p = local ? project_local(binding_, x, guess.valid ? guess.u : u_, guess.valid ? guess.v : v_)
                       : project_global(binding_, *tree_, x);
  if (p.point.status == QueryStatus::invalid_cell && p.converged && inside_trim(boundary_, p.point.p))
    p.point.status = QueryStatus::valid;
  have_guess_ = guess.valid = p.converged || p.point.status == QueryStatus::outside_domain;
  u_ = guess.u = p.point.u, v_ = guess.v = p.point.v;
  const double depth = -scale_face_ * p.distance;
  // Behind the face, and nearer it than its boundary (else nearer the face across that edge).
  point.known = p.converged && p.point.status == QueryStatus::valid && depth <= max_depth_ &&
                (depth <= 0 || !near_boundary(boundary_, p.point.p, depth / scale_face_));
  if (point.known) point.depth = depth, point.normal = at.face_axes * p.point.n;
  return point;
}

ContactResult EdgeFaceContact::evaluate(const BodyState& body_i, const BodyState& body_j) {
  ContactResult r;
  const BodyState& edge_body = edge_on_i_ ? body_i : body_j;
  const BodyState& face_body = edge_on_i_ ? body_j : body_i;
  const Placement at{edge_body.pose.A * edge_mount_.rotation, edge_body.pose.r + edge_body.pose.A * edge_mount_.offset,
                     face_body.pose.A * face_mount_.rotation, face_body.pose.r + face_body.pose.A * face_mount_.offset};
  // How far a sphere of the edge's points (set axes) lies from the face's box, m.
  const auto apart = [&](const Eigen::Vector3d& centre, double radius) {
    const Eigen::Vector3d x =
        at.face_axes.transpose() * (at.edge_origin + at.edge_axes * centre - at.face_origin) / scale_face_;
    return scale_face_ * survey_.distance_outside(x) - radius;
  };
  // The edge's bounding sphere farther from the face's box than any point may reach behind it.
  r.gap = apart(centre_, radius_);
  if (r.gap > max_depth_) return r;
  Load load;
  Point before;
  for (std::size_t c = 0; c < chunks_.size(); ++c) {
    const std::size_t first = c * kChunk, last = std::min(first + kChunk, points_.size() - 1);  // its points
    const bool near = apart(chunks_[c].centre, chunks_[c].radius) <= max_depth_;
    for (std::size_t k = first + (c > 0); k <= last; ++k) {
      const Point point = near ? measure(k, at) : Point{};
      if (k > 0) load.add(before, point, exponent_);
      before = point;
    }
  }
  const double resultant = load.force.norm();
  if (resultant == 0) {
    r.gap = std::max(0.0, r.gap);  // a lower bound: the sphere may reach into the box
    return r;
  }
  const double n = exponent_ + 0.5;
  const Eigen::Vector3d out_of_face = load.force / resultant;
  r.status = ContactStatus::touching;
  r.indentation = std::pow(resultant / stiffness_scale_, 1 / n);
  r.energy_indentation = std::pow((n + 1) * load.energy / stiffness_scale_, 1 / (n + 1));
  const Eigen::Vector3d at_edge = load.at_edge / load.magnitude, at_face = load.at_face / load.magnitude;
  // The normal is out of body j's material: the face's when the face is j's.
  r.normal = edge_on_i_ ? out_of_face : Eigen::Vector3d(-out_of_face);
  r.point_i = edge_on_i_ ? at_edge : at_face;
  r.point_j = edge_on_i_ ? at_face : at_edge;
  set_relative_velocity(r, body_i, body_j);
  return r;
}

}  // namespace surfdb

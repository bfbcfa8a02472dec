#include "surfdb/contact/contact_manifold.hpp"

#include <cmath>
#include <type_traits>
#include <vector>

namespace surfdb {

namespace {

// The position in the set of the part's face number (-1: not chosen).
int position(const TableSet& set, std::uint32_t face) {
  for (std::size_t k = 0; k < set.size(); ++k)
    if (set[k].face == face) return static_cast<int>(k);
  return -1;
}

// The positions of an edge's faces in its set.
std::array<int, 2> edge_faces(const TableSet& set, const SetEdge& e) {
  return {position(set, e.sides[0].face), e.sides.size() > 1 ? position(set, e.sides[1].face) : -1};
}

bool loaded_edge(const SetEdge& e) { return e.kind == EdgeKind::convex || e.kind == EdgeKind::free; }

// A flat face against a flat or cylindrical one: common normals along a line or over a plane,
// or none (face_survey.hpp); left to the edges where both sets have them.
bool left_to_edges(SurfaceShape a, SurfaceShape b) {
  return (a == SurfaceShape::flat && b != SurfaceShape::curved) || (b == SurfaceShape::flat && a != SurfaceShape::curved);
}

}  // namespace

FreeformManifold::FreeformManifold(std::shared_ptr<const TableSet> surface_i, SurfaceMount mount_i,
                                   std::shared_ptr<const TableSet> surface_j, SurfaceMount mount_j,
                                   ContactOptions options)
    : surface_i_(std::move(surface_i)), surface_j_(std::move(surface_j)), mount_i_(mount_i), mount_j_(mount_j),
      merge_distance_(options.merge_distance), max_entry_depth_(options.max_entry_depth) {
  const TableSet &set_i = *surface_i_, &set_j = *surface_j_;
  const bool edges = !set_i.edges().empty() && !set_j.edges().empty();
  for (std::size_t a = 0; a < set_i.size(); ++a)
    for (std::size_t b = 0; b < set_j.size(); ++b) {
      if (edges && left_to_edges(set_i.survey(a).shape, set_j.survey(b).shape)) continue;
      detectors_.emplace_back(std::in_place_type<FreeformContact>, set_i[a].table, mount_i, set_j[b].table, mount_j,
                              options);
      slot_faces_.push_back({{static_cast<int>(a), -1}, {static_cast<int>(b), -1}});
    }
  unsolved_.assign(edges ? detectors_.size() : 0, 0);
  // Each set's edges against the other's faces.
  for (const SetEdge& e : set_i.edges())
    for (std::size_t b = 0; loaded_edge(e) && b < set_j.size(); ++b) {
      detectors_.emplace_back(std::in_place_type<EdgeFaceContact>, e, set_i.meters_per_unit(), mount_i, set_j[b].table,
                              mount_j, set_j.face_edges(b), set_j.survey(b), true, options);
      slot_faces_.push_back({edge_faces(set_i, e), {static_cast<int>(b), -1}});
    }
  for (const SetEdge& e : set_j.edges())
    for (std::size_t a = 0; loaded_edge(e) && a < set_i.size(); ++a) {
      detectors_.emplace_back(std::in_place_type<EdgeFaceContact>, e, set_j.meters_per_unit(), mount_j, set_i[a].table,
                              mount_i, set_i.face_edges(a), set_i.survey(a), false, options);
      slot_faces_.push_back({{static_cast<int>(a), -1}, edge_faces(set_j, e)});
    }
  results_.resize(detectors_.size());
  active_.resize(detectors_.size());
  accepted_.resize(detectors_.size());
}

FreeformManifold::FreeformManifold(Sphere sphere_i, std::shared_ptr<const TableSet> surface_j, SurfaceMount mount_j,
                                   ContactOptions options)
    : surface_j_(std::move(surface_j)), merge_distance_(options.merge_distance),
      max_entry_depth_(options.max_entry_depth) {
  const TableSet& set = *surface_j_;
  for (std::size_t k = 0; k < set.size(); ++k) {
    detectors_.emplace_back(std::in_place_type<SphereTableContact>, sphere_i, set[k].table, mount_j, options,
                            set.face_edges(k));
    slot_faces_.push_back({{}, {static_cast<int>(k), -1}});
  }
  for (const SetEdge& e : set.edges()) {
    if (!loaded_edge(e)) continue;
    detectors_.emplace_back(std::in_place_type<SphereEdgeContact>, sphere_i, e, set.meters_per_unit(), mount_j,
                            options.edge_exponent);
    slot_faces_.push_back({{}, edge_faces(set, e)});
  }
  results_.resize(detectors_.size());
  active_.resize(detectors_.size());
  accepted_.resize(detectors_.size());
}

bool FreeformManifold::neighbours(std::size_t a, std::size_t b) const {
  if (a == b) return false;
  // On one side: the same face, or two faces sharing an edge (a sphere is the same everywhere).
  const auto near = [](const std::array<int, 2>& fa, const std::array<int, 2>& fb, const TableSet* set) {
    if (!set) return true;
    for (const int x : fa)
      for (const int y : fb)
        if (x >= 0 && y >= 0 && (x == y || set->adjacent(x, y))) return true;
    return false;
  };
  return near(slot_faces_[a].i, slot_faces_[b].i, surface_i_.get()) &&
         near(slot_faces_[a].j, slot_faces_[b].j, surface_j_.get());
}

// A point walking over from a neighbour face: that face's slot was active at the last accepted
// step, and its answer now lies where this slot's does (at their common edge), not a face's width
// away (the far side of a block, adjacent to the face really touched, is that far).
bool FreeformManifold::walked_over(std::size_t k) const {
  for (std::size_t e = 0; e < accepted_.size(); ++e)
    if (accepted_[e] && neighbours(k, e) && (results_[e].point_j - results_[k].point_j).norm() <= max_entry_depth_)
      return true;
  return false;
}

// The box of face pair k's face j, carried into face i's set axes, and face i's box: apart by
// more than max_entry_depth, no point of one may touch the other.
bool FreeformManifold::boxes_apart(std::size_t k, const BodyState& body_i, const BodyState& body_j) const {
  const FaceSurvey &face_i = surface_i_->survey(static_cast<std::size_t>(slot_faces_[k].i[0])),
                   &face_j = surface_j_->survey(static_cast<std::size_t>(slot_faces_[k].j[0]));
  const double unit_i = surface_i_->meters_per_unit(), unit_j = surface_j_->meters_per_unit();
  const Eigen::Matrix3d axes_i = body_i.pose.A * mount_i_.rotation, axes_j = body_j.pose.A * mount_j_.rotation;
  const Eigen::Vector3d origin_i = body_i.pose.r + body_i.pose.A * mount_i_.offset;
  const Eigen::Vector3d origin_j = body_j.pose.r + body_j.pose.A * mount_j_.offset;
  const Eigen::Matrix3d rotation = axes_i.transpose() * axes_j;
  const Eigen::Vector3d shift = axes_i.transpose() * (origin_j - origin_i);
  Eigen::Vector3d low = Eigen::Vector3d::Constant(INFINITY), high = -low;
  for (int c = 0; c < 8; ++c) {
    const Eigen::Vector3d corner((c & 1 ? face_j.high : face_j.low).x(), (c & 2 ? face_j.high : face_j.low).y(),
                                 (c & 4 ? face_j.high : face_j.low).z());
    const Eigen::Vector3d x = rotation * (unit_j * corner) + shift;
    low = low.cwiseMin(x), high = high.cwiseMax(x);
  }
  return (low - unit_i * face_i.high).cwiseMax(unit_i * face_i.low - high).cwiseMax(0.0).norm() > max_entry_depth_;
}

bool FreeformManifold::at_last_states(const BodyState& body_i, const BodyState& body_j) const {
  return evaluated_ && identical(body_i, evaluated_i_) && identical(body_j, evaluated_j_);
}

void FreeformManifold::evaluate(const BodyState& body_i, const BodyState& body_j) {
  if (!at_last_states(body_i, body_j)) {
    evaluated_ = false;  // until every detector has answered
    bool solved = true;
    for (std::size_t k = 0; k < detectors_.size(); ++k) {
      if (k < unsolved_.size()) {  // a face pair of two sets with edges: not solved while its faces are apart
        if (boxes_apart(k, body_i, body_j)) {
          results_[k] = ContactResult{};
          unsolved_[k] = 1;
          continue;
        }
        if (unsolved_[k]) std::visit([](auto& detector) { detector.request_global_search(); }, detectors_[k]);
        unsolved_[k] = 0;
      }
      results_[k] = std::visit([&](auto& detector) { return detector.evaluate(body_i, body_j); }, detectors_[k]);
      const ContactStatus s = results_[k].status;
      solved &= s != ContactStatus::no_convergence && s != ContactStatus::singular;
    }
    evaluated_ = solved;
    evaluated_i_ = body_i;
    evaluated_j_ = body_j;
  }
  // The active slots depend on the accepted ones too, which latch() and release() change.
  for (std::size_t k = 0; k < detectors_.size(); ++k) {
    const ContactResult& r = results_[k];
    active_[k] = r.in_contact() && (r.indentation <= max_entry_depth_ || accepted_[k] || walked_over(k));
  }
  if (detectors_.size() > 1) merge();
}

ContactShapes FreeformManifold::shapes(std::size_t k) {
  return std::visit([](auto& detector) { return detector.shapes(); }, detectors_[k]);
}

void FreeformManifold::request_global_search() {
  evaluated_ = false;
  for (auto& d : detectors_) std::visit([](auto& detector) { detector.request_global_search(); }, d);
}

void FreeformManifold::set_guess(std::size_t k, const ContactResult& r) {
  evaluated_ = false;
  std::visit([&](auto& detector) {
    if constexpr (std::is_same_v<std::decay_t<decltype(detector)>, FreeformContact>)
      detector.set_guess(r.u_i, r.v_i, r.u_j, r.v_j);
    else detector.set_guess(r.u_j, r.v_j);
  }, detectors_[k]);
}

namespace {
void add(WindowStats& sum, const WindowStats& s) {
  sum.updates += s.updates;
  sum.records_read += s.records_read;
  sum.outside_reads += s.outside_reads;
  sum.bytes_resident += s.bytes_resident;
}
}  // namespace

std::uint64_t FreeformManifold::skipped_solves() const {
  std::uint64_t n = 0;
  for (const auto& d : detectors_) n += std::visit([](const auto& detector) { return detector.skipped_solves(); }, d);
  return n;
}

WindowStats FreeformManifold::window_stats_i() const {
  WindowStats sum;
  for (const auto& d : detectors_) {
    if (const auto* f = std::get_if<FreeformContact>(&d)) add(sum, f->binding_i().window().stats());
    if (const auto* e = std::get_if<EdgeFaceContact>(&d); e && !e->face_on_j()) add(sum, e->binding().window().stats());
  }
  return sum;
}

WindowStats FreeformManifold::window_stats_j() const {
  WindowStats sum;
  for (const auto& d : detectors_) {
    if (const auto* f = std::get_if<FreeformContact>(&d)) add(sum, f->binding_j().window().stats());
    if (const auto* s = std::get_if<SphereTableContact>(&d)) add(sum, s->binding().window().stats());
    if (const auto* e = std::get_if<EdgeFaceContact>(&d); e && e->face_on_j()) add(sum, e->binding().window().stats());
  }
  return sum;
}

void FreeformManifold::merge() {
  for (std::size_t k = 1; k < detectors_.size(); ++k) {
    if (!active_[k]) continue;
    for (std::size_t e = 0; e < k; ++e)
      if (active_[e] && neighbours(k, e) && (results_[k].point_j - results_[e].point_j).norm() < merge_distance_) {
        active_[k] = 0;
        break;
      }
  }
}

}  // namespace surfdb

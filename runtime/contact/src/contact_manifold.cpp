#include "surfdb/contact/contact_manifold.hpp"

#include <type_traits>

namespace surfdb {

FreeformManifold::FreeformManifold(std::shared_ptr<const TableSet> surface_i, SurfaceMount mount_i,
                                   std::shared_ptr<const TableSet> surface_j, SurfaceMount mount_j,
                                   ContactOptions options)
    : surface_i_(std::move(surface_i)), surface_j_(std::move(surface_j)), merge_distance_(options.merge_distance),
      max_entry_depth_(options.max_entry_depth) {
  detectors_.reserve(surface_i_->size() * surface_j_->size());
  for (const TableFace& fi : surface_i_->faces())
    for (const TableFace& fj : surface_j_->faces())
      detectors_.emplace_back(std::in_place_type<FreeformContact>, fi.table, mount_i, fj.table, mount_j, options);
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
    slot_faces_.push_back({static_cast<int>(k), -1});
  }
  const auto position = [&](std::uint32_t face) {
    for (std::size_t k = 0; k < set.size(); ++k)
      if (set[k].face == face) return static_cast<int>(k);
    return -1;
  };
  for (const SetEdge& e : set.edges()) {
    if (e.kind != EdgeKind::convex && e.kind != EdgeKind::free) continue;
    detectors_.emplace_back(std::in_place_type<SphereEdgeContact>, sphere_i, e, set.meters_per_unit(), mount_j,
                            options.edge_exponent);
    slot_faces_.push_back({position(e.sides[0].face), e.sides.size() > 1 ? position(e.sides[1].face) : -1});
  }
  results_.resize(detectors_.size());
  active_.resize(detectors_.size());
  accepted_.resize(detectors_.size());
}

bool FreeformManifold::neighbours(std::size_t a, std::size_t b) const {
  if (!slot_faces_.empty()) {  // a sphere's slots
    if (a == b) return false;
    for (const int fa : slot_faces_[a])
      for (const int fb : slot_faces_[b])
        if (fa >= 0 && fb >= 0 && (fa == fb || surface_j_->adjacent(fa, fb))) return true;
    return false;
  }
  const std::size_t nj = surface_j_->size();
  const std::size_t ia = a / nj, ib = b / nj, ja = a % nj, jb = b % nj;
  if (a == b) return false;
  return (ia == ib || (surface_i_ && surface_i_->adjacent(ia, ib))) && (ja == jb || surface_j_->adjacent(ja, jb));
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

bool FreeformManifold::at_last_states(const BodyState& body_i, const BodyState& body_j) const {
  return evaluated_ && identical(body_i, evaluated_i_) && identical(body_j, evaluated_j_);
}

void FreeformManifold::evaluate(const BodyState& body_i, const BodyState& body_j) {
  if (!at_last_states(body_i, body_j)) {
    evaluated_ = false;  // until every detector has answered
    bool solved = true;
    for (std::size_t k = 0; k < detectors_.size(); ++k) {
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
  for (const auto& d : detectors_)
    if (const auto* f = std::get_if<FreeformContact>(&d)) add(sum, f->binding_i().window().stats());
  return sum;
}

WindowStats FreeformManifold::window_stats_j() const {
  WindowStats sum;
  for (const auto& d : detectors_) {
    if (const auto* f = std::get_if<FreeformContact>(&d)) add(sum, f->binding_j().window().stats());
    if (const auto* s = std::get_if<SphereTableContact>(&d)) add(sum, s->binding().window().stats());
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

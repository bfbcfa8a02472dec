#include "surfdb/contact/polygonal_contact.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Geometry>

namespace surfdb {

ElasticFoundation ElasticFoundation::from_layers(double modulus_master, double thickness_master,
                                                 double modulus_slave, double thickness_slave) {
  if (!(modulus_master > 0 && thickness_master > 0 && modulus_slave > 0 && thickness_slave > 0))
    throw std::invalid_argument("elastic layers need positive moduli and thicknesses");
  const double c_master = modulus_master / thickness_master, c_slave = modulus_slave / thickness_slave;
  ElasticFoundation law;
  law.stiffness = 1.0 / (1.0 / c_master + 1.0 / c_slave);
  law.master_share = c_slave / (c_master + c_slave);
  return law;
}

// Surfaces that meet at more than 60 degrees from facing each other (a box's side face below the
// floor) make no elements: their penetration along the master's normal grows without bound.
constexpr double kMinFacingCosine = 0.5;

/// Both meshes' placements in the world and the slave's in the master's frame (x_m = R x_s + p).
struct PolygonalContact::Frames {
  Eigen::Matrix3d R_master, R_slave, R;
  Eigen::Vector3d p_master, p_slave, p;
};

PolygonalContact::PolygonalContact(std::shared_ptr<const TriangleMesh> master, SurfaceMount mount_master,
                                   std::shared_ptr<const TriangleMesh> slave, SurfaceMount mount_slave,
                                   ElasticFoundation law)
    : master_(std::move(master)), slave_(std::move(slave)), mount_master_(mount_master), mount_slave_(mount_slave),
      law_(law), visited_(master_->size(), 0), crossed_(master_->size(), 0), element_of_(master_->size(), 0),
      crossed_edges_(master_->size(), 0), crossing_slave_(master_->size(), 0) {
  // At most an element per master triangle, each queued once: room for all, so that a patch
  // growing over the mesh does not allocate while stepping.
  elements_.reserve(master_->size());
  queue_.reserve(master_->size());
}

const PolygonalContactResult& PolygonalContact::evaluate(const BodyState& i, const BodyState& j, Search search) {
  if (evaluated_ && search == evaluated_search_ && identical(i, evaluated_i_) && identical(j, evaluated_j_))
    return result_;
  evaluated_ = false;  // until this evaluation is complete
  Frames f;
  f.R_master = i.pose.A * mount_master_.rotation;
  f.p_master = i.pose.r + i.pose.A * mount_master_.offset;
  f.R_slave = j.pose.A * mount_slave_.rotation;
  f.p_slave = j.pose.r + j.pose.A * mount_slave_.offset;
  f.R = f.R_master.transpose() * f.R_slave;
  f.p = f.R_master.transpose() * (f.p_slave - f.p_master);
  result_ = {};
  segments_.clear();
  elements_.clear();
  find_segments(f, search);
  if (!segments_.empty()) {
    result_.polygons = count_polygons();
    walk_active_part(f, search);
    for (ContactElement& element : elements_) apply_law(i, j, element);
    result_.patches = count_patches();
  }
  result_.segments = segments_.size();
  if (result_.normal_force > 0) result_.centre /= result_.normal_force;
  evaluated_ = true, evaluated_search_ = search, evaluated_i_ = i, evaluated_j_ = j;
  return result_;
}

void PolygonalContact::find_segments(const Frames& f, Search search) {
  const auto cross = [&](std::uint32_t e, std::uint32_t s) {
    const Triangle3 a{master_->corner(e, 0), master_->corner(e, 1), master_->corner(e, 2)};
    const Triangle3 b{f.R * slave_->corner(s, 0) + f.p, f.R * slave_->corner(s, 1) + f.p,
                      f.R * slave_->corner(s, 2) + f.p};
    IntersectionSegment segment{e, s, {}};
    if (intersect_triangles(a, master_->normal(e), b, f.R * slave_->normal(s), segment.cut))
      segments_.push_back(segment);
  };
  // A subtree's box wholly on one side of a leaf triangle's plane holds nothing it crosses.
  const auto apart = [&](bool master_leaf, std::uint32_t t, const Eigen::Vector3d& centre, const Eigen::Vector3d& half) {
    const Eigen::Vector3d n = master_leaf ? master_->normal(t) : Eigen::Vector3d(f.R * slave_->normal(t));
    const Eigen::Vector3d on = master_leaf ? master_->corner(t, 0) : Eigen::Vector3d(f.R * slave_->corner(t, 0) + f.p);
    return std::abs(n.dot(centre - on)) > n.cwiseAbs().dot(half);
  };
  if (search == Search::tree) {
    master_->tree().overlapping_leaves(slave_->tree(), f.R, f.p, pair_stack_, result_.pair_search, cross, apart);
    return;
  }
  for (std::uint32_t e = 0; e < master_->size(); ++e)
    for (std::uint32_t s = 0; s < slave_->size(); ++s) {
      ++result_.pair_search.triangle_tests;
      cross(e, s);
    }
}

std::size_t PolygonalContact::count_polygons() {
  // An end lies on an edge of one triangle and in the other mesh's triangle: the next segment of
  // the polygon has an end on the same edge (seen from the neighbour across it) and the same
  // other triangle. Ends with equal keys are joined; the polygons are the joined groups.
  end_keys_.clear();
  const auto add_key = [&](std::uint32_t k, bool on_master, int edge) {
    const IntersectionSegment& s = segments_[k];
    const TriangleMesh& mesh = on_master ? *master_ : *slave_;
    const std::size_t h = 3 * (on_master ? s.master : s.slave) + static_cast<std::size_t>(edge);
    const std::int32_t twin = mesh.twin(h);
    const std::uint64_t undirected = twin == TriangleMesh::kOpen ? h : std::min<std::size_t>(h, static_cast<std::size_t>(twin));
    end_keys_.emplace_back((std::uint64_t{on_master} << 63) | (undirected << 32) | (on_master ? s.slave : s.master), k);
  };
  for (std::uint32_t k = 0; k < segments_.size(); ++k)
    for (const SegmentEnd& end : segments_[k].cut.ends) {
      add_key(k, end.on_first, end.edge);
      if (end.other_edge >= 0) add_key(k, !end.on_first, end.other_edge);
    }
  std::sort(end_keys_.begin(), end_keys_.end());
  chain_.resize(segments_.size());
  for (std::uint32_t k = 0; k < chain_.size(); ++k) chain_[k] = k;
  const auto root = [&](std::uint32_t k) {
    while (chain_[k] != k) k = chain_[k] = chain_[chain_[k]];
    return k;
  };
  std::size_t groups = segments_.size();
  for (std::size_t n = 1; n < end_keys_.size(); ++n) {
    if (end_keys_[n].first != end_keys_[n - 1].first) continue;
    const std::uint32_t a = root(end_keys_[n].second), b = root(end_keys_[n - 1].second);
    if (a != b) {
      chain_[std::max(a, b)] = std::min(a, b);
      --groups;
    }
  }
  return groups;
}

void PolygonalContact::walk_active_part(const Frames& f, Search search) {
  if (++round_ == 0) {  // the stamps wrapped: start them afresh
    for (auto* stamps : {&visited_, &crossed_, &element_of_}) std::fill(stamps->begin(), stamps->end(), 0u);
    round_ = 1;
  }
  // The crossed master triangles, each once, with the edges the slave crosses and a slave
  // triangle crossing it; they bound the active part, so the walk starts from them all.
  queue_.clear();
  for (const IntersectionSegment& s : segments_) {
    if (crossed_[s.master] != round_) {
      crossed_[s.master] = visited_[s.master] = round_;
      crossed_edges_[s.master] = 0;
      crossing_slave_[s.master] = s.slave;
      queue_.push_back(s.master);
    }
    for (const SegmentEnd& end : s.cut.ends) {
      if (end.on_first) crossed_edges_[s.master] |= static_cast<std::uint8_t>(1u << end.edge);
      else if (end.other_edge >= 0) crossed_edges_[s.master] |= static_cast<std::uint8_t>(1u << end.other_edge);
    }
  }
  // Inwards: from a crossed triangle across the edges the slave does not cross whose midpoint is
  // behind the crossing slave triangle; from a triangle inside, across every edge. The crossed
  // triangles fence the walk in.
  for (std::size_t next = 0; next < queue_.size(); ++next) {
    const std::uint32_t e = queue_[next];
    ContactElement element;
    const Inside inside = make_element(f, e, search, element);
    // A triangle reached across an edge goes on only if its own line finds it inside the slave:
    // a wrong turn at a crossed triangle (near-coincident surfaces cross in many small loops)
    // stops there instead of spreading over the whole mesh.
    if (crossed_[e] == round_ || inside != Inside::no) push_inner_neighbours(f, e);
    if (inside != Inside::element) continue;
    element_of_[e] = round_;
    elements_.push_back(element);
  }
}

void PolygonalContact::push_inner_neighbours(const Frames& f, std::uint32_t e) {
  const bool crossed = crossed_[e] == round_;
  Eigen::Vector3d slave_point, slave_normal;
  if (crossed) {
    const std::uint32_t s = crossing_slave_[e];
    slave_point = f.R * slave_->corner(s, 0) + f.p;
    slave_normal = f.R * slave_->normal(s);
  }
  for (int k = 0; k < 3; ++k) {
    const std::int32_t n = master_->neighbour(e, k);
    if (n == TriangleMesh::kOpen || visited_[static_cast<std::size_t>(n)] == round_) continue;
    if (crossed) {
      if (crossed_edges_[e] & (1u << k)) continue;
      const Eigen::Vector3d mid = 0.5 * (master_->corner(e, k) + master_->corner(e, (k + 1) % 3));
      if (slave_normal.dot(mid - slave_point) >= 0) continue;
    }
    visited_[static_cast<std::size_t>(n)] = round_;
    queue_.push_back(static_cast<std::uint32_t>(n));
  }
}

std::size_t PolygonalContact::count_patches() {
  // Elements joined across edges; each walk unmarks the elements it reaches.
  std::size_t patches = 0;
  for (const ContactElement& seed : elements_) {
    if (element_of_[seed.triangle] != round_) continue;
    ++patches;
    element_of_[seed.triangle] = 0;
    queue_.assign(1, seed.triangle);
    for (std::size_t next = 0; next < queue_.size(); ++next)
      for (int k = 0; k < 3; ++k) {
        const std::int32_t n = master_->neighbour(queue_[next], k);
        if (n == TriangleMesh::kOpen || element_of_[static_cast<std::size_t>(n)] != round_) continue;
        element_of_[static_cast<std::size_t>(n)] = 0;
        queue_.push_back(static_cast<std::uint32_t>(n));
      }
  }
  return patches;
}

PolygonalContact::Inside PolygonalContact::make_element(const Frames& f, std::uint32_t e, Search search,
                                                         ContactElement& element) {
  // The line from C_e inwards (-n_e) in the slave's frame; the nearest slave triangle it meets
  // must be one it leaves the slave through (n_f . line > 0) for C_e to lie inside.
  const Eigen::Vector3d from = f.R.transpose() * (master_->centroid(e) - f.p);
  const Eigen::Vector3d inwards = -(f.R.transpose() * master_->normal(e));
  // The line ends where it leaves the slave's box: no exit through the slave lies beyond.
  const MeshTree::Node& box = slave_->tree().root();
  double length = INFINITY;
  for (int k = 0; k < 3; ++k)
    if (inwards[k] != 0) length = std::min(length, ((inwards[k] > 0 ? box.hi[k] : box.lo[k]) - from[k]) / inwards[k]);
  if (!(length > 0)) return Inside::no;
  length *= 1 + 1e-9;
  const Eigen::Vector3d to = from + length * inwards;
  double nearest = INFINITY;
  std::uint32_t partner = 0;
  const auto hit = [&](std::uint32_t s) {
    const double at = segment_hits_triangle(from, to, {slave_->corner(s, 0), slave_->corner(s, 1), slave_->corner(s, 2)});
    if (at >= 0 && at < nearest) {
      nearest = at;
      partner = s;
    }
  };
  if (search == Search::tree) {
    slave_->tree().leaves_on_segment(from, to, line_stack_, result_.element_search, hit);
  } else {
    for (std::uint32_t s = 0; s < slave_->size(); ++s) {
      ++result_.element_search.triangle_tests;
      hit(s);
    }
  }
  // Inside when the line leaves the slave through the nearest slave triangle (n_f . -n_e > 0); an
  // element when that triangle also faces it within 60 degrees.
  if (!std::isfinite(nearest)) return Inside::no;
  const double facing = slave_->normal(partner).dot(inwards);
  if (facing <= 0) return Inside::no;
  if (facing < kMinFacingCosine) return Inside::yes;
  const Eigen::Vector3d n_e = f.R_master * master_->normal(e);
  element.triangle = e;
  element.partner = partner;
  element.area = master_->area(e);
  element.penetration = nearest * length;
  element.normal = -n_e;
  element.point = f.R_master * master_->centroid(e) + f.p_master + law_.master_share * element.penetration * element.normal;
  return Inside::element;
}

void PolygonalContact::apply_law(const BodyState& i, const BodyState& j, ContactElement& k) {
  const Eigen::Vector3d v = i.point_velocity(k.point) - j.point_velocity(k.point);  // master relative to slave
  k.penetration_rate = -v.dot(k.normal);
  const double elastic = law_.stiffness * k.area * k.penetration;
  const double ramp = law_.damping_depth > 0 ? std::min(1.0, k.penetration / law_.damping_depth) : 1.0;
  k.normal_force = std::max(0.0, elastic + law_.damping * k.area * k.penetration_rate * ramp);
  const Eigen::Vector3d v_t = v - v.dot(k.normal) * k.normal;
  const double speed = v_t.norm();
  k.friction_force.setZero();
  if (law_.friction > 0 && speed > 0) {
    const double x = speed / law_.friction_velocity;
    k.friction_force = -law_.friction * k.normal_force * (x >= 1 ? 1.0 : x * (2 - x)) / speed * v_t;
  }
  const Eigen::Vector3d force = k.normal_force * k.normal + k.friction_force;
  PolygonalContactResult& r = result_;
  ++r.elements;
  r.area += k.area;
  r.volume += k.area * k.penetration;
  r.max_penetration = std::max(r.max_penetration, k.penetration);
  r.normal_force += k.normal_force;
  r.elastic_energy += 0.5 * elastic * k.penetration;
  r.dissipated_power += (k.normal_force - elastic) * k.penetration_rate - k.friction_force.dot(v_t);
  r.centre += k.normal_force * k.point;
  r.force_i += force;
  r.torque_i += (k.point - i.pose.r).cross(force);
  r.force_j -= force;
  r.torque_j -= (k.point - j.pose.r).cross(force);
}

}  // namespace surfdb

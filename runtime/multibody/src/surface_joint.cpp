#include "surfdb/multibody/surface_joint.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "surfdb/contact/contact_primitives.hpp"
#include "surfdb/multibody/contact_group.hpp"

namespace surfdb {
namespace {

// A point the global search finds counts as a jump when the surfaces are deeper inside each other
// there than at the held point by more than this (m): the same point found again differs by
// rounding only.
constexpr double kJumpDepth = 1e-7;

bool solved(const ContactResult& r) {
  // A separated result without iterations is a detector's "far apart" (no points computed).
  return r.status == ContactStatus::touching || (r.status == ContactStatus::separated && r.iterations > 0);
}

// The detector's signed separation: > 0 apart, < 0 inside each other.
double depth(const ContactResult& r) { return r.status == ContactStatus::touching ? -r.indentation : r.gap; }

Eigen::Matrix3d to_body(const Eigen::Matrix3d& A, const Eigen::Matrix3d& W) { return A.transpose() * W * A; }
Eigen::Matrix3d to_world(const Eigen::Matrix3d& A, const Eigen::Matrix3d& W) { return A * W * A.transpose(); }

}  // namespace

SurfaceJoint::SurfaceJoint(const SurfaceJointSpec& spec, const std::vector<ContactSurface>& surfaces,
                           const MultibodyModel& model)
    : spec_(spec), detector_(Analytic{}) {
  const ContactGroupSpec group{.name = spec.name, .surfaces_i = {spec.surface_i}, .surfaces_j = {spec.surface_j}};
  const ContactSpec pair = pair_spec(group, surfaces, model, spec.surface_i, spec.surface_j);
  const auto* f = std::get_if<FreeformSurfaces>(&pair.geometry);
  if (spec.formulation == SurfaceJointFormulation::five_equations) {
    if (!f)
      throw std::invalid_argument("surface joint '" + spec.name + "': formulation five_equations takes two tables (or " +
                                  "surface sets), whose surface parameters become states; use sliding_plane for a sphere");
    parameters_.emplace(spec.name, *f);
  }
  // A joint's equation needs the exact gap at every evaluation: no skipped solves.
  const auto solving = [](ContactOptions o) {
    o.skip_while_apart = false;
    return o;
  };
  if (f) {
    detector_.emplace<FreeformManifold>(f->surface_i, f->mount_i, f->surface_j, f->mount_j, solving(f->options));
  } else if (const auto* s = std::get_if<SphereOnTables>(&pair.geometry)) {
    detector_.emplace<FreeformManifold>(s->sphere, s->surface_j, s->mount_j, solving(s->options));
  } else if (const auto* a = std::get_if<AnalyticContact>(&pair.geometry)) {
    using Shape = AnalyticContact::Shape;
    if (a->shape != Shape::plane && a->shape != Shape::sphere && a->shape != Shape::cavity)
      throw std::invalid_argument("surface joint '" + spec.name + "': a sphere joins a table, a sphere, a cavity or a " +
                                  "plane; a box or a cylinder has edges where no tangent plane is defined");
    detector_.emplace<Analytic>(Analytic{*a});
  } else {
    throw std::invalid_argument("surface joint '" + spec.name + "': meshes take part in areal contact only");
  }
}

ContactResult SurfaceJoint::detect_slots(ContactShapes& shapes) {
  FreeformManifold& m = std::get<FreeformManifold>(detector_);
  const std::span<const ContactResult> results = m.results();
  if (have_point_ && solved(results[slot_])) {
    shapes = m.shapes(slot_);
    return results[slot_];
  }
  // The held slot lost the point (it walked off its face): a neighbour face's solved slot nearest
  // to it. Before any point, the slot whose surfaces are nearest to touching: at t = 0 they touch,
  // and a face behind another (a plate's underside under a ball on its top) is far from it.
  std::size_t best = results.size();
  double best_score = std::numeric_limits<double>::infinity();
  double apart = std::numeric_limits<double>::infinity();  // the nearest "far apart" answer's gap
  for (std::size_t k = 0; k < results.size(); ++k) {
    if (!solved(results[k])) {
      if (results[k].status == ContactStatus::separated) apart = std::min(apart, results[k].gap);
      continue;
    }
    if (have_point_ && k != slot_ && !m.neighbours(slot_, k)) continue;
    const double score = have_point_ ? (results[k].point_j - contact_.point_j).norm() : std::abs(depth(results[k]));
    if (score < best_score) best = k, best_score = score;
  }
  if (best == results.size()) return ContactResult{.status = ContactStatus::no_convergence, .gap = apart};
  slot_ = best;
  shapes = m.shapes(best);
  return results[best];
}

ContactResult SurfaceJoint::detect(const BodyState& i, const BodyState& j, ContactShapes& shapes) {
  if (auto* m = std::get_if<FreeformManifold>(&detector_)) {
    m->evaluate(i, j);
    return detect_slots(shapes);
  }
  const AnalyticContact& a = std::get<Analytic>(detector_).shape;
  using Shape = AnalyticContact::Shape;
  ContactResult r;
  double radius_j = 0;  // signed: > 0 a convex sphere, < 0 a cavity, 0 a plane
  switch (a.shape) {
    case Shape::plane: r = contact_sphere_plane(i, a.sphere, j, a.plane); break;
    case Shape::sphere: r = contact_sphere_sphere(i, a.sphere, j, a.other), radius_j = a.other.radius; break;
    default: r = contact_sphere_in_sphere(i, a.sphere, j, a.other, a.cap), radius_j = -a.other.radius; break;
  }
  // The closed forms' answers with a contact point carry the sphere's curvature; those without one
  // (a ball outside the cavity or beyond its rim) none: only the former are solved.
  if (r.curvature_i > 0) r.iterations = std::max(r.iterations, 1);
  shapes.i = sphere_shape_operator(r.normal, a.sphere.radius);
  shapes.j = radius_j == 0 ? Eigen::Matrix3d::Zero() : sphere_shape_operator(r.normal, radius_j);
  return r;
}

void SurfaceJoint::remember(const ContactResult& r, const ContactShapes& shapes, const BodyState& i, const BodyState& j) {
  held_p_i_ = i.pose.A.transpose() * (r.point_i - i.pose.r);
  held_s_j_ = j.pose.A.transpose() * (r.point_j - j.pose.r);
  held_n_j_ = j.pose.A.transpose() * r.normal;
  held_shapes_body_ = {to_body(i.pose.A, shapes.i), to_body(j.pose.A, shapes.j)};
  have_point_ = true;
}

// The last solved point and plane moved with their bodies.
ContactResult SurfaceJoint::carried(const BodyState& i, const BodyState& j, ContactShapes& shapes) const {
  ContactResult r = contact_;
  r.status = ContactStatus::no_convergence;
  r.point_i = i.pose.r + i.pose.A * held_p_i_;
  r.point_j = j.pose.r + j.pose.A * held_s_j_;
  r.normal = j.pose.A * held_n_j_;
  shapes = {to_world(i.pose.A, held_shapes_body_.i), to_world(j.pose.A, held_shapes_body_.j)};
  return r;
}

ConstraintRow SurfaceJoint::row(const BodyState& i, const BodyState& j) {
  ConstraintRow row;
  if (released_) {
    row.active = false;
    return row;
  }
  ContactShapes shapes;
  ContactResult r = detect(i, j, shapes);
  if (solved(r)) {
    remember(r, shapes, i, j);
  } else if (have_point_) {
    r = carried(i, j, shapes);
  } else {
    char apart[96] = "";
    if (std::isfinite(r.gap) && r.gap > 0) std::snprintf(apart, sizeof apart, ": they are at least %.6g m apart", r.gap);
    throw std::invalid_argument("surface joint '" + spec_.name + "': no common normal found between its surfaces (" +
                                contact_status_name(r.status) + ")" + apart +
                                "; place them touching (a table's point must also lie away from its parameter poles)");
  }
  contact_ = r;
  plane_ = sliding_plane(r, shapes, i, j);
  row.phi = plane_.phi;
  row.gamma = plane_.gamma;
  row.dr_i = plane_.dr_i, row.dth_i = plane_.dth_i;
  row.dr_j = plane_.dr_j, row.dth_j = plane_.dth_j;
  return row;
}

void SurfaceJoint::start(const BodyState& i, const BodyState& j, double* s) {
  row(i, j);
  if (!have_point_ || !solved(contact_))
    throw std::runtime_error("surface joint '" + spec_.name + "': no contact point found between its surfaces (" +
                             contact_status_name(contact_.status) + ") to start its surface parameters from");
  parameters_->start(slot_, contact_, i, j, s);
}

ConstraintRow SurfaceJoint::row(const BodyState& i, const BodyState& j, const double* s) {
  if (released_) return ConstraintRow{.active = false};
  const ConstraintRow row = parameters_->row(s, i, j);
  contact_ = parameters_->contact();
  plane_ = parameters_->plane();
  return row;
}

void SurfaceJoint::derivative(const BodyState& i, const BodyState& j, const BodyAcceleration& acc_i,
                              const BodyAcceleration& acc_j, double alpha, double beta, double* sdot) {
  if (released_) {
    std::fill(sdot, sdot + SurfaceJointParameters::kStates, 0.0);
    return;
  }
  parameters_->derivative(i, j, acc_i, acc_j, alpha, beta, sdot);
}

// Every slot from its global search; the deepest solved point replaces the held one when deeper
// by more than kJumpDepth, else the held slot goes on from its own point.
void SurfaceJoint::search(const BodyState& i, const BodyState& j) {
  ++statistics_.global_searches;
  auto* m = std::get_if<FreeformManifold>(&detector_);
  if (!m || !have_point_) return;  // a closed form has one point; the first detection searched already
  const ContactResult held = contact_;
  const std::size_t held_slot = slot_;
  m->request_global_search();
  m->evaluate(i, j);
  const std::span<const ContactResult> results = m->results();
  // A common normal far inside (a face behind the one touched) is no contact: deeper than
  // max_entry_depth does not count, as for a contact that begins (contact_manifold.hpp).
  const double deepest = -ContactOptions{}.max_entry_depth;
  std::size_t best = results.size();
  for (std::size_t k = 0; k < results.size(); ++k)
    if (solved(results[k]) && depth(results[k]) >= deepest && (best == results.size() || depth(results[k]) < depth(results[best])))
      best = k;
  if (best < results.size() && depth(results[best]) < depth(held) - kJumpDepth) {
    ++statistics_.jumps;
    slot_ = best;
    return;
  }
  for (std::size_t k = 0; k < results.size(); ++k) m->set_guess(k, k == held_slot ? held : results[k]);
  slot_ = held_slot;
}

void SurfaceJoint::accept_detection(double t, const BodyState& i, const BodyState& j) {
  row(i, j);  // the accepted state's point
  if (t > 0 && slot_ != accepted_slot_) ++statistics_.face_changes;  // walked over an edge during the step
  if (t >= next_search_) {
    search(i, j);
    next_search_ = t + spec_.search_interval;
    row(i, j);  // after a jump, the new point
  }
  accepted_slot_ = slot_;
  if (contact_.status == ContactStatus::no_convergence) ++statistics_.solver_failures;
  if (plane_.singular) ++statistics_.singular_steps;
}

// The equation at the accepted states, their faces' domains and the tangential equations' drift.
void SurfaceJoint::accept_parameters(double t, const BodyState& i, const BodyState& j, const double* s) {
  if (!s) throw std::logic_error("surface joint '" + spec_.name + "': accepted without its parameter states");
  if (t == 0) ++statistics_.global_searches;  // the detection that started the parameters
  row(i, j, s);
  parameters_->check_domain(t);
  if (parameters_->singular()) ++statistics_.singular_steps;  // at the last evaluation, at or near this state
  const TangentialEquations c = parameters_->tangential(i, j);
  statistics_.max_tangential_offset = std::max(statistics_.max_tangential_offset, c.value.head<2>().cwiseAbs().maxCoeff());
  statistics_.max_normal_error = std::max(statistics_.max_normal_error, c.value.tail<2>().cwiseAbs().maxCoeff());
}

bool SurfaceJoint::accept(double t, const BodyState& i, const BodyState& j, double force, const double* s) {
  if (released_) {
    output_.force = 0;
    return false;
  }
  if (parameters_)
    accept_parameters(t, i, j, s);
  else
    accept_detection(t, i, j);
  output_.contact = contact_;
  output_.force = force;
  output_.gap = plane_.phi;
  const Eigen::Vector3d w = i.point_velocity(contact_.point_i) - j.point_velocity(contact_.point_j);
  output_.sliding_speed = (w - w.dot(plane_.normal) * plane_.normal).norm();
  statistics_.max_force = std::max(statistics_.max_force, force);
  statistics_.min_force = std::min(statistics_.min_force, force);
  statistics_.max_gap = std::max(statistics_.max_gap, std::abs(plane_.phi));
  bool release = false;
  if (!(force > 0) && std::isnan(statistics_.lift_off_time)) {
    const bool crossed = t > 0 && last_force_ > 0;  // interpolate the zero between the two steps
    statistics_.lift_off_time = crossed ? last_time_ + (t - last_time_) * last_force_ / (last_force_ - force) : t;
    if (spec_.release_to >= 0) {
      released_ = release = true;
      statistics_.release_time = t;
    }
  }
  last_time_ = t;
  last_force_ = force;
  return release;
}

}  // namespace surfdb

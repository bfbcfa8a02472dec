#include "surfdb/multibody/welded_bodies.hpp"

#include <algorithm>

#include "surfdb/multibody/dynamics.hpp"
#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb {
namespace {

using Eigen::Matrix3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

// The inertia a point mass m at offset e adds about the origin: m (|e|^2 1 - e e^T).
Matrix3d parallel_axis(double m, const Vector3d& e) {
  return m * (e.squaredNorm() * Matrix3d::Identity() - e * e.transpose());
}

Matrix3d rotation_of(const double* body) { return Quaterniond(body[3], body[4], body[5], body[6]).normalized().toRotationMatrix(); }

}  // namespace

WeldedBodies::WeldedBodies(const MultibodyModel& model, bool merge)
    : reduced_joint_(model.joints.size()), member_of_(model.joints.size(), -1) {
  std::vector<int> base_of(model.bodies.size(), -1);  // per body: its base when it is a member
  if (merge) find_members(model, base_of);
  place_bodies(model, base_of);
  reduce_joints(model);
}

void WeldedBodies::find_members(const MultibodyModel& model, std::vector<int>& base_of) {
  std::vector<int> joints_of(model.bodies.size(), 0);
  std::vector<char> driven(model.joints.size(), 0), on_surface(model.bodies.size(), 0);
  for (const Joint& j : model.joints)
    for (int b : {j.body_i, j.body_j})
      if (b != kGround) ++joints_of[static_cast<std::size_t>(b)];
  for (const Driver& d : model.drivers) driven[static_cast<std::size_t>(d.joint)] = 1;
  for (const SurfaceJointSpec& s : model.surface_joints)
    for (int b : {s.body_i, s.body_j})
      if (b != kGround) on_surface[static_cast<std::size_t>(b)] = 1;
  const auto can_be_member = [&](int b) {
    return joints_of[static_cast<std::size_t>(b)] == 1 && !on_surface[static_cast<std::size_t>(b)];
  };
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const Joint& j = model.joints[k];
    if (j.type != JointType::fixed || j.body_i == kGround || j.body_j == kGround || driven[k]) continue;
    const int member = can_be_member(j.body_j) ? j.body_j : can_be_member(j.body_i) ? j.body_i : -1;
    if (member < 0) continue;
    const int base = member == j.body_j ? j.body_i : j.body_j;
    if (on_surface[static_cast<std::size_t>(base)]) continue;
    base_of[static_cast<std::size_t>(member)] = base;
    member_of_[k] = member;
    merged_.push_back({member, base});
  }
}

// Each composite's mass properties, and each body's placement in its reduced body.
void WeldedBodies::place_bodies(const MultibodyModel& model, const std::vector<int>& base_of) {
  placement_.resize(model.bodies.size());
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    if (base_of[b] >= 0) continue;
    placement_[b].reduced = static_cast<int>(base_.size());
    base_.push_back(static_cast<int>(b));
    reduced_.bodies.push_back(model.bodies[b]);
  }
  // A member's centre of mass d and axes R in its base's frame hold the fixed joint's two frames
  // together: A_base (o_base + frame_base.axes) = A_member (o_member + frame_member.axes) in world.
  std::vector<Vector3d> in_base(model.bodies.size(), Vector3d::Zero());
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const int member = member_of_[k];
    if (member < 0) continue;
    const Joint& j = model.joints[k];
    const bool member_is_j = member == j.body_j;
    const JointFrame &fb = member_is_j ? j.frame_i : j.frame_j, &fm = member_is_j ? j.frame_j : j.frame_i;
    Placement& p = placement_[static_cast<std::size_t>(member)];
    p.rotation = fb.axes * fm.axes.transpose();
    in_base[static_cast<std::size_t>(member)] = fb.origin - p.rotation * fm.origin;
  }
  for (const Member& m : merged_) {
    Placement& p = placement_[static_cast<std::size_t>(m.body)];
    p.reduced = placement_[static_cast<std::size_t>(m.base)].reduced;
    p.alone = placement_[static_cast<std::size_t>(m.base)].alone = false;
    p.turn = Quaterniond(p.rotation).normalized();
  }
  for (std::size_t r = 0; r < base_.size(); ++r) {
    const int base = base_[r];
    if (placement_[static_cast<std::size_t>(base)].alone) continue;
    double mass = 0;
    Vector3d moment = Vector3d::Zero();
    for (std::size_t b = 0; b < model.bodies.size(); ++b)
      if (placement_[b].reduced == static_cast<int>(r)) mass += model.bodies[b].mass, moment += model.bodies[b].mass * in_base[b];
    const Vector3d centre = moment / mass;  // the composite's centre of mass from its base's, base axes
    Matrix3d inertia = Matrix3d::Zero();
    for (std::size_t b = 0; b < model.bodies.size(); ++b) {
      Placement& p = placement_[b];
      if (p.reduced != static_cast<int>(r)) continue;
      p.offset = in_base[b] - centre;
      inertia += p.rotation * model.bodies[b].inertia * p.rotation.transpose() + parallel_axis(model.bodies[b].mass, p.offset);
    }
    RigidBody& composite = reduced_.bodies[r];
    composite.mass = mass;
    composite.inertia = 0.5 * (inertia + inertia.transpose());
  }
}

// The joints that stay, their frames on the composites; drivers and surface joints renumbered.
void WeldedBodies::reduce_joints(const MultibodyModel& model) {
  const auto frame_on = [&](int body, const JointFrame& f) {
    if (body == kGround || alone(body)) return f;
    const Placement& p = placement_[static_cast<std::size_t>(body)];
    return JointFrame{p.offset + p.rotation * f.origin, p.rotation * f.axes};
  };
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    if (member_of_[k] >= 0) {
      reduced_joint_[k] = -1;
      continue;
    }
    Joint j = model.joints[k];
    j.frame_i = frame_on(j.body_i, j.frame_i);
    j.frame_j = frame_on(j.body_j, j.frame_j);
    j.body_i = reduced_body(j.body_i);
    j.body_j = reduced_body(j.body_j);
    reduced_joint_[k] = static_cast<int>(reduced_.joints.size());
    reduced_.joints.push_back(std::move(j));
  }
  for (Driver d : model.drivers) {
    d.joint = reduced_joint_[static_cast<std::size_t>(d.joint)];
    reduced_.drivers.push_back(std::move(d));
  }
  for (SurfaceJointSpec s : model.surface_joints) {
    s.body_i = reduced_body(s.body_i);
    s.body_j = reduced_body(s.body_j);
    reduced_.surface_joints.push_back(std::move(s));
  }
  reduced_.gravity = model.gravity;  // springs stay on the bodies: their loads are folded
}

void WeldedBodies::reduce_state(const double* y, double* y_reduced) const {
  for (std::size_t r = 0; r < base_.size(); ++r) {
    const double* b = y + kBodyStateSize * base_[r];
    double* c = y_reduced + kBodyStateSize * static_cast<std::ptrdiff_t>(r);
    for (int k = 0; k < kBodyStateSize; ++k) c[k] = b[k];
    const Placement& p = placement_[static_cast<std::size_t>(base_[r])];
    if (p.alone) continue;
    // The centre of mass at -e from the base's: r_c = r_b - A e, v_c = v_b - A (w' x e).
    const Matrix3d A = rotation_of(b);
    const Vector3d w(b[10], b[11], b[12]);
    const Vector3d position = Vector3d(b[0], b[1], b[2]) - A * p.offset;
    const Vector3d velocity = Vector3d(b[7], b[8], b[9]) - A * w.cross(p.offset);
    for (int k = 0; k < 3; ++k) c[k] = position[k], c[7 + k] = velocity[k];
  }
}

void WeldedBodies::fold_loads(const double* y, const double* y_reduced, const std::vector<BodyLoad>& loads,
                              std::vector<BodyLoad>& reduced_loads) const {
  for (BodyLoad& l : reduced_loads) l = BodyLoad{};
  for (std::size_t b = 0; b < placement_.size(); ++b) {
    const Placement& p = placement_[b];
    BodyLoad& to = reduced_loads[static_cast<std::size_t>(p.reduced)];
    to.force += loads[b].force;
    to.torque += loads[b].torque;
    if (p.alone) continue;
    const Eigen::Map<const Vector3d> r(y + kBodyStateSize * static_cast<std::ptrdiff_t>(b));
    const Eigen::Map<const Vector3d> r_c(y_reduced + kBodyStateSize * static_cast<std::ptrdiff_t>(p.reduced));
    to.torque += (r - r_c).cross(loads[b].force);
  }
}

void WeldedBodies::body_acceleration(int body, const Matrix3d& A_c, const Vector3d& w_c, const double* acc_c,
                                     double* acc) const {
  const Placement& p = placement_[static_cast<std::size_t>(body)];
  if (p.alone) {
    for (int k = 0; k < 6; ++k) acc[k] = acc_c[k];
    return;
  }
  const Eigen::Map<const Vector3d> a(acc_c), alpha(acc_c + 3);
  // a_body = a_c + A (alpha' x e + w' x (w' x e)); alpha_body' = R^T alpha'.
  const Vector3d linear = a + A_c * (alpha.cross(p.offset) + w_c.cross(w_c.cross(p.offset)));
  const Vector3d angular = p.rotation.transpose() * alpha;
  for (int k = 0; k < 3; ++k) acc[k] = linear[k], acc[3 + k] = angular[k];
}

WeldedBodies::Place WeldedBodies::place_of(const Member& m, const double* y) const {
  const Placement &pm = placement_[static_cast<std::size_t>(m.body)], &pb = placement_[static_cast<std::size_t>(m.base)];
  const double* b = y + kBodyStateSize * m.base;
  const Quaterniond base(b[3], b[4], b[5], b[6]);
  const Matrix3d A = base.normalized().toRotationMatrix();
  const Vector3d d = pm.offset - pb.offset;  // the member's centre of mass from the base's, base axes
  const Vector3d w(b[10], b[11], b[12]);
  Place p;
  p.r = Vector3d(b[0], b[1], b[2]) + A * d;
  p.v = Vector3d(b[7], b[8], b[9]) + A * w.cross(d);
  p.q = base * pm.turn;
  p.w = pm.rotation.transpose() * w;
  // The same rotation either sign: keep the one the member has, so its parameters run on.
  const double* s = y + kBodyStateSize * m.body;
  if (p.q.w() * s[3] + p.q.x() * s[4] + p.q.y() * s[5] + p.q.z() * s[6] < 0) p.q.coeffs() = -p.q.coeffs();
  return p;
}

void WeldedBodies::project(double* y) const {
  for (const Member& m : merged_) {
    const Place p = place_of(m, y);
    const double values[kBodyStateSize] = {p.r.x(), p.r.y(), p.r.z(), p.q.w(), p.q.x(), p.q.y(), p.q.z(),
                                           p.v.x(), p.v.y(), p.v.z(), p.w.x(), p.w.y(), p.w.z()};
    std::copy(values, values + kBodyStateSize, y + kBodyStateSize * m.body);
  }
}

void WeldedBodies::pull_back(const double* y, double alpha, double beta, double* acc) const {
  for (const Member& m : merged_) {
    const Place p = place_of(m, y);
    const BodyStateView s = body_view(y, m.body);
    // The rotation from where the member should be to where it is, its own axes: 2 vec(q_p^-1 q).
    const Quaterniond error = p.q.conjugate() * Quaterniond(s.y[3], s.y[4], s.y[5], s.y[6]);
    const Vector3d turned = (error.w() < 0 ? -2.0 : 2.0) * error.vec();
    double* a = acc + 6 * m.body;
    const Vector3d linear = 2 * alpha * (s.v() - p.v) + beta * beta * (s.r() - p.r);
    const Vector3d angular = 2 * alpha * (s.w_body() - p.w) + beta * beta * turned;
    for (int k = 0; k < 3; ++k) a[k] -= linear[k], a[3 + k] -= angular[k];
  }
}

std::vector<int> weld_clusters(const MultibodyModel& model) {
  std::vector<int> root(model.bodies.size() + 1);
  for (std::size_t b = 0; b < root.size(); ++b) root[b] = static_cast<int>(b) - 1;
  const auto find = [&](int b) {
    while (root[static_cast<std::size_t>(b + 1)] != b) b = root[static_cast<std::size_t>(b + 1)];
    return b;
  };
  for (const Joint& joint : model.joints) {
    if (joint.type != JointType::fixed) continue;
    const int a = find(joint.body_i), b = find(joint.body_j);
    root[static_cast<std::size_t>(std::max(a, b) + 1)] = std::min(a, b);
  }
  for (std::size_t b = 0; b < root.size(); ++b) root[b] = find(static_cast<int>(b) - 1);
  return root;
}

}  // namespace surfdb

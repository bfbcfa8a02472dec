#include "surfdb/multibody/dynamics.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb {
namespace {

// a . b over six terms, summed in pairs: Eigen's vectorised dot spends more on packets and the final
// horizontal sum than these eleven operations.
double dot6(const double* a, const double* b) {
  return (a[0] * b[0] + a[1] * b[1]) + (a[2] * b[2] + a[3] * b[3]) + (a[4] * b[4] + a[5] * b[5]);
}

}  // namespace

Dynamics::Dynamics(const MultibodyModel& full_model, Stabilisation stabilisation, Welds welds)
    : model_(full_model), stab_(stabilisation), welds_(full_model, welds == Welds::merge),
      body_count_(static_cast<int>(full_model.bodies.size())),
      solved_count_(static_cast<int>(welds_.reduced().bodies.size())), constraints_(welds_.reduced()),
      model_constraints_(welds_.empty() ? MultibodyModel{} : full_model), loads_(full_model.bodies.size()),
      reduced_loads_(welds_.reduced().bodies.size()) {
  const MultibodyModel& model = welds_.reduced();  // what the equations are solved for
  if (!welds_.empty()) {
    y_reduced_.resize(static_cast<std::size_t>(kBodyStateSize * solved_count_));
    y_last_.resize(static_cast<std::size_t>(state_size()));
  }
  for (const RigidBody& b : model.bodies) inverse_inertia_.push_back(b.inertia.inverse());
  int row = 0;
  for (const Joint& j : model.joints) {
    first_row_.push_back(row);
    row += surfdb::constraint_count(j.type);
  }
  rotation_.resize(model.bodies.size());
  body_rows_.resize(model.bodies.size());
  const auto touch = [&](int body, int r) {
    if (body != kGround) body_rows_[static_cast<std::size_t>(body)].push_back(r);
  };
  for (std::size_t k = 0; k < model.joints.size(); ++k)
    for (int r = first_row_[k]; r < first_row_[k] + surfdb::constraint_count(model.joints[k].type); ++r)
      touch(model.joints[k].body_i, r), touch(model.joints[k].body_j, r);
  for (const Driver& d : model.drivers) {
    touch(model.joints[static_cast<std::size_t>(d.joint)].body_i, row);
    touch(model.joints[static_cast<std::size_t>(d.joint)].body_j, row);
    ++row;
  }
  first_surface_row_ = row;
  surface_rows_.resize(model.surface_joints.size());
  for (const SurfaceJointSpec& s : model.surface_joints) touch(s.body_i, row), touch(s.body_j, row), ++row;
  const int n = 6 * solved_count_, m = model.constraint_count();
  z_dot_.resize(n);
  q_.resize(n);
  m_inv_q_.resize(n);
  acc_.resize(6 * body_count_);
  reduced_acc_.resize(welds_.empty() ? 0 : n);
  rhs_.resize(m);
  lambda_.resize(m);
  schur_ = EnvelopeCholesky::RowMatrix::Zero(m, m);
  // Two equations couple only through a body they share: row r's first nonzero is the first
  // equation that touches one of r's bodies.
  std::vector<int> first(static_cast<std::size_t>(m));
  for (int r = 0; r < m; ++r) first[static_cast<std::size_t>(r)] = r;
  for (const std::vector<int>& rows : body_rows_)
    for (int r : rows) first[static_cast<std::size_t>(r)] = std::min(first[static_cast<std::size_t>(r)], rows.front());
  cholesky_ = EnvelopeCholesky(std::move(first));
  plan_schur();
  // Computing once sizes the fallback's storage (no allocation per call) and sets its status:
  // Eigen leaves it uninitialised until then, and copying it would read it (UBSan).
  ldlt_.compute(Eigen::MatrixXd::Identity(m, m));
}

// Lists each entry of the Schur complement's envelope, row by row, with the 6-term products that
// make it: one per body its two equations share (one or two), in body order.
void Dynamics::plan_schur() {
  weighted_first_.assign(static_cast<std::size_t>(solved_count_) + 1, 0);
  for (int k = 0; k < solved_count_; ++k)
    weighted_first_[static_cast<std::size_t>(k) + 1] =
        weighted_first_[static_cast<std::size_t>(k)] + static_cast<int>(body_rows_[static_cast<std::size_t>(k)].size());
  weighted_.assign(6 * static_cast<std::size_t>(weighted_first_.back()), 0.0);
  const int m = static_cast<int>(lambda_.size()), stride = 6 * solved_count_;
  for (int r = 0; r < m; ++r)
    for (int c = cholesky_.first()[static_cast<std::size_t>(r)]; c <= r; ++c) {
      SchurEntry entry{r * m + c, 0, {}, {}};
      for (int k = 0; k < solved_count_; ++k) {
        const std::vector<int>& rows = body_rows_[static_cast<std::size_t>(k)];
        const auto a = std::find(rows.begin(), rows.end(), r);
        if (a == rows.end() || std::find(rows.begin(), rows.end(), c) == rows.end()) continue;
        if (entry.terms == 2)
          throw std::logic_error("Dynamics: equations " + std::to_string(c) + " and " + std::to_string(r) +
                                 " share more than two bodies");
        entry.weighted[entry.terms] = 6 * (weighted_first_[static_cast<std::size_t>(k)] + static_cast<int>(a - rows.begin()));
        entry.jacobian[entry.terms++] = c * stride + 6 * k;
      }
      schur_entries_.push_back(entry);
    }
}

// The reduced model's equations at the reduced state. The surface joints' rows come from the
// bodies' state y (their bodies are never merged, so they are reduced bodies of their own).
void Dynamics::evaluate_all_constraints(double t, const double* y_reduced, std::span<const ConstraintRow> rows) {
  evaluate_constraints(welds_.reduced(), t, y_reduced, constraints_);
  if (surface_rows_.empty()) return;
  if (rows.size() != surface_rows_.size())
    throw std::logic_error("Dynamics: the model has surface joints but their equations were not given");
  std::copy(rows.begin(), rows.end(), surface_rows_.begin());
  for (std::size_t k = 0; k < surface_rows_.size(); ++k) {
    const SurfaceJointSpec& s = welds_.reduced().surface_joints[k];
    write_row(constraints_, first_surface_row_ + static_cast<int>(k), y_reduced, s.body_i, s.body_j, surface_rows_[k]);
  }
}

void Dynamics::derivative(double t, const double* y, double* ydot, std::span<const BodyLoad> loads,
                          std::span<const ConstraintRow> surface_rows) {
  if (loads.empty()) std::fill(loads_.begin(), loads_.end(), BodyLoad{});
  else std::copy(loads.begin(), loads.end(), loads_.begin());
  add_spring_loads(model_.springs, y, loads_);
  if (welds_.empty()) {
    evaluate_all_constraints(t, y, surface_rows);
    solve_accelerations(y, loads_, acc_);
  } else {
    welds_.reduce_state(y, y_reduced_.data());
    welds_.fold_loads(y, y_reduced_.data(), loads_, reduced_loads_);
    evaluate_all_constraints(t, y_reduced_.data(), surface_rows);
    solve_accelerations(y_reduced_.data(), reduced_loads_, reduced_acc_);
    for (int k = 0; k < body_count_; ++k) {
      const int r = welds_.reduced_body(k);
      const double* w = y_reduced_.data() + kBodyStateSize * r + 10;
      welds_.body_acceleration(k, rotation_[static_cast<std::size_t>(r)], Eigen::Vector3d(w[0], w[1], w[2]),
                               reduced_acc_.data() + 6 * r, acc_.data() + 6 * k);
    }
    welds_.pull_back(y, stab_.alpha, stab_.beta, acc_.data());
    std::copy(y, y + state_size(), y_last_.begin());
  }
  write_rates(y, ydot);
}

// The reduced bodies' accelerations `acc` (6 each) at their state y, under `loads`.
void Dynamics::solve_accelerations(const double* y, const std::vector<BodyLoad>& loads, Eigen::VectorXd& acc) {
  const MultibodyModel& model = welds_.reduced();
  // Generalized velocities and forces, M^-1 Q, and Phi_z M^-1 body by body; the right-hand side
  // (Phi_z M^-1 Q - gamma + 2 alpha Phi_dot + beta^2 Phi) as it goes.
  const int m = static_cast<int>(lambda_.size()), stride = 6 * solved_count_;
  const double* jacobian = constraints_.jacobian.data();
  rhs_ = stab_.beta * stab_.beta * constraints_.phi - constraints_.gamma + 2 * stab_.alpha * constraints_.phi_t;
  for (int k = 0; k < solved_count_; ++k) {
    const BodyStateView s = body_view(y, k);
    const RigidBody& b = model.bodies[k];
    const Eigen::Matrix3d& A = constraints_.bodies[static_cast<std::size_t>(k)].A;  // evaluate_all_constraints'
    rotation_[k] = A;
    const Eigen::Vector3d w = s.w_body();
    z_dot_.segment<3>(6 * k) = s.v();
    z_dot_.segment<3>(6 * k + 3) = w;
    q_.segment<3>(6 * k) = loads[k].force + b.mass * model.gravity;
    q_.segment<3>(6 * k + 3) = A.transpose() * loads[k].torque - w.cross(b.inertia * w);
    m_inv_q_.segment<3>(6 * k) = q_.segment<3>(6 * k) / b.mass;
    m_inv_q_.segment<3>(6 * k + 3) = inverse_inertia_[k] * q_.segment<3>(6 * k + 3);
    const Eigen::Matrix<double, 6, 1> drive = m_inv_q_.segment<6>(6 * k) + 2 * stab_.alpha * z_dot_.segment<6>(6 * k);
    const std::vector<int>& rows = body_rows_[k];
    double* weighted = weighted_.data() + 6 * weighted_first_[static_cast<std::size_t>(k)];
    for (std::size_t a = 0; a < rows.size(); ++a, weighted += 6) {
      const Eigen::Map<const Row6> J(jacobian + rows[a] * stride + 6 * k);
      Eigen::Map<Row6> W(weighted);  // Phi_z M^-1, this body's columns (its inertia symmetric)
      W.head<3>() = J.head<3>() / b.mass;
      W.tail<3>() = J.tail<3>() * inverse_inertia_[k];
      rhs_[rows[a]] += J.dot(drive.transpose());
    }
  }
  if (m > 0) {
    // The lower triangle, within the envelope (the Cholesky reads no more), each entry once.
    const double* weighted = weighted_.data();
    double* schur = schur_.data();
    for (const SchurEntry& e : schur_entries_) {
      double sum = 0;
      if (e.terms > 0) sum += dot6(weighted + e.weighted[0], jacobian + e.jacobian[0]);
      if (e.terms > 1) sum += dot6(weighted + e.weighted[1], jacobian + e.jacobian[1]);
      schur[e.index] = sum;
    }
    // An inactive surface joint's row is zero: a unit diagonal gives it a zero multiplier.
    for (std::size_t k = 0; k < surface_rows_.size(); ++k)
      if (!surface_rows_[k].active) schur_(first_surface_row_ + static_cast<int>(k), first_surface_row_ + static_cast<int>(k)) = 1;
    // Symmetric positive definite when the equations are independent (scenarios refuse redundant
    // joints): the envelope's L D L^T, with Eigen's pivoting LDLT only for a matrix that is not.
    if (cholesky_.factorise(schur_)) {
      lambda_ = rhs_;
      cholesky_.solve_in_place(lambda_);
    } else {
      ldlt_.compute(schur_);
      lambda_ = ldlt_.solve(rhs_);
    }
  }
  // zdd = M^-1 Q - (Phi_z M^-1)^T lambda, body by body.
  acc = m_inv_q_;
  for (int k = 0; k < solved_count_ && m > 0; ++k) {
    const std::vector<int>& rows = body_rows_[k];
    const double* weighted = weighted_.data() + 6 * weighted_first_[static_cast<std::size_t>(k)];
    Row6 sum = Row6::Zero();
    for (std::size_t a = 0; a < rows.size(); ++a, weighted += 6) sum += lambda_[rows[a]] * Eigen::Map<const Row6>(weighted);
    acc.segment<6>(6 * k) -= sum.transpose();
  }
}

// Every body's state rates: r' = v, the Euler parameters' from w', and its accelerations acc_.
void Dynamics::write_rates(const double* y, double* ydot) {
  for (int k = 0; k < body_count_; ++k) {
    const double* b = y + kBodyStateSize * k;
    double* d = ydot + kBodyStateSize * k;
    const Eigen::Quaterniond p(b[3], b[4], b[5], b[6]);
    const Eigen::Vector3d w(b[10], b[11], b[12]);
    // pdot = 1/2 p (x) (0, w'), pulled back to the unit sphere.
    const Eigen::Quaterniond pw = p * Eigen::Quaterniond(0, w.x(), w.y(), w.z());
    const double drift = stab_.euler * (p.squaredNorm() - 1);
    d[0] = b[7];
    d[1] = b[8];
    d[2] = b[9];
    d[3] = 0.5 * pw.w() - drift * p.w();
    d[4] = 0.5 * pw.x() - drift * p.x();
    d[5] = 0.5 * pw.y() - drift * p.y();
    d[6] = 0.5 * pw.z() - drift * p.z();
    for (int c = 0; c < 6; ++c) d[7 + c] = acc_[6 * k + c];
  }
}

BodyLoad Dynamics::joint_reaction(int joint) const {
  const Joint& j = model_.joints[static_cast<std::size_t>(joint)];
  BodyLoad load;
  if (j.body_j == kGround) return load;
  const int reduced = welds_.reduced_joint(joint);
  if (reduced < 0) return weld_reaction(joint);
  const int rows = surfdb::constraint_count(j.type), first = first_row_[static_cast<std::size_t>(reduced)];
  const int body = welds_.reduced_body(j.body_j);
  // The constraint's generalized force on body j: -Phi_z^T lambda over the joint's rows.
  const Eigen::Matrix<double, 6, 1> q =
      -constraints_.jacobian.block(first, 6 * body, rows, 6).transpose() * lambda_.segment(first, rows);
  load.force = q.head<3>();
  load.torque = rotation_[static_cast<std::size_t>(body)] * q.tail<3>();
  if (welds_.alone(j.body_j)) return load;
  // Solved about the composite's centre of mass: moved to body j's.
  const Eigen::Map<const Eigen::Vector3d> r_c(y_reduced_.data() + kBodyStateSize * body);
  load.torque += (r_c - body_view(y_last_.data(), j.body_j).r()).cross(load.force);
  return load;
}

// What holds a merged member to its composite: its own Newton-Euler equations less the loads on it,
// F = m a - F_applied - m g and T = A (I alpha' + w' x I w') - T_applied (I its inertia, body axes).
BodyLoad Dynamics::weld_reaction(int joint) const {
  const Joint& j = model_.joints[static_cast<std::size_t>(joint)];
  const int member = welds_.member_of(joint);
  const RigidBody& b = model_.bodies[static_cast<std::size_t>(member)];
  const BodyStateView s = body_view(y_last_.data(), member);
  const BodyLoad& applied = loads_[static_cast<std::size_t>(member)];
  const Eigen::Vector3d w = s.w_body(), alpha = acc_.segment<3>(6 * member + 3);
  BodyLoad load;
  load.force = b.mass * (acc_.segment<3>(6 * member) - model_.gravity) - applied.force;
  load.torque = s.orientation().toRotationMatrix() * (b.inertia * alpha + w.cross(b.inertia * w)) - applied.torque;
  if (member == j.body_j) return load;
  // Body j is the base: the opposite load, its torque about the base's centre of mass.
  const Eigen::Vector3d arm = s.r() - body_view(y_last_.data(), j.body_j).r();
  return BodyLoad{-load.force, -load.torque - arm.cross(load.force)};
}

double Dynamics::kinetic_energy(const double* y) const {
  double e = 0;
  for (int k = 0; k < body_count_; ++k) {
    const BodyStateView s = body_view(y, k);
    const RigidBody& b = model_.bodies[k];
    e += 0.5 * b.mass * s.v().squaredNorm() + 0.5 * s.w_body().dot(b.inertia * s.w_body());
  }
  return e;
}

double Dynamics::potential_energy(const double* y) const {
  double e = 0;
  for (int k = 0; k < body_count_; ++k) e -= model_.bodies[k].mass * model_.gravity.dot(body_view(y, k).r());
  return e + spring_energy(model_.springs, y);
}

double Dynamics::position_violation(double t, const double* y, std::span<const ConstraintRow> surface_rows) {
  const auto largest = [](const auto& phi) { return phi.size() ? phi.cwiseAbs().maxCoeff() : 0.0; };
  if (welds_.empty()) {
    evaluate_all_constraints(t, y, surface_rows);
    return largest(constraints_.phi);
  }
  welds_.reduce_state(y, y_reduced_.data());
  evaluate_all_constraints(t, y_reduced_.data(), surface_rows);
  evaluate_constraints(model_, t, y, model_constraints_);  // the merged welds' too; not the surface joints'
  const int rows = model_.surface_joint_row(0);  // the joints' and drivers'
  return std::max(largest(constraints_.phi), largest(model_constraints_.phi.head(rows)));
}

void Dynamics::normalise(double* y) const {
  for (int k = 0; k < body_count_; ++k) {
    double* p = y + kBodyStateSize * k + 3;
    const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    for (int c = 0; c < 4; ++c) p[c] /= n;
  }
  welds_.project(y);
}

void Dynamics::place_welded(double* y) const { welds_.project(y); }

}  // namespace surfdb

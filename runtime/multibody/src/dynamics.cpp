#include "surfdb/multibody/dynamics.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb {

Dynamics::Dynamics(const MultibodyModel& model, Stabilisation stabilisation)
    : model_(model), stab_(stabilisation), body_count_(static_cast<int>(model.bodies.size())),
      constraints_(model), loads_(model.bodies.size()) {
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
  for (const std::vector<int>& rows : body_rows_) {
    const int nk = static_cast<int>(rows.size());
    body_jacobian_.emplace_back(nk, 6);
    body_weighted_.emplace_back(nk, 6);
    body_lambda_.emplace_back(nk);
  }
  const int n = 6 * body_count_, m = model.constraint_count();
  z_dot_.resize(n);
  q_.resize(n);
  m_inv_q_.resize(n);
  acc_.resize(n);
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
  // Computing once sizes the fallback's storage (no allocation per call) and sets its status:
  // Eigen leaves it uninitialised until then, and copying it would read it (UBSan).
  ldlt_.compute(Eigen::MatrixXd::Identity(m, m));
}

void Dynamics::evaluate_all_constraints(double t, const double* y) {
  evaluate_constraints(model_, t, y, constraints_);
  if (surface_rows_.empty()) return;
  if (!surface_rows_fn_) throw std::logic_error("Dynamics: the model has surface joints but nothing gives their equations");
  surface_rows_fn_(t, y, surface_rows_);
  for (std::size_t k = 0; k < surface_rows_.size(); ++k) {
    const SurfaceJointSpec& s = model_.surface_joints[k];
    write_row(constraints_, first_surface_row_ + static_cast<int>(k), y, s.body_i, s.body_j, surface_rows_[k]);
  }
}

void Dynamics::derivative(double t, const double* y, double* ydot, const LoadFunction& loads) {
  for (BodyLoad& l : loads_) l = BodyLoad{};
  if (loads) loads(t, y, loads_);
  add_spring_loads(model_.springs, y, loads_);
  evaluate_all_constraints(t, y);

  // Generalized velocities and forces, M^-1 Q, and Phi_z M^-1 body by body.
  for (int k = 0; k < body_count_; ++k) {
    const BodyStateView s = body_view(y, k);
    const RigidBody& b = model_.bodies[k];
    const Eigen::Matrix3d& A = constraints_.bodies[static_cast<std::size_t>(k)].A;  // evaluate_all_constraints'
    rotation_[k] = A;
    const Eigen::Vector3d w = s.w_body();
    z_dot_.segment<3>(6 * k) = s.v();
    z_dot_.segment<3>(6 * k + 3) = w;
    q_.segment<3>(6 * k) = loads_[k].force + b.mass * model_.gravity;
    q_.segment<3>(6 * k + 3) = A.transpose() * loads_[k].torque - w.cross(b.inertia * w);
    m_inv_q_.segment<3>(6 * k) = q_.segment<3>(6 * k) / b.mass;
    m_inv_q_.segment<3>(6 * k + 3) = inverse_inertia_[k] * q_.segment<3>(6 * k + 3);
    const std::vector<int>& rows = body_rows_[k];
    RowsBy6& Jk = body_jacobian_[k];
    for (std::size_t a = 0; a < rows.size(); ++a)
      Jk.row(static_cast<int>(a)) = constraints_.jacobian.block<1, 6>(rows[a], 6 * k);
    body_weighted_[k].leftCols<3>() = Jk.leftCols<3>() / b.mass;  // Phi_z M^-1, this body's columns
    body_weighted_[k].rightCols<3>() = Jk.rightCols<3>().lazyProduct(inverse_inertia_[k]);  // symmetric
  }
  const int m = static_cast<int>(lambda_.size());
  if (m > 0) {
    // (Phi_z M^-1 Phi_z^T) lambda = Phi_z M^-1 Q - gamma + 2 alpha Phi_dot + beta^2 Phi, body by body
    const std::vector<int>& first = cholesky_.first();  // the lower triangle's envelope
    for (int r = 0; r < m; ++r) {
      const int f = first[static_cast<std::size_t>(r)];
      schur_.row(r).segment(f, r + 1 - f).setZero();
    }
    rhs_ = stab_.beta * stab_.beta * constraints_.phi - constraints_.gamma + 2 * stab_.alpha * constraints_.phi_t;
    // Only the lower triangle: the Cholesky reads no more. Each body's rows are ascending.
    for (int k = 0; k < body_count_; ++k) {
      const std::vector<int>& rows = body_rows_[k];
      const RowsBy6 &Jk = body_jacobian_[k], &Wk = body_weighted_[k];
      const Eigen::Matrix<double, 6, 1> drive = m_inv_q_.segment<6>(6 * k) + 2 * stab_.alpha * z_dot_.segment<6>(6 * k);
      for (int a = 0; a < static_cast<int>(rows.size()); ++a) {
        rhs_[rows[a]] += Jk.row(a).dot(drive);
        for (int c = 0; c <= a; ++c) schur_(rows[a], rows[c]) += Wk.row(a).dot(Jk.row(c));
      }
    }
    // An inactive surface joint's row is zero: a unit diagonal gives it a zero multiplier.
    for (std::size_t k = 0; k < surface_rows_.size(); ++k)
      if (!surface_rows_[k].active) schur_(first_surface_row_ + static_cast<int>(k), first_surface_row_ + static_cast<int>(k)) = 1;
    // Symmetric positive definite when the equations are independent (scenarios refuse redundant
    // joints): Cholesky, with the pivoting LDLT only for a matrix that is not.
    if (cholesky_.factorise(schur_)) {
      lambda_ = rhs_;
      cholesky_.solve_in_place(lambda_);
    } else {
      ldlt_.compute(schur_);
      lambda_ = ldlt_.solve(rhs_);
    }
  }
  acc_ = m_inv_q_;
  for (int k = 0; k < body_count_ && m > 0; ++k) {
    const std::vector<int>& rows = body_rows_[k];
    for (std::size_t a = 0; a < rows.size(); ++a) body_lambda_[k][static_cast<int>(a)] = lambda_[rows[a]];
    acc_.segment<6>(6 * k).noalias() -= body_weighted_[k].transpose().lazyProduct(body_lambda_[k]);
  }

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
  const int rows = surfdb::constraint_count(j.type), first = first_row_[static_cast<std::size_t>(joint)];
  // The constraint's generalized force on body j: -Phi_z^T lambda over the joint's rows.
  const Eigen::Matrix<double, 6, 1> q =
      -constraints_.jacobian.block(first, 6 * j.body_j, rows, 6).transpose() * lambda_.segment(first, rows);
  load.force = q.head<3>();
  load.torque = rotation_[static_cast<std::size_t>(j.body_j)] * q.tail<3>();
  return load;
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

double Dynamics::position_violation(double t, const double* y) {
  evaluate_all_constraints(t, y);
  return constraints_.phi.size() ? constraints_.phi.cwiseAbs().maxCoeff() : 0.0;
}

void Dynamics::normalise(double* y) const {
  for (int k = 0; k < body_count_; ++k) {
    double* p = y + kBodyStateSize * k + 3;
    const double n = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3]);
    for (int c = 0; c < 4; ++c) p[c] /= n;
  }
}

}  // namespace surfdb

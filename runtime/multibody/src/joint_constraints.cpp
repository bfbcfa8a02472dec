#include "surfdb/multibody/joint_constraints.hpp"

#include <Eigen/Geometry>
#include <array>
#include <cmath>

#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

using Kin = BodyKinematics;

Kin kinematics(const double* y, int body) {
  Kin k;
  if (body == kGround) return k;
  const BodyStateView s = body_view(y, body);
  k.index = body;
  k.r = s.r();
  k.A = s.orientation().toRotationMatrix();
  k.v = s.v();
  k.w = k.A * s.w_body();
  return k;
}

// Body `body`'s kinematics of this evaluation (the ground's at rest).
const Kin& kinematics_of(const ConstraintSet& out, int body) {
  static const Kin ground{};
  return body == kGround ? ground : out.bodies[static_cast<std::size_t>(body)];
}

using Row = ConstraintRow;

double rate(const Row& row, const Kin& i, const Kin& j) {  // Phi_z zdot
  return row.dr_i.dot(i.v) + row.dth_i.dot(i.w) + row.dr_j.dot(j.v) + row.dth_j.dot(j.w);
}

// r_i + s_i - r_j - s_j = 0: three equations, one per world axis.
std::array<Row, 3> coincident(const Kin& i, const Kin& j, const Vector3d& si_body, const Vector3d& sj_body) {
  const Vector3d si = i.A * si_body, sj = j.A * sj_body;
  const Vector3d phi = i.r + si - j.r - sj;
  const Vector3d gamma = -i.w.cross(i.w.cross(si)) + j.w.cross(j.w.cross(sj));
  std::array<Row, 3> rows;
  for (int c = 0; c < 3; ++c) {
    const Vector3d e = Vector3d::Unit(c);
    Row& row = rows[static_cast<std::size_t>(c)];
    row.phi = phi[c];
    row.gamma = gamma[c];
    row.dr_i = e;
    row.dth_i = si.cross(e);  // d(e . (theta x s)) = theta . (s x e)
    row.dr_j = -e;
    row.dth_j = -sj.cross(e);
  }
  return rows;
}

// a_i . a_j = 0.
Row perpendicular(const Kin& i, const Kin& j, const Vector3d& ai_body, const Vector3d& aj_body) {
  const Vector3d ai = i.A * ai_body, aj = j.A * aj_body;
  const Vector3d wai = i.w.cross(ai), waj = j.w.cross(aj);
  Row row;
  row.phi = ai.dot(aj);
  row.gamma = -(i.w.cross(wai).dot(aj) + 2 * wai.dot(waj) + ai.dot(j.w.cross(waj)));
  row.dth_i = ai.cross(aj);
  row.dth_j = aj.cross(ai);
  return row;
}

// a_i . d = 0 with d = (r_j + s_j) - (r_i + s_i).
Row perpendicular_to_line(const Kin& i, const Kin& j, const Vector3d& ai_body, const Vector3d& si_body,
                          const Vector3d& sj_body) {
  const Vector3d ai = i.A * ai_body, si = i.A * si_body, sj = j.A * sj_body;
  const Vector3d d = j.r + sj - i.r - si;
  const Vector3d d_dot = j.v + j.w.cross(sj) - i.v - i.w.cross(si);
  const Vector3d d_acc = j.w.cross(j.w.cross(sj)) - i.w.cross(i.w.cross(si));
  const Vector3d a_dot = i.w.cross(ai), a_acc = i.w.cross(a_dot);
  Row row;
  row.phi = ai.dot(d);
  row.gamma = -(a_acc.dot(d) + 2 * a_dot.dot(d_dot) + ai.dot(d_acc));
  row.dr_i = -ai;
  row.dth_i = ai.cross(d + si);
  row.dr_j = ai;
  row.dth_j = sj.cross(ai);
  return row;
}

// Angle driver: sin(theta_d - theta) = s (x_i . x_j) - c (y_i . x_j) with s, c of theta_d(t).
Row angle_driver(const Kin& i, const Kin& j, const Joint& joint, const DriverFunction& f, double t, double& phi_t) {
  const Row a = perpendicular(i, j, joint.frame_i.axes.col(0), joint.frame_j.axes.col(0));
  const Row b = perpendicular(i, j, joint.frame_i.axes.col(1), joint.frame_j.axes.col(0));
  const double th = f.value(t), th_dot = f.rate(t), th_acc = f.acceleration(t);
  const double s = std::sin(th), c = std::cos(th);
  const double s_dot = c * th_dot, c_dot = -s * th_dot;
  const double s_acc = -s * th_dot * th_dot + c * th_acc, c_acc = -c * th_dot * th_dot - s * th_acc;
  Row row;
  row.phi = s * a.phi - c * b.phi;
  row.dth_i = s * a.dth_i - c * b.dth_i;
  row.dth_j = s * a.dth_j - c * b.dth_j;
  // Phi'' = Phi_z zdd - (s gamma_a - c gamma_b) + s'' A + 2 s' A' - c'' B - 2 c' B' = 0
  row.gamma = s * a.gamma - c * b.gamma - (s_acc * a.phi + 2 * s_dot * rate(a, i, j) - c_acc * b.phi - 2 * c_dot * rate(b, i, j));
  phi_t = s_dot * a.phi - c_dot * b.phi;
  return row;
}

// Position driver: z_i . d - x_d(t) = 0.
Row position_driver(const Kin& i, const Kin& j, const Joint& joint, const DriverFunction& f, double t, double& phi_t) {
  Row row = perpendicular_to_line(i, j, joint.frame_i.axes.col(2), joint.frame_i.origin, joint.frame_j.origin);
  row.phi -= f.value(t);
  row.gamma += f.acceleration(t);
  phi_t = -f.rate(t);
  return row;
}

// Writes body k's six entries of a Jacobian row (row-major, contiguous): [dr, A^T dth]. `add` sums
// them onto what is there instead (a row whose two sides are one body).
void put(double* jacobian_row, const Kin& k, const Vector3d& dr, const Vector3d& dth, bool add) {
  if (k.index == kGround) return;
  Eigen::Map<Eigen::Matrix<double, 6, 1>> at(jacobian_row + 6 * k.index);
  if (!add) at.setZero();
  at.head<3>() += dr;
  at.tail<3>() += k.A.transpose() * dth;  // in body axes: delta theta = A delta pi'
}

// Equation `row`, then the next row. The row's other bodies' entries stay as they are (zero).
void write(ConstraintSet& out, int& row, const Kin& i, const Kin& j, const Row& r, double phi_t = 0) {
  out.phi[row] = r.phi;
  out.gamma[row] = r.gamma;
  out.phi_t[row] = phi_t;
  double* jacobian_row = out.jacobian.data() + static_cast<std::ptrdiff_t>(row) * out.jacobian.cols();
  put(jacobian_row, i, r.dr_i, r.dth_i, false);
  put(jacobian_row, j, r.dr_j, r.dth_j, j.index == i.index);
  ++row;
}

Kin orientation_only(const double* y, int body) {  // what put() needs: the index and A
  Kin k;
  if (body == kGround) return k;
  k.index = body;
  k.A = body_view(y, body).orientation().toRotationMatrix();
  return k;
}

}  // namespace

void write_row(ConstraintSet& out, int row, const double* y, int body_i, int body_j, const ConstraintRow& r) {
  out.jacobian.row(row).setZero();
  if (!r.active) {
    out.phi[row] = out.gamma[row] = out.phi_t[row] = 0;
    return;
  }
  write(out, row, orientation_only(y, body_i), orientation_only(y, body_j), r, r.phi_t);
}

void evaluate_constraints(const MultibodyModel& model, double t, const double* y, ConstraintSet& out) {
  for (std::size_t b = 0; b < out.bodies.size(); ++b) out.bodies[b] = kinematics(y, static_cast<int>(b));
  int row = 0;
  for (const Joint& joint : model.joints) {
    const Kin &i = kinematics_of(out, joint.body_i), &j = kinematics_of(out, joint.body_j);
    const JointFrame &fi = joint.frame_i, &fj = joint.frame_j;
    const Vector3d xi = fi.axes.col(0), yi = fi.axes.col(1), zi = fi.axes.col(2);
    const Vector3d xj = fj.axes.col(0), yj = fj.axes.col(1), zj = fj.axes.col(2);
    const auto point = [&] {
      for (const Row& r : coincident(i, j, fi.origin, fj.origin)) write(out, row, i, j, r);
    };
    switch (joint.type) {
      case JointType::spherical:
        point();
        break;
      case JointType::revolute:
        point();
        write(out, row, i, j, perpendicular(i, j, xi, zj));
        write(out, row, i, j, perpendicular(i, j, yi, zj));
        break;
      case JointType::universal:
        point();
        write(out, row, i, j, perpendicular(i, j, xi, xj));
        break;
      case JointType::cylindrical:
      case JointType::translational:
        write(out, row, i, j, perpendicular(i, j, xi, zj));
        write(out, row, i, j, perpendicular(i, j, yi, zj));
        write(out, row, i, j, perpendicular_to_line(i, j, xi, fi.origin, fj.origin));
        write(out, row, i, j, perpendicular_to_line(i, j, yi, fi.origin, fj.origin));
        if (joint.type == JointType::translational) write(out, row, i, j, perpendicular(i, j, xi, yj));
        break;
      case JointType::fixed:
        point();
        write(out, row, i, j, perpendicular(i, j, xi, yj));
        write(out, row, i, j, perpendicular(i, j, yi, zj));
        write(out, row, i, j, perpendicular(i, j, zi, xj));
        break;
    }
  }
  for (const Driver& d : model.drivers) {
    const Joint& joint = model.joints[static_cast<std::size_t>(d.joint)];
    const Kin &i = kinematics_of(out, joint.body_i), &j = kinematics_of(out, joint.body_j);
    double phi_t = 0;
    const Row r = d.type == DriverType::angle ? angle_driver(i, j, joint, d.motion, t, phi_t)
                                              : position_driver(i, j, joint, d.motion, t, phi_t);
    write(out, row, i, j, r, phi_t);
  }
}

}  // namespace surfdb

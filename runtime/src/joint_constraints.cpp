#include "surfdb/runtime/joint_constraints.hpp"

#include <Eigen/Geometry>

#include "surfdb/runtime/multibody_state.hpp"

namespace surfdb {
namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

// A body's kinematics in world axes; the ground is at rest at the origin.
struct Kin {
  int index = kGround;
  Vector3d r = Vector3d::Zero(), v = Vector3d::Zero(), w = Vector3d::Zero();
  Matrix3d A = Matrix3d::Identity();
};

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

// Writes one equation's row at `row`: world-axes derivatives with respect to r and the rotation
// theta of each body, turned into body axes (delta theta = A delta pi').
class Rows {
 public:
  explicit Rows(ConstraintSet& out) : out_(out) { out_.jacobian.setZero(); }

  void add(int& row, const Kin& i, const Kin& j, double phi, double gamma, const Vector3d& dr_i,
           const Vector3d& dth_i, const Vector3d& dr_j, const Vector3d& dth_j) {
    out_.phi[row] = phi;
    out_.gamma[row] = gamma;
    put(row, i, dr_i, dth_i);
    put(row, j, dr_j, dth_j);
    ++row;
  }

 private:
  void put(int row, const Kin& k, const Vector3d& dr, const Vector3d& dth) {
    if (k.index == kGround) return;
    out_.jacobian.block<1, 3>(row, 6 * k.index) += dr.transpose();
    out_.jacobian.block<1, 3>(row, 6 * k.index + 3) += (k.A.transpose() * dth).transpose();
  }
  ConstraintSet& out_;
};

// r_i + s_i - r_j - s_j = 0, three rows.
void coincident(Rows& rows, int& row, const Kin& i, const Kin& j, const Vector3d& si_body, const Vector3d& sj_body) {
  const Vector3d si = i.A * si_body, sj = j.A * sj_body;
  const Vector3d phi = i.r + si - j.r - sj;
  const Vector3d gamma = -i.w.cross(i.w.cross(si)) + j.w.cross(j.w.cross(sj));
  for (int c = 0; c < 3; ++c) {
    const Vector3d e = Vector3d::Unit(c);
    // d(e . (theta x s)) = theta . (s x e)
    rows.add(row, i, j, phi[c], gamma[c], e, si.cross(e), -e, -sj.cross(e));
  }
}

// a_i . a_j = 0.
void perpendicular(Rows& rows, int& row, const Kin& i, const Kin& j, const Vector3d& ai_body, const Vector3d& aj_body) {
  const Vector3d ai = i.A * ai_body, aj = j.A * aj_body;
  const Vector3d wai = i.w.cross(ai), waj = j.w.cross(aj);
  const double gamma = -(i.w.cross(wai).dot(aj) + 2 * wai.dot(waj) + ai.dot(j.w.cross(waj)));
  rows.add(row, i, j, ai.dot(aj), gamma, Vector3d::Zero(), ai.cross(aj), Vector3d::Zero(), aj.cross(ai));
}

// a_i . d = 0 with d = (r_j + s_j) - (r_i + s_i).
void perpendicular_to_line(Rows& rows, int& row, const Kin& i, const Kin& j, const Vector3d& ai_body,
                           const Vector3d& si_body, const Vector3d& sj_body) {
  const Vector3d ai = i.A * ai_body, si = i.A * si_body, sj = j.A * sj_body;
  const Vector3d d = j.r + sj - i.r - si;
  const Vector3d d_dot = j.v + j.w.cross(sj) - i.v - i.w.cross(si);
  const Vector3d d_acc = j.w.cross(j.w.cross(sj)) - i.w.cross(i.w.cross(si));
  const Vector3d a_dot = i.w.cross(ai), a_acc = i.w.cross(a_dot);
  const double gamma = -(a_acc.dot(d) + 2 * a_dot.dot(d_dot) + ai.dot(d_acc));
  rows.add(row, i, j, ai.dot(d), gamma, -ai, ai.cross(d + si), ai, sj.cross(ai));
}

}  // namespace

void evaluate_constraints(const MultibodyModel& model, const double* y, ConstraintSet& out) {
  Rows rows(out);
  int row = 0;
  for (const Joint& joint : model.joints) {
    const Kin i = kinematics(y, joint.body_i), j = kinematics(y, joint.body_j);
    const JointFrame &fi = joint.frame_i, &fj = joint.frame_j;
    const Vector3d xi = fi.axes.col(0), yi = fi.axes.col(1), zi = fi.axes.col(2);
    const Vector3d xj = fj.axes.col(0), yj = fj.axes.col(1), zj = fj.axes.col(2);
    switch (joint.type) {
      case JointType::spherical:
        coincident(rows, row, i, j, fi.origin, fj.origin);
        break;
      case JointType::revolute:
        coincident(rows, row, i, j, fi.origin, fj.origin);
        perpendicular(rows, row, i, j, xi, zj);
        perpendicular(rows, row, i, j, yi, zj);
        break;
      case JointType::universal:
        coincident(rows, row, i, j, fi.origin, fj.origin);
        perpendicular(rows, row, i, j, xi, xj);
        break;
      case JointType::cylindrical:
      case JointType::translational:
        perpendicular(rows, row, i, j, xi, zj);
        perpendicular(rows, row, i, j, yi, zj);
        perpendicular_to_line(rows, row, i, j, xi, fi.origin, fj.origin);
        perpendicular_to_line(rows, row, i, j, yi, fi.origin, fj.origin);
        if (joint.type == JointType::translational) perpendicular(rows, row, i, j, xi, yj);
        break;
      case JointType::fixed:
        coincident(rows, row, i, j, fi.origin, fj.origin);
        perpendicular(rows, row, i, j, xi, yj);
        perpendicular(rows, row, i, j, yi, zj);
        perpendicular(rows, row, i, j, zi, xj);
        break;
    }
  }
}

}  // namespace surfdb

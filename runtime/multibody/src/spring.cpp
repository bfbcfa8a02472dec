#include "surfdb/multibody/spring.hpp"

#include "surfdb/multibody/dynamics.hpp"
#include "surfdb/multibody/multibody_state.hpp"

namespace surfdb {
namespace {

// A point fixed in a body (body axes from its centre of mass), in world axes; the ground's are world already.
Eigen::Vector3d world_point(int body, const Eigen::Vector3d& local, const double* y) {
  if (body == kGround) return local;
  const BodyStateView s = body_view(y, body);
  return s.r() + s.orientation().toRotationMatrix() * local;
}

void add_load(int body, const Eigen::Vector3d& point, const Eigen::Vector3d& force, const double* y,
              std::vector<BodyLoad>& loads) {
  if (body == kGround) return;
  BodyLoad& l = loads[static_cast<std::size_t>(body)];
  l.force += force;
  l.torque += (point - body_view(y, body).r()).cross(force);
}

}  // namespace

SpringState spring_state(const Spring& spring, const double* y) {
  SpringState s;
  s.point_i = world_point(spring.body_i, spring.point_i, y);
  s.point_j = world_point(spring.body_j, spring.point_j, y);
  const Eigen::Vector3d d = s.point_j - s.point_i;
  s.length = d.norm();
  const double stretch = s.length - spring.free_length;
  // F_i = k (L - L0) d / L, written so that L = 0 with L0 = 0 gives k d = 0 rather than 0/0.
  const double scale = spring.free_length == 0 ? spring.stiffness : s.length > 0 ? spring.stiffness * stretch / s.length : 0.0;
  s.force_i = scale * d;
  s.energy = 0.5 * spring.stiffness * stretch * stretch;
  return s;
}

void add_spring_loads(const std::vector<Spring>& springs, const double* y, std::vector<BodyLoad>& loads) {
  for (const Spring& spring : springs) {
    const SpringState s = spring_state(spring, y);
    add_load(spring.body_i, s.point_i, s.force_i, y, loads);
    add_load(spring.body_j, s.point_j, -s.force_i, y, loads);
  }
}

double spring_energy(const std::vector<Spring>& springs, const double* y) {
  double e = 0;
  for (const Spring& spring : springs) e += spring_state(spring, y).energy;
  return e;
}

}  // namespace surfdb

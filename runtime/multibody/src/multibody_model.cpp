#include "surfdb/multibody/multibody_model.hpp"

#include <cmath>

namespace surfdb {

int constraint_count(JointType type) {
  switch (type) {
    case JointType::spherical: return 3;
    case JointType::revolute: return 5;
    case JointType::universal: return 4;
    case JointType::cylindrical: return 4;
    case JointType::translational: return 5;
    case JointType::fixed: return 6;
  }
  return 0;
}

int MultibodyModel::constraint_count() const {
  int n = 0;
  for (const Joint& j : joints) n += surfdb::constraint_count(j.type);
  return n + static_cast<int>(drivers.size() + surface_joints.size());
}

double effective_mass(const MultibodyModel& model, int body_i, int body_j) {
  const auto mass = [&](int body) {
    return body == kGround ? INFINITY : model.bodies[static_cast<std::size_t>(body)].mass;
  };
  return 1 / (1 / mass(body_i) + 1 / mass(body_j));
}

}  // namespace surfdb

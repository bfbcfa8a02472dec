#include "surfdb/contact/contact_wrench.hpp"

#include <Eigen/Geometry>

namespace surfdb {

ContactWrench contact_wrench(const ContactResult& contact, double normal_force,
                             const Eigen::Vector3d& tangential_force, const Pose& i, const Pose& j) {
  ContactWrench w;
  w.application_point = 0.5 * (contact.point_i + contact.point_j);
  w.force_i = normal_force * contact.normal + tangential_force;
  w.force_j = -w.force_i;
  w.torque_i = (w.application_point - i.r).cross(w.force_i);
  w.torque_j = (w.application_point - j.r).cross(w.force_j);
  return w;
}

}  // namespace surfdb

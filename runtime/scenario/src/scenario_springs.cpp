// [[spring]] entries: an undamped linear spring between points of two bodies (or a body and the
// ground), given in world axes at t = 0 and then fixed in their bodies (spring.hpp).
#include <string>

#include "scenario_keys.hpp"
#include "scenario_reader.hpp"

namespace surfdb {

void ScenarioReader::read_spring(const toml::table& t) {
  const std::string name = r_.text(t, "name", "spring");
  const std::string where = "spring '" + name + "'";
  r_.only(t, scenario_keys::kSpring, where);
  for (const Spring& s : s_.model.springs)
    if (s.name == name) r_.fail(t, where, "the name is used twice");
  Spring spring;
  spring.name = name;
  spring.body_i = body_of(t, "body_i", where);
  spring.body_j = body_of(t, "body_j", where);
  if (spring.body_i == spring.body_j) r_.fail(t, where, "joins a body to itself (body_i and body_j are the same)");
  const Vector3d point_i = r_.vec3(t, "point_i", where), point_j = r_.vec3(t, "point_j", where);
  spring.stiffness = r_.positive(t, "stiffness", where);
  spring.free_length = r_.number(t, "free_length", where);
  if (spring.free_length < 0) r_.fail(*t.get("free_length"), where + ".free_length", "must not be negative");
  if ((point_j - point_i).norm() == 0 && spring.free_length > 0)
    r_.fail(*t.get("point_j"), where + ".point_j",
            "coincides with point_i while free_length is not 0: the spring would push with no direction; move a point "
            "or make free_length 0");
  const Pose pi = pose_of(spring.body_i), pj = pose_of(spring.body_j);
  spring.point_i = pi.A.transpose() * (point_i - pi.r);
  spring.point_j = pj.A.transpose() * (point_j - pj.r);
  s_.model.springs.push_back(spring);
}

}  // namespace surfdb

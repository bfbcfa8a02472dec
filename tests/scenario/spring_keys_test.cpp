// The [[spring]] keys (docs/scenario.md): the attachment points given in world axes at t = 0 end
// up fixed in their bodies (the force at t = 0 as worked by hand), and each bad value is refused
// with the file, the line and the field named.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <string>

#include "../support/scenario_text.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/multibody/dynamics.hpp"

using namespace surfdb;
using surfdb::test::TempDir;
using test::error_of;

namespace {

// A body at (1, 2, 3) turned 90 degrees about z (lines 1-8), then the spring's keys from line 10.
std::string scene(const std::string& spring) {
  return "[simulation]\nend_time = 0.1\n"
         "[[body]]\nname = \"box\"\nmass = 0.5\ninertia = [1e-3, 1e-3, 1e-3]\nposition = [1, 2, 3]\n"
         "orientation = [0.7071067811865476, 0, 0, 0.7071067811865476]\n"
         "[[spring]]\n" + spring;
}

const std::string kGood = "name = \"lift\"\nbody_i = \"box\"\nbody_j = \"ground\"\npoint_i = [1, 2.1, 3]\n"
                          "point_j = [1, 2.1, 3.5]\nstiffness = 100\nfree_length = 0.2\n";

std::string with(const std::string& key, const std::string& value) {
  const std::size_t at = kGood.find(key + " = ");
  return kGood.substr(0, at) + key + " = " + value + kGood.substr(kGood.find('\n', at));
}

}  // namespace

TEST_CASE("[[spring]]: points fixed in their bodies, the force at t = 0 as the file means it") {
  const TempDir dir;
  const Scenario s = test::load_text(dir, scene(kGood));
  REQUIRE(s.model.springs.size() == 1);
  const Spring& spring = s.model.springs[0];
  CHECK(spring.name == "lift");
  CHECK(spring.body_i == 0);
  CHECK(spring.body_j == kGround);
  CHECK((spring.point_i - Eigen::Vector3d(0.1, 0, 0)).norm() < 1e-12);  // in the turned body's axes
  CHECK((spring.point_j - Eigen::Vector3d(1, 2.1, 3.5)).norm() < 1e-12);
  // 0.5 m long, free 0.2 m: 30 N up on the box at its point (0, 0.1, 0) from its centre.
  std::vector<BodyLoad> loads(1);
  add_spring_loads(s.model.springs, s.initial_state.data(), loads);
  CHECK((loads[0].force - Eigen::Vector3d(0, 0, 30)).norm() < 1e-9);
  CHECK((loads[0].torque - Eigen::Vector3d(3, 0, 0)).norm() < 1e-9);
}

TEST_CASE("[[spring]]: bad values name the file, the line and the field") {
  const TempDir dir;
  CHECK(error_of(dir, scene(with("body_j", "\"crank\""))) == "scene.toml:12: spring 'lift'.body_j: no body named 'crank'");
  CHECK(error_of(dir, scene(with("body_j", "\"box\""))) ==
        "scene.toml:9: spring 'lift': joins a body to itself (body_i and body_j are the same)");
  CHECK(error_of(dir, scene(with("stiffness", "0"))) == "scene.toml:15: spring 'lift'.stiffness: must be positive");
  CHECK(error_of(dir, scene(with("stiffness", "-5"))) == "scene.toml:15: spring 'lift'.stiffness: must be positive");
  CHECK(error_of(dir, scene(with("free_length", "-0.1"))) == "scene.toml:16: spring 'lift'.free_length: must not be negative");
  CHECK(error_of(dir, scene("name = \"lift\"\nbody_i = \"box\"\nbody_j = \"ground\"\npoint_i = [1, 2.1, 3]\n"
                                  "point_j = [1, 2.1, 3]\nstiffness = 100\nfree_length = 0.2\n")) ==
        "scene.toml:14: spring 'lift'.point_j: coincides with point_i while free_length is not 0: the spring would push "
        "with no direction; move a point or make free_length 0");
  // With free_length 0 the force k L vanishes with L: coincident points are a spring at rest.
  CHECK(error_of(dir, scene("name = \"lift\"\nbody_i = \"box\"\nbody_j = \"ground\"\npoint_i = [1, 2.1, 3]\n"
                            "point_j = [1, 2.1, 3]\nstiffness = 100\nfree_length = 0\n")) == "no error");
  CHECK(error_of(dir, scene(with("point_i", "[1, 2]"))) == "scene.toml:13: spring 'lift'.point_i: must be an array of 3 numbers");
  CHECK(error_of(dir, scene(kGood + "damping = 3\n")) == "scene.toml:17: spring 'lift': unknown key 'damping'");
  CHECK(error_of(dir, scene("name = \"lift\"\nbody_i = \"box\"\nbody_j = \"ground\"\npoint_i = [0, 0, 0]\n")) ==
        "scene.toml:9: spring 'lift'.point_j: missing");
}

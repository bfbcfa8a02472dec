// The surface_contact joint's keys (docs/scenario.md): what a good file gives the model, a sphere
// given as surface_j swapped to i, and each bad value refused with the file, line and field named;
// a joint whose surfaces are apart at t = 0 refused by make_simulation with the gap.
#include <doctest/doctest.h>

#include <string>

#include "../support/scenario_text.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/scenario/scenario.hpp"

using namespace surfdb;
using surfdb::test::error_of;
using surfdb::test::TempDir;

namespace {

// A ball of radius 0.01 m resting at the bottom of a cavity of radius 0.05 m (centre at the origin),
// then `joint` and `extra` as given.
std::string scene(const std::string& joint, double ball_z = -0.04, const std::string& extra = "") {
  return "[simulation]\nend_time = 0.1\n"
         "[[body]]\nname = \"ball\"\nmass = 0.1\ninertia = [1e-5, 1e-5, 1e-5]\nposition = [0, 0, " +
         std::to_string(ball_z) +
         "]\n"
         "[[surface]]\nname = \"ball\"\nbody = \"ball\"\nsphere_radius = 0.01\n"
         "[[surface]]\nname = \"cup\"\nbody = \"ground\"\ncavity_radius = 0.05\n"
         "[[contact]]\nname = \"soft\"\nsurface_i = \"ball\"\nsurface_j = \"cup\"\nstiffness = 1e8\n" +
         extra + "[[joint]]\nname = \"slide\"\ntype = \"surface_contact\"\n" + joint;
}

}  // namespace

TEST_CASE("surface_contact joint: keys as the file means them") {
  const TempDir dir;
  const Scenario s = test::load_text(
      dir, scene("surface_i = \"cup\"\nsurface_j = \"ball\"\nsearch_interval = 0.002\ninitial_gap_tolerance = 1e-5\n"
                 "release_to = \"soft\"\n"));
  REQUIRE(s.model.surface_joints.size() == 1);
  const SurfaceJointSpec& j = s.model.surface_joints[0];
  CHECK(j.name == "slide");
  CHECK(j.surface_i == 0);  // the sphere, given as surface_j, is surface i
  CHECK(j.surface_j == 1);
  CHECK(j.body_i == 0);
  CHECK(j.body_j == kGround);
  CHECK(j.search_interval == 0.002);
  CHECK(j.initial_gap_tolerance == 1e-5);
  CHECK(j.release_to == 0);
  CHECK(s.model.constraint_count() == 1);
  const Scenario d = test::load_text(dir, scene("surface_i = \"ball\"\nsurface_j = \"cup\"\n"));
  CHECK(d.model.surface_joints[0].search_interval == SurfaceJointSpec{}.search_interval);
  CHECK(d.model.surface_joints[0].release_to == -1);
  CHECK(d.model.surface_joints[0].formulation == SurfaceJointFormulation::sliding_plane);
  const Scenario p = test::load_text(dir, scene("surface_i = \"ball\"\nsurface_j = \"cup\"\nformulation = \"sliding_plane\"\n"));
  CHECK(p.model.surface_joints[0].formulation == SurfaceJointFormulation::sliding_plane);
}

TEST_CASE("surface_contact joint: bad keys are refused with the field named") {
  const TempDir dir;
  const std::string ok = "surface_i = \"ball\"\nsurface_j = \"cup\"\n";
  CHECK(error_of(dir, scene("surface_i = \"ball\"\nsurface_j = \"bowl\"\n")).find("joint 'slide'.surface_j: no surface named 'bowl'") !=
        std::string::npos);
  CHECK(error_of(dir, scene(ok + "body_i = \"ball\"\n")).find("joint 'slide'.body_i: a surface_contact joint takes no body_i") !=
        std::string::npos);
  CHECK(error_of(dir, scene(ok + "release_to = \"hard\"\n")).find("joint 'slide'.release_to: no contact named 'hard'") !=
        std::string::npos);
  CHECK(error_of(dir, scene(ok + "search_interval = 0\n")).find("joint 'slide'.search_interval") != std::string::npos);
  CHECK(error_of(dir, scene("surface_i = \"ball\"\nsurface_j = \"ball\"\n")).find("both surfaces are on the same body") !=
        std::string::npos);
  // The five equations make two tables' surface parameters states: a sphere has none.
  const std::string five = error_of(dir, scene(ok + "formulation = \"five_equations\"\n"));
  CHECK(five.find("joint 'slide'.formulation: five_equations makes the surface parameters of two tables") != std::string::npos);
  CHECK(five.find("'ball' is not a table: use formulation = \"sliding_plane\"") != std::string::npos);
  CHECK(error_of(dir, scene(ok + "formulation = \"five\"\n")).find("joint 'slide'.formulation: unknown formulation 'five' (sliding_plane, five_equations)") !=
        std::string::npos);
  // The surface keys belong to surface_contact joints only.
  const std::string revolute =
      "[[joint]]\nname = \"hinge\"\ntype = \"revolute\"\nbody_i = \"ball\"\nbody_j = \"ground\"\npoint = [0, 0, -0.04]\n"
      "surface_i = \"ball\"\n";
  CHECK(error_of(dir, scene(ok, -0.04, revolute)).find("joint 'hinge'.surface_i: only a surface_contact joint takes it") !=
        std::string::npos);
  // A box has edges: no tangent plane everywhere.
  const std::string box = "[[surface]]\nname = \"box\"\nbody = \"ground\"\nbox_size = [1, 1, 1]\norigin = [0, 0, -0.55]\n";
  CHECK(error_of(dir, scene("surface_i = \"ball\"\nsurface_j = \"box\"\n", -0.04, box)).find("a surface_contact joint takes two tables") !=
        std::string::npos);
}

TEST_CASE("surface_contact joint: surfaces apart at t = 0 are refused with the gap and where to put the body") {
  const TempDir dir;
  Scenario s = test::load_text(dir, scene("surface_i = \"ball\"\nsurface_j = \"cup\"\n", -0.035));
  try {
    make_simulation(s);
    FAIL("no error");
  } catch (const ScenarioError& e) {
    const std::string m = e.what();
    CHECK(m.find("surface joint 'slide': its surfaces 'ball' and 'cup' are apart by 0.005 m") != std::string::npos);
    CHECK(m.find("place body 'ball' at [0, 0, -0.04]") != std::string::npos);
  }
  Scenario touching = test::load_text(dir, scene("surface_i = \"ball\"\nsurface_j = \"cup\"\n"));
  CHECK(make_simulation(touching)->surface_joints().size() == 1);
}

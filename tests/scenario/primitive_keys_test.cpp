// The primitive keys of [[surface]] and the friction keys of [[contact]] (docs/scenario.md): what a
// good file gives the model (sizes as the file means them, in the surface's frame), and each bad
// value refused with the file, line and field named.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "../support/scenario_text.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/scenario/scenario.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

// A ball body above the ground, one [[surface]] for the ball, then `surfaces` and `contact` as given.
std::string scene(const std::string& surfaces, const std::string& contact) {
  return "[simulation]\nend_time = 0.1\n"
         "[[body]]\nname = \"ball\"\nmass = 0.1\ninertia = [1e-5, 1e-5, 1e-5]\nposition = [0, 0, 0.5]\n"
         "[[surface]]\nname = \"ball\"\nbody = \"ball\"\nsphere_radius = 0.01\n" +
         surfaces + "[[contact]]\nname = \"c\"\nsurface_i = \"ball\"\nsurface_j = \"shape\"\nstiffness = 1e8\n" + contact;
}

Scenario load(const TempDir& dir, const std::string& text) { return test::load_text(dir, text); }
using test::error_of;

const std::string kBox = "[[surface]]\nname = \"shape\"\nbody = \"ground\"\n";

}  // namespace

TEST_CASE("primitive surfaces: sizes and frames as the file means them") {
  const TempDir dir;
  const Scenario s = load(dir, scene(kBox + "origin = [1, 2, 3]\nrotation = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]\n"
                                            "box_size = [0.2, 0.4, 0.6]\n",
                                     "friction = 0.3\nfriction_model = \"ambrosio\"\nfriction_velocities = [0.01, 0.02]\n"));
  const ContactSurface& box = s.surfaces[1];
  CHECK(box.kind == ContactSurface::Kind::box);
  CHECK(box.half_extents.isApprox(Eigen::Vector3d(0.1, 0.2, 0.3)));  // full edges in the file
  CHECK(box.mount.offset.isApprox(Eigen::Vector3d(1, 2, 3)));
  CHECK(box.mount.rotation.col(0).isApprox(Eigen::Vector3d(0, 1, 0)));  // rows are the matrix's rows
  const auto* friction = std::get_if<CoulombAmbrosio>(&s.contacts[0].friction);
  REQUIRE(friction);
  CHECK(friction->friction_coefficient == 0.3);
  CHECK(friction->velocity_0 == 0.01);
  CHECK(friction->velocity_1 == 0.02);

  const Scenario c = load(dir, scene(kBox + "cylinder_radius = 0.05\ncylinder_length = 0.3\ncylinder_cavity = true\n", ""));
  CHECK(c.surfaces[1].kind == ContactSurface::Kind::cylinder_cavity);
  CHECK(c.surfaces[1].radius == 0.05);
  CHECK(c.surfaces[1].length == 0.3);
  CHECK(std::holds_alternative<NoFriction>(c.contacts[0].friction));
  const Scenario rod = load(dir, scene(kBox + "cylinder_radius = 0.05\ncylinder_length = 0.3\n", "friction = 0.2\n"));
  CHECK(rod.surfaces[1].kind == ContactSurface::Kind::cylinder);
  CHECK(std::holds_alternative<CoulombRegularised>(rod.contacts[0].friction));
}

// The pair of the scene's only contact detected with the ball's centre at `centre`, slot `slot`.
ContactResult detect_at(const Scenario& scenario, const Eigen::Vector3d& centre, std::size_t slot = 0) {
  const ContactGroupSpec& contact = scenario.contacts[0];
  ContactPair pair(pair_spec(contact, scenario.surfaces, scenario.model, contact.surfaces_i[0], contact.surfaces_j[0]));
  BodyState ball;
  ball.pose.r = centre;
  return pair.detect(ball, BodyState{})[slot];
}

TEST_CASE("primitives placed by origin and rotation are detected where the file puts them") {
  // catches: a cylinder's axis not turned by `rotation`, a closed cylinder's base put at its centre
  // less its whole length, box_size read as half extents, a box's rotation left out.
  const TempDir dir;
  const Scenario can = load(dir, scene(kBox + "origin = [1, 0, 0]\nrotation = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]\n"
                                            "cylinder_radius = 0.05\ncylinder_length = 0.2\ncylinder_cavity = true\n", ""));
  const ContactResult lid = detect_at(can, {1.095, 0, 0}, kTop);  // the lid at x = 1.1
  CHECK(lid.in_contact());
  CHECK(lid.indentation == doctest::Approx(0.005).epsilon(1e-9).scale(0));
  CHECK(lid.normal.isApprox(-Eigen::Vector3d::UnitX()));
  const Scenario box = load(dir, scene(kBox + "origin = [0, 0, 1]\nrotation = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]\n"
                                            "box_size = [0.2, 0.1, 0.05]\n", ""));
  const ContactResult side = detect_at(box, {0, 0.109, 1});  // its long side turned onto world y: face at y = 0.1
  CHECK(side.indentation == doctest::Approx(0.001).epsilon(1e-9).scale(0));
  CHECK(side.normal.isApprox(Eigen::Vector3d::UnitY()));
  const Scenario rod = load(dir, scene(kBox + "origin = [0, 0, 2]\nrotation = [[1, 0, 0], [0, 0, 1], [0, -1, 0]]\n"
                                            "cylinder_radius = 0.02\ncylinder_length = 0.1\n", ""));
  const ContactResult end = detect_at(rod, {0, 0.059, 2});  // its axis along world y: an end at y = 0.05
  CHECK(end.indentation == doctest::Approx(0.001).epsilon(1e-9).scale(0));
  CHECK(end.normal.isApprox(Eigen::Vector3d::UnitY()));
  const ContactResult crest = detect_at(rod, {0, 0, 2.029});
  CHECK(crest.indentation == doctest::Approx(0.001).epsilon(1e-9).scale(0));
  CHECK(crest.normal.isApprox(Eigen::Vector3d::UnitZ()));
}

TEST_CASE("bad primitive and friction values name the file, the line and the field") {
  const TempDir dir;
  CHECK(error_of(dir, scene(kBox + "sphere_radius = -0.01\n", "")) ==
        "scene.toml:15: surface 'shape'.sphere_radius: must be positive");
  CHECK(error_of(dir, scene(kBox + "box_size = [0.1, 0, 0.1]\n", "")) ==
        "scene.toml:15: surface 'shape'.box_size: must be three positive edge lengths, m");
  CHECK(error_of(dir, scene(kBox + "cylinder_radius = 0.05\n", "")) ==
        "scene.toml:12: surface 'shape'.cylinder_length: missing");
  CHECK(error_of(dir, scene(kBox + "cylinder_radius = 0.05\ncylinder_length = 0.1\ncylinder_cavity = 1\n", "")) ==
        "scene.toml:17: surface 'shape'.cylinder_cavity: must be true or false");
  CHECK(error_of(dir, scene(kBox + "box_size = [1, 1, 1]\ncylinder_length = 0.1\n", "")) ==
        "scene.toml:16: surface 'shape'.cylinder_length: applies to a cylinder (cylinder_radius) only");
  CHECK(error_of(dir, scene(kBox + "box_size = [1, 1, 1]\nsphere_radius = 0.1\n", "")) ==
        "scene.toml:12: surface 'shape': give exactly one of table, mesh, sphere_radius, cavity_radius, plane_normal, "
        "box_size, cylinder_radius");
  // A ball inside a cavity too small for it, at t = 0.
  CHECK(error_of(dir, scene(kBox + "origin = [0, 0, 0.5]\ncavity_radius = 0.009\n", "")).starts_with(
      "scene.toml:17: contact 'c': the ball 'ball' starts inside 'shape', which is too small to hold it"));
  CHECK(error_of(dir, scene(kBox + "origin = [0, 0, 0.5]\ncylinder_radius = 0.05\ncylinder_length = 0.015\n"
                                   "cylinder_cavity = true\n", "")).starts_with(
      "scene.toml:19: contact 'c': the ball 'ball' starts inside 'shape', which is too small"));
  const std::string plane = kBox + "plane_normal = [0, 0, 1]\n";
  CHECK(error_of(dir, scene(plane, "friction = 0.2\nfriction_model = \"stribeck\"\n")) ==
        "scene.toml:22: contact 'c'.friction_model: unknown friction model 'stribeck' (coulomb, ambrosio)");
  CHECK(error_of(dir, scene(plane, "friction = 0.2\nfriction_model = \"ambrosio\"\nfriction_velocities = [0.02, 0.01]\n")) ==
        "scene.toml:23: contact 'c'.friction_velocities: must be [v0, v1] with 0 <= v0 < v1, m/s");
  CHECK(error_of(dir, scene(plane, "friction = 0.2\nfriction_model = \"ambrosio\"\nfriction_velocity = 0.01\n")).starts_with(
      "scene.toml:23: contact 'c'.friction_velocity: belongs to friction_model = \"coulomb\""));
  CHECK(error_of(dir, scene(plane, "friction_model = \"ambrosio\"\n")) ==
        "scene.toml:21: contact 'c'.friction_model: needs friction (mu)");
  CHECK(error_of(dir, scene(plane, "friction = -0.1\n")) == "scene.toml:21: contact 'c'.friction: must not be negative");
  CHECK(error_of(dir, scene(plane, "law = \"hunt_crossley\"\nrestitution = 0.5\nmax_damping_ratio = 0\n")) ==
        "scene.toml:23: contact 'c'.max_damping_ratio: must be positive");
}

// Polygonal contact from scenario files (docs/scenario.md, "Areal contact"): meshes read from .mesh
// files in their unit, the foundation from the contact or from both surfaces' layers, a box that
// settles on a floor at m g / (c A), and each bad input refused with the file, line and field.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "../support/approx.hpp"
#include "../support/meshes.hpp"
#include "../support/scenario_text.hpp"
#include "../support/temp_dir.hpp"
#include "surfdb/formats/mesh_file.hpp"
#include "surfdb/multibody/initial_penetration.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"

using namespace surfdb;
using surfdb::test::relative;
using surfdb::test::TempDir;

namespace {

// A 100 x 60 x 40 mm box of 1 kg and a floor, as .mesh files in millimetres.
void write_meshes(const TempDir& dir) {
  const auto save = [&](const test::MeshArrays& m, const char* name) {
    MeshData data;
    data.length_unit = LengthUnit::millimetre;
    for (const Eigen::Vector3d& v : m.vertices) data.vertices.push_back({1e3 * v.x(), 1e3 * v.y(), 1e3 * v.z()});
    data.triangles = m.triangles;
    data.source_kind = "test";
    write_mesh_file(dir / name, data);
  };
  save(test::box({0.1, 0.06, 0.04}, 4), "box.mesh");
  save(test::square(1.0, 1), "floor.mesh");
}

std::string scene(const std::string& box_keys, const std::string& contact, double bottom = 0) {
  return "[simulation]\nend_time = 0.1\nintegrator = \"bdf\"\ngravity = [0, 0, -9.81]\n"
         "[[body]]\nname = \"box\"\nmass = 1\ninertia = [4e-4, 9.7e-4, 1.1e-3]\nposition = [0, 0, " +
         std::to_string(0.02 + bottom) + "]\n[[surface]]\nname = \"box\"\nbody = \"box\"\n" + box_keys +
         "[[surface]]\nname = \"floor\"\nbody = \"ground\"\nmesh = \"floor.mesh\"\nfoundation_modulus = 3e6\n"
         "layer_thickness = 0.01\n[[contact]]\nname = \"c\"\nsurface_i = \"box\"\nsurface_j = \"floor\"\n"
         "law = \"elastic_foundation\"\n" + contact;
}

Scenario load(const TempDir& dir, const std::string& text) { return test::load_text(dir, text); }
using test::error_of;

double settled_depth(Scenario s) {
  const auto sim = make_simulation(s);
  std::vector<double> y = s.initial_state;
  RunObserver none;
  sim->run(y, s.run, none);
  return -(body_view(y.data(), 0).r().z() - 0.02);
}

const std::string kBoxMesh = "mesh = \"box.mesh\"\n";

// Whether loading `text` fails with `expected` in the message (shown when not).
#define CHECK_REFUSED(text, expected)                          \
  do {                                                         \
    const std::string error = error_of(dir, text);             \
    CHECK_MESSAGE(error.find(expected) != std::string::npos, error); \
  } while (false)

}  // namespace

TEST_CASE("a box mesh in millimetres settles on a floor mesh at m g / (c A), c given or from the layers") {
  const TempDir dir;
  write_meshes(dir);
  const double A = 0.1 * 0.06, weight = 9.81;
  SUBCASE("foundation_stiffness") {
    const Scenario s = load(dir, scene(kBoxMesh, "foundation_stiffness = 1e8\ndamping = 1.5e5\n"));
    const ContactGroupSpec& c = s.contacts[0];
    REQUIRE(c.foundation);
    CHECK(c.foundation->stiffness == 1e8);
    CHECK(s.surfaces[0].mesh->signed_volume() == relative(0.1 * 0.06 * 0.04, 1e-12));  // mm read as mm
    CHECK(settled_depth(s) == relative(weight / (1e8 * A), 1e-3));
  }
  SUBCASE("both layers: c = 1 / (b_i / K_i + b_j / K_j)") {
    const Scenario s = load(dir, scene(kBoxMesh + "foundation_modulus = 1e6\nlayer_thickness = 0.02\n", "damping = 1e5\n"));
    const double c = 1 / (0.02 / 1e6 + 0.01 / 3e6);
    CHECK(settled_depth(s) == relative(weight / (c * A), 1e-3));
  }
}

TEST_CASE("a box placed deep in the floor is refused at t = 0") {
  const TempDir dir;
  write_meshes(dir);
  Scenario s = load(dir, scene(kBoxMesh, "foundation_stiffness = 1e8\n", -1e-3));
  const auto sim = make_simulation(s);
  // 10 m g / (c A) = 0.16 mm; it starts 1 mm deep.
  CHECK_THROWS_WITH_AS(check_initial_penetration(*sim, s.initial_state.data()), doctest::Contains("0.001 m inside"),
                       InitialPenetrationError);
}

TEST_CASE("polygonal contact keys: each bad input refused with the file, line and field") {
  const TempDir dir;
  write_meshes(dir);
  const std::string law = "foundation_stiffness = 1e8\n";
  CHECK_REFUSED(scene("sphere_radius = 0.02\n", law), "'box' is a primitive");
  CHECK_REFUSED(scene(kBoxMesh, ""), "needs foundation_stiffness (N/m^3), or foundation_modulus and "
                                                  "layer_thickness on both surfaces ('box' has none)");
  CHECK_REFUSED(scene(kBoxMesh, law + "restitution = 0.5\n"), "'c'.restitution: does not apply to law");
  CHECK_REFUSED(scene(kBoxMesh, law + "damping = -1\n"), "'c'.damping: must not be negative");
  CHECK_REFUSED(scene(kBoxMesh, law + "friction_velocity = 1e-3\n"), "needs friction");
  CHECK_REFUSED(scene(kBoxMesh + "mesh_stride = 2\n", law), "'box'.mesh_stride: applies to a table only");
  CHECK_REFUSED(scene(kBoxMesh + "window = [3, 3]\n", law), "'box'.window: applies to a table only");
  CHECK_REFUSED(scene("mesh = \"missing.mesh\"\n", law), "'box'.mesh: ");
  // A mesh under a point-contact law, and the foundation's keys under one.
  std::string hertz = scene(kBoxMesh, law);
  hertz.replace(hertz.find("law = \"elastic_foundation\"\n" + law), std::string("law = \"elastic_foundation\"\n" + law).size(),
                "stiffness = 1e8\n");
  CHECK_REFUSED(hertz, "meshes pair under law = \"elastic_foundation\"");
  CHECK_REFUSED(hertz + "damping = 1\n", "'c'.damping: belongs to law = \"elastic_foundation\"");
  // A damaged file: one byte of a vertex changed.
  {
    std::fstream f(dir / "box.mesh", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(600);
    f.put('\x7f');
  }
  CHECK_REFUSED(scene(kBoxMesh, law), "box.mesh");
}

// A contact group never pairs two surfaces whose bodies fixed joints weld together (contact_group.hpp):
// two balls welded where they overlap, as an assembly's bolted parts touch and overlap where the
// CAD system put them, fall onto a floor in one group of every surface and rest there on both,
// each carrying its own weight by Hertz's law; without the rule the group pairs the two balls and
// the run is refused at t = 0.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "../support/scenario_text.hpp"
#include "surfdb/multibody/data.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/scenario/scenario.hpp"

using namespace surfdb;
using surfdb::test::TempDir;

namespace {

constexpr double kRadius = 0.005, kMass = 0.004, kStiffness = 1e8, kG = 9.81;  // m, kg, N/m^1.5, m/s^2

// Balls a and b, their centres 9 mm apart (1 mm inside each other), 1 mm above a floor, with a
// fixed joint between them when `welded`, and a third ball c, not welded, 0.5 mm from b and
// sliding into it at 5 cm/s; one group of every ball with every surface.
std::string scene(bool welded) {
  std::string text =
      "[simulation]\nend_time = 0.2\nintegrator = \"bdf\"\nmax_step = 1e-3\n"
      "[[body]]\nname = \"a\"\nmass = 0.004\ninertia = [1e-8, 1e-8, 1e-8]\nposition = [0, 0, 0.006]\n"
      "[[body]]\nname = \"b\"\nmass = 0.004\ninertia = [1e-8, 1e-8, 1e-8]\nposition = [0.009, 0, 0.006]\n"
      "[[body]]\nname = \"c\"\nmass = 0.004\ninertia = [1e-8, 1e-8, 1e-8]\nposition = [0.0195, 0, 0.006]\n"
      "velocity = [-0.05, 0, 0]\n"
      "[[surface]]\nname = \"ball_a\"\nbody = \"a\"\nsphere_radius = 0.005\n"
      "[[surface]]\nname = \"ball_b\"\nbody = \"b\"\nsphere_radius = 0.005\n"
      "[[surface]]\nname = \"ball_c\"\nbody = \"c\"\nsphere_radius = 0.005\n"
      "[[surface]]\nname = \"floor\"\nbody = \"ground\"\nplane_normal = [0, 0, 1]\n"
      "[[contact]]\nname = \"all\"\nsurface_i = \"ball_*\"\nsurface_j = \"*\"\nlaw = \"hunt_crossley\"\n"
      "stiffness = 1e8\nrestitution = 0.3\n";
  if (welded)
    text += "[[joint]]\nname = \"weld\"\ntype = \"fixed\"\nbody_i = \"a\"\nbody_j = \"b\"\npoint = [0.0045, 0, 0.006]\n";
  return text;
}

std::shared_ptr<const Model> load(const TempDir& dir, bool welded) {
  test::load_text(dir, scene(welded));  // writes scene.toml
  return load_model(dir / "scene.toml");
}

}  // namespace

TEST_CASE("a contact group leaves out pairs of welded bodies and keeps their contacts with the rest") {
  const TempDir dir;
  CHECK_THROWS_AS(Data(load(dir, false)), InitialPenetrationError);  // a and b paired: 1 mm inside each other

  const std::shared_ptr<const Model> model = load(dir, true);
  Data data(model);
  REQUIRE(advance(*model, data, model->run.end_time));
  CHECK(data.statistics().health.status() == RunStatus::ok);
  // Each ball on the floor carries its own weight (the welded pair's two symmetrically):
  // K delta^1.5 = m g, delta = 1.158 um.
  const double delta = std::pow(kMass * kG / kStiffness, 2.0 / 3);
  for (int b = 0; b < 3; ++b) {
    CAPTURE(b);
    CHECK(std::abs(body_view(data.state().data(), b).r().z() - (kRadius - delta)) < 0.01 * delta);
  }
  // c struck b: the welded bodies pair with the others as ever.
  const GroupStatistics& all = data.simulation().contacts()[0].statistics();
  CHECK(all.pairs_touched == 4);  // a, b and c with the floor, c with b
}

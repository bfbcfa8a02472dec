// The tables' grids as meshes: orientation from the stored normals, and the paper's conforming
// case, a ball pressed into a cup of nearly its size, against the foundation's closed form.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "../support/approx.hpp"
#include "../support/ball_and_cup.hpp"
#include "surfdb/contact/mesh_from_tables.hpp"
#include "surfdb/contact/polygonal_contact.hpp"

using namespace surfdb;
using surfdb::test::relative;

TEST_CASE("a sphere table's grid is a mesh facing out of the material") {
  const auto& t = test::ball_and_cup();
  const auto ball = mesh_from_tables(*TableSet::single(t.ball), 8);
  const double R = test::BallAndCup::ball_radius;
  // (999 - 1) / 8 = 124.75: 126 lines each way, 125 x 125 cells, less the poles' collapsed halves.
  CHECK(ball->size() + ball->quality().degenerate_removed == 2 * 125 * 125);
  CHECK(ball->quality().degenerate_removed == 2 * 125);
  CHECK(ball->quality().consistent());
  CHECK(ball->quality().closed());  // the seam and the poles joined
  CHECK(ball->signed_volume() == relative(4.0 / 3 * std::numbers::pi * R * R * R, 2e-3));
  const auto cup = mesh_from_tables(*TableSet::single(t.cup), 8);
  for (std::size_t k = 0; k < cup->size(); k += 97) REQUIRE(cup->normal(k).dot(cup->centroid(k)) < 0);  // towards the centre
  CHECK_THROWS_AS(mesh_from_tables(*TableSet::single(t.ball), 0), std::invalid_argument);
}

TEST_CASE("a ball pressed into a cup of nearly its size carries pi c R* delta^2, R* = R_b R_c / (R_c - R_b)") {
  const auto& t = test::ball_and_cup();
  const auto ball = mesh_from_tables(*TableSet::single(t.ball), 3);
  const auto cup = mesh_from_tables(*TableSet::single(t.cup), 3);
  const double R_b = test::BallAndCup::ball_radius, R_c = test::BallAndCup::cup_radius, delta = 2e-4;
  ElasticFoundation law;
  law.stiffness = 1e12;
  PolygonalContact contact(ball, t.mount, cup, t.mount, law);
  BodyState ball_state, cup_state;
  ball_state.pose.r = {0, 0, -(R_c - R_b + delta)};
  const PolygonalContactResult& r = contact.evaluate(ball_state, cup_state);
  const double R_star = R_b * R_c / (R_c - R_b);
  CHECK(r.force_i.z() == relative(std::numbers::pi * law.stiffness * R_star * delta * delta, 3e-2));
  CHECK(r.patches == 1);
  CHECK(r.area == relative(std::numbers::pi * 2 * R_star * delta, 5e-2));
  MESSAGE("ball in cup from the tables' grids: " << r.elements << " elements, " << r.force_i.z() << " N against "
                                                  << std::numbers::pi * law.stiffness * R_star * delta * delta);
}

// The polygonal contact model against closed forms: a sphere pressed into an elastic foundation,
// a box resting flat and tilted, two patches at once, the trees against brute force, and each
// term of the element law (damping and its ramp, friction and its ramp, no adhesion, the
// balance of forces and torques between the bodies); and no allocation once warm.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <numbers>
#include <set>
#include <utility>

#include <Eigen/Geometry>

#include "../support/counting_allocator.hpp"
#include "../support/approx.hpp"
#include "../support/meshes.hpp"
#include "surfdb/contact/polygonal_contact.hpp"

using namespace surfdb;
using surfdb::test::relative;

namespace {

BodyState at(const Eigen::Vector3d& r, const Eigen::Matrix3d& A = Eigen::Matrix3d::Identity()) {
  BodyState s;
  s.pose.r = r;
  s.pose.A = A;
  return s;
}

ElasticFoundation foundation(double c) {
  ElasticFoundation law;
  law.stiffness = c;
  return law;
}

constexpr double kC = 2e11;  // N/m^3

}  // namespace

TEST_CASE("a sphere pressed into a foundation carries pi c (R delta^2 - delta^3 / 3), a fine plane as master") {
  const double R = 0.05, delta = 1e-3;
  PolygonalContact contact(test::square(0.04, 200).build(), {}, test::icosphere(R, 6).build(), {}, foundation(kC));
  const PolygonalContactResult& r = contact.evaluate(at(Eigen::Vector3d::Zero()), at({0, 0, R - delta}));
  // The foundation's springs are vertical under the plane's elements: the closed form is exact for
  // the sphere, less the icosphere's flattening by its chords (about 0.2 % of the force here).
  const double exact = std::numbers::pi * kC * (R * delta * delta - delta * delta * delta / 3);
  CHECK(r.force_j.z() == relative(exact, 5e-3));
  CHECK(r.force_j.z() < exact);
  CHECK(r.force_i.z() == doctest::Approx(-r.force_j.z()));
  CHECK(r.patches == 1);
  CHECK(r.polygons == 1);
  CHECK(r.max_penetration == relative(delta, 1e-3));
  // The contact area is the disc of radius a = sqrt(2 R delta - delta^2).
  CHECK(r.area == relative(std::numbers::pi * (2 * R * delta - delta * delta), 2e-2));
  MESSAGE("plane master: " << r.elements << " elements, F = " << r.force_j.z() << " N against " << exact);
}

TEST_CASE("the sphere as master converges to pi c R delta^2 as the mesh is refined") {
  const double R = 0.05, delta = 1e-3;
  const double closed_form = std::numbers::pi * kC * R * delta * delta;
  const auto plane = test::square(0.2, 1).build();
  double previous = INFINITY;
  for (int level = 3; level <= 6; ++level) {
    PolygonalContact contact(test::icosphere(R, level).build(), {}, plane, {}, foundation(kC));
    const PolygonalContactResult& r = contact.evaluate(at({0, 0, R - delta}), at(Eigen::Vector3d::Zero()));
    const double error = std::abs(r.force_i.z() / closed_form - 1);
    MESSAGE("icosphere level " << level << ": " << r.elements << " elements, relative error " << error);
    CHECK(r.force_i.z() > 0);  // pushed out of the foundation
    CHECK(error < previous);
    previous = error;
  }
  CHECK(previous < 0.02);
}

TEST_CASE("a box resting flat carries c A delta and no torque, and tilted, the restoring torque of the closed form") {
  const Eigen::Vector3d size(0.1, 0.06, 0.04);
  const double delta = 5e-4, A = size.x() * size.y();
  const auto box = test::box(size, 20).build();
  const auto floor = test::square(1.0, 1).build();
  SUBCASE("flat") {
    PolygonalContact contact(box, {}, floor, {}, foundation(kC));
    const BodyState b = at({0, 0, size.z() / 2 - delta});
    const PolygonalContactResult& r = contact.evaluate(b, at(Eigen::Vector3d::Zero()));
    CHECK(r.force_i.z() == relative(kC * A * delta, 1e-9));
    CHECK(r.force_i.head<2>().norm() < 1e-9 * r.force_i.z());
    CHECK(r.torque_i.norm() < 1e-9 * r.force_i.z() * size.x());
    CHECK(r.elements == 2 * 20 * 20);
    CHECK(r.area == relative(A, 1e-12));
    CHECK(r.volume == relative(A * delta, 1e-9));
    CHECK(r.patches == 1);
    CHECK(r.polygons == 1);
    // A stiffer master (c_E = 7/3 c_F) takes 30 % of the penetration: the force acts 0.3 delta
    // above its bottom.
    ElasticFoundation layered = ElasticFoundation::from_layers(7e9, 0.01, 3e9, 0.01);
    CHECK(layered.master_share == doctest::Approx(0.3));
    CHECK(layered.stiffness == relative(1 / (0.01 / 7e9 + 0.01 / 3e9), 1e-12));
    PolygonalContact stiff(box, {}, floor, {}, layered);
    for (const ContactElement& e : (stiff.evaluate(b, at(Eigen::Vector3d::Zero())), stiff.elements()))
      REQUIRE(e.point.z() == doctest::Approx(-0.7 * delta).epsilon(1e-9));
  }
  SUBCASE("tilted about x") {
    const double theta = 0.008;
    const Eigen::Matrix3d A_box = Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitX()).toRotationMatrix();
    const Eigen::Vector3d bottom_centre(0, 0, -delta);
    const BodyState b = at(bottom_centre - A_box * Eigen::Vector3d(0, 0, -size.z() / 2), A_box);
    PolygonalContact contact(box, {}, floor, {}, foundation(kC));
    const PolygonalContactResult& r = contact.evaluate(b, at(Eigen::Vector3d::Zero()));
    // Depth delta - y' sin(theta) along the floor's normal, u = depth / cos(theta) along the box's:
    // |F| = c A delta / cos(theta), and about the bottom's centre M_x = -c tan(theta) a b^3 / 12.
    CHECK(r.force_i.norm() == relative(kC * A * delta / std::cos(theta), 1e-9));
    const Eigen::Vector3d about_bottom = r.torque_i + (b.pose.r - bottom_centre).cross(r.force_i);
    const double closed_form = -kC * std::tan(theta) * size.x() * std::pow(size.y(), 3) / 12;
    CHECK(about_bottom.x() == relative(closed_form, 5e-3));
    // About y only the triangles' centroids, a third of a cell off the squares' centres, leave a
    // moment: a discretisation error of the order (cell / b)^2.
    CHECK(std::abs(about_bottom.y()) < 5e-3 * std::abs(closed_form));
  }
}

TEST_CASE("a slender pin pushed deep into a plate's face carries c A delta however deep") {
  // The plate's face is flat: its box has no depth, and an element's line must look as far as the
  // pin's own box reaches.
  const auto plate = test::square(0.04, 200).build();  // cells of 0.2 mm
  const auto pin = test::box({1.2e-3, 1.2e-3, 0.02}, 1).build();
  PolygonalContact contact(plate, {}, pin, {}, foundation(kC));
  for (const double delta : {0.5e-3, 1.5e-3, 5e-3}) {
    CAPTURE(delta);
    const PolygonalContactResult& r = contact.evaluate(at(Eigen::Vector3d::Zero()), at({0, 0, 0.01 - delta}));
    CHECK(r.elements == 2 * 6 * 6);
    CHECK(r.force_j.z() == relative(kC * 1.44e-6 * delta, 1e-9));
  }
}

TEST_CASE("two spheres on one body make two patches, each carrying what one alone carries") {
  const double R = 0.03, delta = 8e-4;
  const test::MeshArrays ball = test::icosphere(R, 3);
  test::MeshArrays pair;
  pair.append(ball, {-0.1, 0, 0});
  pair.append(ball, {0.1, 0, 0});
  const auto plane = test::square(0.4, 80).build();
  PolygonalContact one(plane, {}, ball.build(), {}, foundation(kC));
  PolygonalContact two(plane, {}, pair.build(), {}, foundation(kC));
  const double f_one = one.evaluate(at(Eigen::Vector3d::Zero()), at({0.1, 0, R - delta})).force_j.z();
  const PolygonalContactResult& r = two.evaluate(at(Eigen::Vector3d::Zero()), at({0, 0, R - delta}));
  CHECK(r.patches == 2);
  CHECK(r.polygons == 2);
  CHECK(r.force_j.z() == relative(2 * f_one, 1e-9));
  CHECK(std::abs(r.torque_j.y()) < 1e-9 * f_one);  // symmetric about the body's centre
}

TEST_CASE("the trees find the elements and forces brute force finds, with far fewer tests") {
  const auto ball = test::icosphere(0.05, 3).build();
  const auto block = test::box({0.2, 0.2, 0.1}, 8).build();
  const Eigen::Matrix3d tilt = Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 0).normalized()).toRotationMatrix();
  const BodyState i = at({0.01, -0.02, 0.05 + 0.05 - 2e-3}, tilt), j = at(Eigen::Vector3d::Zero());
  PolygonalContact tree(ball, {}, block, {}, foundation(kC)), brute(ball, {}, block, {}, foundation(kC));
  const PolygonalContactResult& t = tree.evaluate(i, j);
  const PolygonalContactResult& b = brute.evaluate(i, j, PolygonalContact::Search::brute_force);
  REQUIRE(t.elements > 10);
  CHECK(t.elements == b.elements);
  CHECK(t.segments == b.segments);
  CHECK(t.polygons == b.polygons);
  CHECK(t.force_i.isApprox(b.force_i, 1e-12));
  CHECK(t.torque_i.isApprox(b.torque_i, 1e-12));
  std::set<std::pair<std::uint32_t, std::uint32_t>> from_tree, from_brute;
  for (const ContactElement& e : tree.elements()) from_tree.emplace(e.triangle, e.partner);
  for (const ContactElement& e : brute.elements()) from_brute.emplace(e.triangle, e.partner);
  CHECK(from_tree == from_brute);
  CHECK(b.pair_search.triangle_tests == ball->size() * block->size());
  CHECK(t.pair_search.triangle_tests * 100 < b.pair_search.triangle_tests);
  MESSAGE("brute force: " << b.pair_search.triangle_tests << " triangle tests; tree: " << t.pair_search.box_tests
                          << " box tests, " << t.pair_search.triangle_tests << " triangle tests; " << t.segments
                          << " segments");
}

// A kept answer shows only in time: what a test can see is that its key is right.
TEST_CASE("a result is kept only for the same states and search: another search or body j's state is seen") {
  const auto ball = test::icosphere(0.05, 3).build();
  const auto block = test::box({0.2, 0.2, 0.1}, 8).build();
  const BodyState i = at({0.01, -0.02, 0.05 + 0.05 - 2e-3}), j = at(Eigen::Vector3d::Zero());
  PolygonalContact contact(ball, {}, block, {}, foundation(kC));
  const std::size_t tree_tests = contact.evaluate(i, j).pair_search.triangle_tests;
  REQUIRE(contact.result().elements > 10);
  const double volume = contact.result().volume;
  // catches: the kept answer keyed on the states alone (brute force tests every triangle pair).
  CHECK(contact.evaluate(i, j, PolygonalContact::Search::brute_force).pair_search.triangle_tests ==
        ball->size() * block->size());
  CHECK(contact.evaluate(i, j).pair_search.triangle_tests == tree_tests);
  CHECK(contact.evaluate(i, j).volume == volume);
  // catches: the key comparing body i's state alone. Body j 1 mm lower: the sphere's cap 1 mm
  // shallower, its volume pi u^2 (R - u/3) a quarter of the 2 mm cap's (0.18 on these coarse meshes).
  const double lower = contact.evaluate(i, at({0, 0, -1e-3})).volume;
  CHECK(lower < 0.5 * volume);
  CHECK(lower > 0.1 * volume);
}

TEST_CASE("each element carries c A u + d A u' ramped below u_d, friction against the sliding, never a pull") {
  const double R = 0.05, delta = 1e-3, v = 0.2;
  ElasticFoundation law = foundation(kC);
  law.damping = 3e8;
  law.damping_depth = 4e-4;
  law.friction = 0.3;
  law.friction_velocity = 0.1;
  PolygonalContact contact(test::square(0.04, 60).build(), {}, test::icosphere(R, 5).build(), {}, law);
  BodyState ball = at({0, 0, R - delta});
  SUBCASE("pressing down: damping adds, ramped near the edge of the patch") {
    ball.velocity = {0, 0, -v};
    const PolygonalContactResult& r = contact.evaluate(at(Eigen::Vector3d::Zero()), ball);
    double ramped = 0, shallow = 0;
    for (const ContactElement& e : contact.elements()) {
      CHECK(e.penetration_rate == doctest::Approx(v));
      const double ramp = std::min(1.0, e.penetration / law.damping_depth);
      shallow += ramp < 1;
      CHECK(e.normal_force == relative(kC * e.area * e.penetration + law.damping * e.area * v * ramp, 1e-12));
      ramped += law.damping * e.area * v * ramp;
    }
    CHECK(shallow > 0);
    CHECK(r.force_j.z() == relative(kC * r.volume + ramped, 1e-9));
    CHECK(r.dissipated_power == relative(ramped * v, 1e-9));
  }
  SUBCASE("lifting fast: no element pulls") {
    ball.velocity = {0, 0, 50.0};
    const PolygonalContactResult& r = contact.evaluate(at(Eigen::Vector3d::Zero()), ball);
    for (const ContactElement& e : contact.elements()) CHECK(e.normal_force >= 0);
    CHECK(r.force_j.z() < kC * r.volume);
    CHECK(r.force_j.z() >= 0);
  }
  SUBCASE("sliding along x: friction mu F_n against the ball's motion, less below v_e") {
    for (const double speed : {2.0, 0.05}) {
      ball.velocity = {speed, 0, 0};
      const PolygonalContactResult& r = contact.evaluate(at(Eigen::Vector3d::Zero()), ball);
      const double x = speed / law.friction_velocity, ramp = x >= 1 ? 1 : x * (2 - x);
      CHECK(r.force_j.x() == relative(-law.friction * ramp * r.normal_force, 1e-9));
      CHECK(r.force_i.x() == relative(law.friction * ramp * r.normal_force, 1e-9));
    }
  }
}

TEST_CASE("the forces and torques on the two bodies balance about any point") {
  ElasticFoundation law = foundation(kC);
  law.damping = 1e8;
  law.friction = 0.4;
  law.master_share = 0.3;
  const Eigen::Matrix3d A_i = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, 1, 0).normalized()).toRotationMatrix();
  const Eigen::Matrix3d A_j = Eigen::AngleAxisd(-0.2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  SurfaceMount mount_i{{0.01, 0, 0}, Eigen::AngleAxisd(0.1, Eigen::Vector3d::UnitY()).toRotationMatrix()};
  PolygonalContact contact(test::icosphere(0.05, 4).build(), mount_i, test::box({0.3, 0.3, 0.1}, 10).build(),
                           {{0, 0, 0.02}, Eigen::Matrix3d::Identity()}, law);
  BodyState i = at({0.02, 0.01, 0.02 + 0.05 + 0.05 - 3e-3} , A_i), j = at({0.03, -0.02, 0.0}, A_j);
  i.pose.r -= A_i * mount_i.offset;
  i.velocity = {0.3, -0.1, -0.2};
  i.angular_velocity = {1, 2, 3};
  j.velocity = {-0.1, 0, 0.05};
  j.angular_velocity = {0, -1, 0.5};
  const PolygonalContactResult& r = contact.evaluate(i, j);
  REQUIRE(r.elements > 10);
  CHECK((r.force_i + r.force_j).norm() < 1e-12 * r.force_i.norm());
  // About the world origin: r_i x F_i + M_i + r_j x F_j + M_j = 0.
  const Eigen::Vector3d total = i.pose.r.cross(r.force_i) + r.torque_i + j.pose.r.cross(r.force_j) + r.torque_j;
  CHECK(total.norm() < 1e-12 * r.force_i.norm());
  // Moments about the body's reference point: those of the elements' forces at their points.
  Eigen::Vector3d about_i = Eigen::Vector3d::Zero();
  for (const ContactElement& e : contact.elements())
    about_i += (e.point - i.pose.r).cross(e.normal_force * e.normal + e.friction_force);
  CHECK(about_i.isApprox(r.torque_i, 1e-12));
}

// Counts the allocations made while `counting` is set (tests/support/counting_allocator.cpp).
using surfdb::test::allocations;
using surfdb::test::counting;

TEST_CASE("an evaluation allocates nothing once the buffers have grown to the contact") {
  ElasticFoundation law = foundation(kC);
  law.damping = 1e8;
  law.friction = 0.3;
  PolygonalContact contact(test::square(0.04, 60).build(), {}, test::icosphere(0.05, 4).build(), {}, law);
  BodyState ball = at({0, 0, 0.05 - 1.2e-3});
  ball.velocity = {0.1, 0, -0.1};
  contact.evaluate(at(Eigen::Vector3d::Zero()), ball);  // the deepest: the buffers grow to it
  const std::size_t warm = contact.result().elements;
  allocations = 0;
  counting = true;
  std::size_t elements = 0;
  for (int k = 0; k < 20; ++k) {
    ball.pose.r = {1e-4 * k, -5e-5 * k, 0.05 - 1.2e-3 + 4e-5 * k};
    elements += contact.evaluate(at(Eigen::Vector3d::Zero()), ball).elements;
  }
  counting = false;
  CHECK(elements > 10 * warm / 2);
  CHECK(allocations == 0);
  counting = true;  // and the count works
  ::operator delete(::operator new(16));
  counting = false;
  CHECK(allocations == 1);
}

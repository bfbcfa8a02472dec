// Hertz stiffness from the tables' curvatures (stiffness_from_curvature, the surfaces' Young's
// moduli and Poisson ratios) through the whole loop: the paper's marble ball (R1 10 mm, a 999 x 999
// table) placed touching, at rest, in the cup's table (R2 -50 mm, concave) and on a second ball's
// table (R2 10 mm) settles at the static Hertz indentation delta = (m g / K)^(2/3), with
// K = (4/3) E* sqrt(R*), 1/E* = (1 - nu1^2) / E1 + (1 - nu2^2) / E2 and 1/R* = 1/R1 + 1/R2 (closed
// form, Johnson's Contact Mechanics §4.2), to 0.5 %. The indentation is read from the ball's
// position against the spheres' exact geometry, not from the detector.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "../support/approx.hpp"
#include "../support/sliding_ball.hpp"
#include "surfdb/multibody/multibody_state.hpp"
#include "surfdb/multibody/simulation.hpp"

using namespace surfdb;
using surfdb::test::relative;

namespace {

using test::kBallMass, test::kGravity, test::kBallRadius, test::kCupRadius;

// A stiff polymer's: the static indentations are some 5 to 8 um, well above the tables' error.
constexpr Material kMaterial{1e8, 0.3};

double hertz_indentation(double effective_radius) {
  const double e_star = 1 / (2 * (1 - kMaterial.poisson_ratio * kMaterial.poisson_ratio) / kMaterial.youngs_modulus);
  const double K = 4.0 / 3 * e_star * std::sqrt(effective_radius);
  return std::pow(kBallMass * kGravity / K, 2.0 / 3);
}

struct Settled {
  Eigen::Vector3d centre;  // m, the ball's at the end
  double detected = 0;     // m, the detector's indentation at the end
  double speed = 0;        // m/s
};

// The ball (body 0) placed at `start`, at rest, against the ground's surface `other`, run 0.1 s.
Settled settle(ContactSurface other, const Eigen::Vector3d& start) {
  ContactSurface ball = test::table_surface("ball", 0, test::ball_and_cup().ball);
  ball.material = kMaterial;
  other.material = kMaterial;
  ContactGroupSpec contact{.name = "ball-other", .surfaces_i = {0}, .surfaces_j = {1}};
  contact.law = HuntCrossley{1, 1.5, 0.3};  // its stiffness replaced at every point
  contact.stiffness_from_curvature = true;
  Simulation sim(test::ball_model(), {ball, other}, {contact});
  std::vector<double> y(kBodyStateSize);
  set_body_state(y.data(), 0, start, Eigen::Quaterniond::Identity(), Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  RunObserver none;
  sim.run(y, {.end_time = 0.1}, none);
  const ContactPair& pair = *sim.contacts()[0].single();
  return {body_view(y.data(), 0).r(), pair.state().last.indentation, body_view(y.data(), 0).v().norm()};
}

}  // namespace

TEST_CASE("stiffness from curvature: a ball in a concave cup settles at the Hertz indentation of 1/R* = 1/R1 - 1/|R2|") {
  // catches: the curvatures subtracted (R* 8.3 mm, 13 % shallower), a concave curvature taken as
  // convex (R* 8.3 mm), the mean curvature halved or the radius used for R*.
  const double R_star = 1 / (1 / kBallRadius - 1 / kCupRadius);  // 12.5 mm
  const double expected = hertz_indentation(R_star);
  // The cup's centre at the origin, its bottom at z = -50 mm (ball_and_cup.hpp's mount).
  const Settled s = settle(test::table_surface("cup", kGround, test::ball_and_cup().cup),
                           {0, 0, -(kCupRadius - kBallRadius)});
  const double measured = s.centre.norm() - (kCupRadius - kBallRadius);
  MESSAGE("in the cup: indentation " << measured << " m (detector " << s.detected << ") against Hertz " << expected
                                     << " (relative " << (measured - expected) / expected << ")");
  CHECK(measured == relative(expected, 5e-3));
  CHECK(s.detected == relative(expected, 5e-3));
  CHECK(s.speed < 1e-4);
}

TEST_CASE("stiffness from curvature: a ball on top of a ball settles at the Hertz indentation of 1/R* = 1/R1 + 1/R2") {
  const double R_star = 1 / (2 / kBallRadius);  // 5 mm
  const double expected = hertz_indentation(R_star);
  // The lower ball's centre at the origin, its table turned so that its (u, v) = (0, 0) is on top.
  ContactSurface lower = test::table_surface("lower", kGround, test::ball_and_cup().ball);
  lower.mount.rotation << 0, 0, -1, 0, 1, 0, 1, 0, 0;
  const Settled s = settle(lower, {0, 0, 2 * kBallRadius});
  const double measured = 2 * kBallRadius - s.centre.norm();
  MESSAGE("on the ball: indentation " << measured << " m (detector " << s.detected << ") against Hertz " << expected
                                      << " (relative " << (measured - expected) / expected << "); centre " << s.centre.transpose());
  CHECK(measured == relative(expected, 5e-3));
  CHECK(s.detected == relative(expected, 5e-3));
  CHECK(s.speed < 1e-4);
}

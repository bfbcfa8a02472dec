// Parts that meet along a line or over a flat, both converted here as surface sets with their
// edges (contact_edge_face.hpp), simulated from scenario files against closed forms: a rod lying
// on a plate rests on its two end rims, a rod longer than the plate on the plate's two edges, a
// block on its four bottom edges, each at the depth at which the edges' loads carry the weight;
// a rod dropped without damping keeps its energy; none passes through or turns; a block whose
// centre of mass is off its middle tilts until the edges' loads balance its weight's moment. A ball's table
// slides off the plate's edge at the angle energy gives; a block tilted onto an edge returns or
// falls over as its centre lies inside or beyond the edge. A rod spun about its axis and set down
// rolls off at a third of its spin's surface speed.
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <fstream>
#include <numbers>

#include "set_scene.hpp"

using namespace surfdb;
using namespace surfdb::test;

namespace {

[[maybe_unused]] const bool quiet = (Message::DefaultMessenger()->ChangePrinters().Clear(), true);

constexpr double g = 9.81, pi = std::numbers::pi, density = 7850, stiffness = 1e9;  // K, N/m^1.5
// B(1/2, n + 1/2) for Hertz's n = 3/2: Gamma(1/2) Gamma(2) / Gamma(5/2) = 4/3.
constexpr double beta = 4.0 / 3;

struct Part {
  std::filesystem::path set;
  double mass;               // kg
  Eigen::Vector3d inertia;   // kg m^2, principal, body axes
};

Part rod(const TempDir& dir, double length_mm) {
  const double r = samples::kRodRadius * 1e-3, l = length_mm * 1e-3, m = density * pi * r * r * l;
  return {convert_part(dir, samples::rod(length_mm), "rod"), m,
          {m * r * r / 2, m * (3 * r * r + l * l) / 12, m * (3 * r * r + l * l) / 12}};
}

Part block(const TempDir& dir) {
  const double x = samples::kBlockX * 1e-3, y = samples::kBlockY * 1e-3, z = samples::kBlockZ * 1e-3;
  const double m = density * x * y * z;
  return {convert_part(dir, samples::block(), "block"), m, {m * (y * y + z * z) / 12, m * (x * x + z * z) / 12,
                                                        m * (x * x + y * y) / 12}};
}

struct Drop {
  Eigen::Vector3d position;
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  double end_time = 0.02;
  std::string law = "law = \"hunt_crossley\"\nrestitution = 0.2\n";
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  double stiffness = ::stiffness;
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  // rad/s, world axes
  Eigen::Vector3d part_origin = Eigen::Vector3d::Zero();       // m, the part's set in its body
};

std::filesystem::path write_scenario(const TempDir& dir, const std::filesystem::path& plate, const Part& part,
                                     const Drop& d) {
  const std::filesystem::path path = dir / "scene.toml";
  std::ofstream f(path);
  f.precision(17);
  const Eigen::Quaterniond& q = d.orientation;
  f << "[simulation]\nend_time = " << d.end_time << "\nmax_step = 1e-4\nintegrator = \"bdf\"\n"
    << "[[surface]]\nname = \"plate\"\nbody = \"ground\"\ntable = \"" << plate.string() << "\"\n"
    << "[[body]]\nname = \"part\"\nmass = " << part.mass << "\ninertia = [" << part.inertia.x() << ", "
    << part.inertia.y() << ", " << part.inertia.z() << "]\nposition = [" << d.position.x() << ", "
    << d.position.y() << ", " << d.position.z() << "]\norientation = [" << q.w() << ", " << q.x() << ", " << q.y()
    << ", " << q.z() << "]\nvelocity = [" << d.velocity.x() << ", " << d.velocity.y() << ", " << d.velocity.z() << "]\n"
    << "angular_velocity = [" << d.angular_velocity.x() << ", " << d.angular_velocity.y() << ", "
    << d.angular_velocity.z() << "]\n"
    << "[[surface]]\nname = \"part\"\nbody = \"part\"\ntable = \"" << part.set.string() << "\"\n"
    << "origin = [" << d.part_origin.x() << ", " << d.part_origin.y() << ", " << d.part_origin.z() << "]\n"
    << "[[contact]]\nname = \"c\"\nsurface_i = \"part\"\nsurface_j = \"plate\"\nstiffness = " << d.stiffness << "\n"
    << d.law;
  return path;
}

// The part came to rest at height z - delta (m, delta its indentation) on `points` contacts
// carrying its weight, level, with no energy gained.
void check_rest(const std::vector<SceneSample>& run, const Part& part, double z, double delta, int points,
                const Eigen::Quaterniond& orientation) {
  const SceneSample& end = run.back();
  CHECK(end.force == doctest::Approx(part.mass * g).epsilon(1e-3));
  CHECK(end.points == points);
  CHECK(std::abs(end.centre.z() - (z - delta)) < 0.01 * delta);
  CHECK(end.orientation.angularDistance(orientation) < 1e-5);
  double gain = -INFINITY;
  for (const SceneSample& s : run) gain = std::max(gain, s.energy - run.front().energy);
  CHECK(gain <= 1e-9 * part.mass * g);  // m, of the 2 um it fell
}

}  // namespace

TEST_CASE("a rod lying on a plate rests on its two end rims, each a point of the law: K delta^n = m g / 2") {
  // catches: an edge's load spread with the wrong length scale, a face pair of the line contact
  // left to the common-normal solve (it fails at every step), the edge's normal flipped.
  TempDir dir;
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate");
  const Part part = rod(dir, 30);
  const double r = samples::kRodRadius * 1e-3, delta = std::pow(part.mass * g / (2 * stiffness), 2.0 / 3);
  // Along y, beside the hole: the rims at y = -15 and 15 mm on the top face.
  const Eigen::Quaterniond along_y(Eigen::AngleAxisd(pi / 2, Eigen::Vector3d::UnitZ()));
  const Drop d{{0.018, 0, r - delta + 2e-6}, along_y};
  RunStatistics stats;
  const std::vector<SceneSample> run = simulate_scene(write_scenario(dir, plate, part, d), stats);
  check_rest(run, part, r, delta, 2, along_y);
  CHECK(stats.health.status() == RunStatus::ok);
}

TEST_CASE("a rod longer than the plate rests on the plate's two edges, each a point of the law: K delta^n = m g / 2") {
  // Under the rod the depth along the plate's straight top edges x = -30 and 30 mm falls as
  // delta - s^2 / 2R, R the rod's radius: the edge's load is the point law's.
  // catches: the edge's length scale taken from the edge (rho = 20 mm: delta 1.6 times deeper)
  // rather than from the curvatures.
  TempDir dir;
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate");
  const Part part = rod(dir, 80);
  const double r = samples::kRodRadius * 1e-3;
  const double delta = std::pow(part.mass * g / (2 * stiffness), 2.0 / 3);
  const Drop d{{0, 0.01, r - delta + 2e-6}};
  RunStatistics stats;
  const std::vector<SceneSample> run = simulate_scene(write_scenario(dir, plate, part, d), stats);
  check_rest(run, part, r, delta, 2, Eigen::Quaterniond::Identity());
  CHECK(run.back().centre.x() == doctest::Approx(0).scale(1e-6));
  CHECK(stats.health.status() == RunStatus::ok);
}

TEST_CASE("a block standing on a plate rests on its four bottom edges: K delta sum(sqrt L) / B = m g") {
  // Each straight edge of length L at uniform depth delta carries K sqrt(L) delta^(n - 1/2) / B.
  TempDir dir;
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate");
  const Part part = block(dir);
  const double sum = 2 * std::sqrt(samples::kBlockX * 1e-3) + 2 * std::sqrt(samples::kBlockY * 1e-3);
  const double delta = part.mass * g * beta / (stiffness * sum), half = samples::kBlockZ * 1e-3 / 2;
  const Drop d{{0.017, 0, half - delta + 2e-6}};
  RunStatistics stats;
  const std::vector<SceneSample> run = simulate_scene(write_scenario(dir, plate, part, d), stats);
  check_rest(run, part, half, delta, 4, Eigen::Quaterniond::Identity());
  CHECK(stats.health.status() == RunStatus::ok);
}

TEST_CASE("a rod tilted along its length comes down on its low rim, then on the other, and rests level") {
  // Tilted 1 mrad about x, the rod's rims are 30 um apart in height: the low one lands first and
  // carries the rod alone while it turns down onto the other; then both carry it level.
  // catches: a rim that passes through while the other holds (no contact on one end), a rod left
  // resting tilted on one rim and the plate's face.
  TempDir dir;
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate");
  const Part part = rod(dir, 30);
  const double r = samples::kRodRadius * 1e-3, delta = std::pow(part.mass * g / (2 * stiffness), 2.0 / 3);
  const double tilt = 1e-3, rise = 0.015 * tilt;  // rad; m, the high rim's centre above the rod's
  const Eigen::Quaterniond along_y(Eigen::AngleAxisd(pi / 2, Eigen::Vector3d::UnitZ()));
  const Eigen::Quaterniond tilted = Eigen::Quaterniond(Eigen::AngleAxisd(tilt, Eigen::Vector3d::UnitX())) * along_y;
  Drop d{{0.018, 0, r + rise + 2e-6}, tilted, 0.03};
  RunStatistics stats;
  const std::vector<SceneSample> run = simulate_scene(write_scenario(dir, plate, part, d), stats);
  std::size_t first_one = run.size(), first_two = run.size();
  for (std::size_t k = 0; k < run.size(); ++k) {
    if (run[k].points == 1 && first_one == run.size()) first_one = k;
    if (run[k].points == 2 && first_two == run.size()) first_two = k;
  }
  REQUIRE(first_one < run.size());
  REQUIRE(first_two < run.size());
  MESSAGE("one rim from t = " << run[first_one].t << " s, both from t = " << run[first_two].t << " s");
  CHECK(first_one < first_two);
  CHECK(run[first_two].t - run[first_one].t > 1e-3);  // s: the turn onto the other rim takes time
  check_rest(run, part, r, delta, 2, along_y);
  CHECK(stats.health.status() == RunStatus::ok);
}

TEST_CASE("a block whose centre of mass is off its middle rests tilted so that its edges' loads balance the moment") {
  // The centre of mass e = 3 mm along x from the block's middle (a load inside it, off centre).
  // At the edges' loads per length k' delta (n = 3/2), k' = K / (sqrt(L) B) on an edge of length L
  // lying flat, the block sinks delta0 + theta x (x from its middle) with
  //   2 k_x X delta0 + 2 k_y Y delta0 = m g  and  theta (k_x X^3 / 6 + k_y Y X^2 / 2) = m g e,
  // the long edges' moment and the short edges' at x = +-X/2: theta = 1.26e-8 rad.
  // catches: an edge's resultant applied at its middle rather than its load's centroid (no moment
  // from the long edges: theta 1.5 times the closed form), loads not linear in the depth.
  TempDir dir;
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate");
  const Part part = block(dir);
  const double X = samples::kBlockX * 1e-3, Y = samples::kBlockY * 1e-3, half = samples::kBlockZ * 1e-3 / 2, e = 0.003;
  const double kx = stiffness / (std::sqrt(X) * beta), ky = stiffness / (std::sqrt(Y) * beta);
  const double delta0 = part.mass * g / (2 * kx * X + 2 * ky * Y);
  const double theta = part.mass * g * e / (kx * X * X * X / 6 + ky * Y * X * X / 2);
  Drop d{{0.017 + e, 0, half - delta0 + 2e-6}};
  d.part_origin = {-e, 0, 0};
  RunStatistics stats;
  const std::vector<SceneSample> run = simulate_scene(write_scenario(dir, plate, part, d), stats);
  const SceneSample& end = run.back();
  CHECK(end.force == doctest::Approx(part.mass * g).epsilon(1e-3));
  CHECK(end.points == 4);
  const Eigen::AngleAxisd turn(end.orientation);
  const double about_y = turn.angle() * turn.axis().y();  // +x sinks for a turn about +y
  MESSAGE("tilt " << about_y << " rad, closed form " << theta << "; middle sunk " << half - (end.centre.z() + e * about_y)
                   << " m, closed form " << delta0);
  CHECK(about_y == doctest::Approx(theta).epsilon(0.02));
  CHECK(std::abs(turn.angle() * turn.axis().x()) < 1e-3 * theta);
  // The block's middle, e behind the centre of mass along the tilted x axis, at half - delta0.
  CHECK(std::abs(end.centre.z() + e * about_y - (half - delta0)) < 1e-3 * delta0);
  CHECK(stats.health.status() == RunStatus::ok);
}

TEST_CASE("a rod dropped on a plate without damping bounces back with its energy: E = E0 on the edges' loads") {
  // catches: the spread load's elastic energy taken as the resultant point's (energy_indentation).
  TempDir dir;
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate");
  const Part part = rod(dir, 30);
  const double r = samples::kRodRadius * 1e-3;
  const Eigen::Quaterniond along_y(Eigen::AngleAxisd(pi / 2, Eigen::Vector3d::UnitZ()));
  Drop d{{0.018, 0, r + 1e-4}, along_y, 0.012, "law = \"hertz\"\n"};
  RunStatistics stats;
  const std::vector<SceneSample> run = simulate_scene(write_scenario(dir, plate, part, d), stats);
  double drift = 0, lowest = INFINITY;
  for (const SceneSample& s : run) drift = std::max(drift, std::abs(s.energy - run.front().energy)), lowest = std::min(lowest, s.centre.z());
  const double fall = 1e-4, delta_max = std::pow(part.mass * g * fall * 2.5 / (2 * stiffness), 0.4);  // m g h = 2 K delta^2.5 / 2.5
  CHECK(drift < 1e-6 * part.mass * g * fall);
  CHECK(r - lowest == doctest::Approx(delta_max).epsilon(0.01));
  CHECK(run.back().centre.z() > r);  // it bounced back up
  CHECK(stats.health.status() == RunStatus::ok);
}

TEST_CASE("a ball's table sliding off a plate's edge leaves it at cos theta = (2 + v0^2 / gR) / 3, as a sphere does") {
  // Table against table: the ball's face on the plate's top, then the plate's edge against the
  // ball's face, its load the point law where the ball crosses it (1 / rho = 1 / R).
  // catches: the edge's load normalised by the edge's length (a jump in force where the contact
  // passes from the face to the edge), the edge's normal taken from the edge, not the ball.
  TempDir dir;
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate");
  const double r = 0.005, m = density * 4.0 / 3 * pi * r * r * r, v0 = 0.14;
  const Part ball{convert_part(dir, samples::ball(5), "ball", 0.25), m, Eigen::Vector3d::Constant(0.4 * m * r * r)};
  const double delta = std::pow(m * g / stiffness, 2.0 / 3), edge = samples::kPlateHalfLength * 1e-3;
  Drop d{{edge - 0.005, 0, r - delta}, Eigen::Quaterniond::Identity(), 0.07, "law = \"hunt_crossley\"\nrestitution = 0.5\n",
         {v0, 0, 0}};
  RunStatistics stats;
  const std::vector<SceneSample> run = simulate_scene(write_scenario(dir, plate, ball, d), stats);
  double theta = NAN, most = 0, gain = -INFINITY;
  for (std::size_t k = run.size() - 1; k > 0 && std::isnan(theta); --k)
    if (run[k - 1].force > 0) theta = std::atan2(run[k - 1].centre.x() - edge, run[k - 1].centre.z());
  for (const SceneSample& s : run) {
    if (s.centre.x() > edge) most = std::max(most, s.force);
    gain = std::max(gain, s.energy - run.front().energy);
  }
  MESSAGE("theta " << theta << " most " << most / (m * g) << " gain " << gain / (m * g * r) << " samples " << run.size() << " end x " << run.back().centre.x() << " z " << run.back().centre.z());
  CHECK(theta == doctest::Approx(std::acos((2 + v0 * v0 / (g * r)) / 3)).epsilon(0.01));
  CHECK(most <= 1.02 * m * g);
  CHECK(gain <= 1e-6 * m * g * r);
  CHECK(stats.health.status() == RunStatus::ok);
}

TEST_CASE("a block tilted onto a bottom edge returns below atan(w / h) and falls over beyond it") {
  // Tilted about its long bottom edge (x), the block stands on that edge alone: its weight's
  // moment about the edge brings it back while its centre lies over the block's own footprint,
  // the side w = 10 mm wide, h = 6 mm high: the critical tilt atan(w / h) = 59.04 degrees.
  // catches: an edge's load applied at the wrong point (a moment about the pivot), a flat face
  // pair still solved (the box's side against the plate), the load not following a lifted edge.
  TempDir dir;
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate");
  const Part part = block(dir);
  const double w = samples::kBlockY * 1e-3, h = samples::kBlockZ * 1e-3;
  const double critical = std::atan(w / h) * 180 / pi;
  for (const double tilt : {critical - 9, critical + 9}) {
    CAPTURE(tilt);
    const double a = tilt * pi / 180;
    const Eigen::Quaterniond q(Eigen::AngleAxisd(a, Eigen::Vector3d::UnitX()));
    // The edge y = -w/2, z = -h/2 on the plate, 1 um above it.
    Drop d{{0.017, 0, w / 2 * std::sin(a) + h / 2 * std::cos(a) + 1e-6}, q, 0.25,
           "law = \"hunt_crossley\"\nrestitution = 0.2\nfriction = 0.8\n", Eigen::Vector3d::Zero(), 1e7};
    RunStatistics stats;
    const std::vector<SceneSample> run = simulate_scene(write_scenario(dir, plate, part, d), stats);
    const Eigen::AngleAxisd end(run.back().orientation);
    const double angle = end.angle() * 180 / pi * (end.axis().x() < 0 ? -1 : 1);
    MESSAGE("tilt " << tilt << " deg: ends at " << angle << " deg about x, centre z " << run.back().centre.z());
    if (tilt < critical) {
      CHECK(std::abs(angle) < 0.1);  // back on its bottom face
      CHECK(run.back().centre.z() == doctest::Approx(h / 2).epsilon(1e-4));
    } else {
      CHECK(std::abs(angle - 90) < 0.1);  // on its side face, the w-wide one up
      CHECK(run.back().centre.z() == doctest::Approx(w / 2).epsilon(1e-4));
    }
    CHECK(run.back().force == doctest::Approx(part.mass * g).epsilon(1e-3));
    CHECK(stats.health.status() == RunStatus::ok);
  }
}

TEST_CASE("a rod spinning about its axis, set down on its rims, rolls off at omega0 R / 3") {
  // A solid cylinder spun at omega0 and set down: friction at its rims slows the spin and drives
  // the centre until the rims roll, and the angular momentum about the contact line, I omega0 =
  // (I + m R^2) omega with I = m R^2 / 2, gives omega = omega0 / 3 and v = omega0 R / 3 (after
  // omega0 R / (3 mu g), 11 ms here). catches: friction at a rim acting at the rod's centre (no
  // torque: it never rolls), its torque's sign (it rolls the wrong way), a slip velocity taken at
  // the wrong point of the edge.
  TempDir dir;
  const std::filesystem::path plate = convert_part(dir, samples::holed_plate(), "plate");
  const Part part = rod(dir, 30);
  const double r = samples::kRodRadius * 1e-3, delta = std::pow(part.mass * g / (2 * stiffness), 2.0 / 3);
  constexpr double omega0 = 20;  // rad/s about world y, the rod's axis
  const Eigen::Quaterniond along_y(Eigen::AngleAxisd(pi / 2, Eigen::Vector3d::UnitZ()));
  Drop d{{0.018, 0, r - delta}, along_y, 0.03};
  d.law += "friction = 0.3\n";
  d.angular_velocity = {0, omega0, 0};
  RunStatistics stats;
  const std::vector<SceneSample> run = simulate_scene(write_scenario(dir, plate, part, d), stats);
  REQUIRE(run.size() > 2);
  const SceneSample& end = run.back();
  const SceneSample& before = run[run.size() - 2];
  const double v = (end.centre.x() - before.centre.x()) / (end.t - before.t);
  MESSAGE("rolling at " << v << " m/s against omega0 R / 3 = " << omega0 * r / 3 << "; centre moved "
                        << end.centre.x() - 0.018 << " m; " << stats.steps << " steps");
  CHECK(v == doctest::Approx(omega0 * r / 3).epsilon(1e-3));  // measured 2.4e-5
  CHECK(std::abs(end.centre.y()) < 1e-6);  // along x only
  CHECK(stats.health.status() == RunStatus::ok);
}

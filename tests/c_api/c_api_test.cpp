// The C API against the C++ API on the same queries: bit-identical answers; errors as statuses.
// Comparing the two bindings is the point (the C API must add nothing and lose nothing), but it
// would pass if both were wrong alike: the answers are also held to the closed-form sphere and the
// closed-form ball-in-cup contact.
#include "surfdb/surfdb.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <numbers>

#include "../support/approx.hpp"
#include "../support/ball_and_cup.hpp"
#include "../support/octant_fixture.hpp"
#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/table/projection.hpp"

extern "C" int c_api_query(const char* path, double u, double v, surfdb_point* out);

using namespace surfdb;
using namespace surfdb::test;

namespace {
bool same(const double* c, const Eigen::Vector3d& v) { return std::memcmp(c, v.data(), 3 * sizeof(double)) == 0; }
}  // namespace

TEST_CASE("C API queries and projections equal the C++ API's bit for bit") {
  const auto db = paper_octant();
  SurfaceBinding cpp(db);
  surfdb_database* cdb = nullptr;
  REQUIRE(surfdb_open(db->path().c_str(), &cdb) == SURFDB_OK);
  surfdb_binding* cb = nullptr;
  REQUIRE(surfdb_binding_create(cdb, 5, 5, &cb) == SURFDB_OK);
  double worst_point = 0;
  for (auto [u, v] : {std::pair{0.1, 0.2}, {0.77, 1.3}, {1.5707963267948966, 0.4}, {2.0, 0.1}}) {
    surfdb_point c;
    REQUIRE(surfdb_query(cb, u, v, &c) == SURFDB_OK);
    const SurfacePoint s = cpp.query(u, v);
    CHECK(same(c.p, s.p));
    CHECK(same(c.n, s.n));
    CHECK(same(c.dn_dv, s.dn_dv));
    CHECK(c.status == static_cast<int>(s.status));
    // Independent truth: on the sphere within the chord bound R (du^2 + dv^2) / 8 = 3.1e-5 mm
    // (at the clamped point (2.0, 0.1) the nearest boundary point, u = pi/2: the pole).
    // catches: the C struct's fields filled in another order (p from n: 50 mm off), u and v
    // passed to the C++ query swapped.
    const double cu = std::min(u, std::numbers::pi / 2), h = db->header().du;
    const Eigen::Vector3d cp(c.p[0], c.p[1], c.p[2]);
    worst_point = std::max(worst_point, (cp - octant_point(cu, v)).norm());
    CHECK((cp - octant_point(cu, v)).norm() <= 50 * 2 * h * h / 8);
    surfdb_point_d1 d1;
    surfdb_prefetch(cb, u, v);  // a hint: changes no answer
    REQUIRE(surfdb_query_d1(cb, u, v, &d1) == SURFDB_OK);
    CHECK((d1.u == s.u && d1.v == s.v && d1.status == c.status));
    CHECK(same(d1.p, s.p));
    CHECK(same(d1.dp_du, s.dp_du));
    CHECK(same(d1.dp_dv, s.dp_dv));
    CHECK(same(d1.n, s.n));
    surfdb_point from_c;
    REQUIRE(c_api_query(db->path().c_str(), u, v, &from_c) == SURFDB_OK);
    CHECK(std::memcmp(from_c.p, c.p, sizeof c.p) == 0);
  }
  const double x[3] = {20, 21, 22};
  surfdb_point foot;
  double distance = 0;
  REQUIRE(surfdb_project(cb, x, 1, 0.7, 0.8, &foot, &distance) == SURFDB_OK);
  const Projection p = project_local(cpp, {20, 21, 22}, 0.7, 0.8);
  CHECK(same(foot.p, p.point.p));
  CHECK(distance == p.distance);
  REQUIRE(surfdb_project(cb, x, 0, 0, 0, &foot, &distance) == SURFDB_OK);  // global
  // Against the closed form: within the chord error 3.1e-5 mm, measured 2.4e-5 mm, 1.7e-6 of
  // |d| = 13.6 mm. Bound 5e-6 relative, 6.8e-5 mm (it was Approx(...).epsilon(1e-5), 1.5e-4 mm).
  // catches: the distance's sign (27 mm), a projection from the (u, v) guess without Newton steps.
  const double exact = 50 - Eigen::Vector3d(20, 21, 22).norm();
  MESSAGE("C API: worst query point " << worst_point << " mm from the sphere; global projection " << distance - exact << " mm");
  CHECK(distance == relative(exact, 5e-6));
  surfdb_window_stats stats;
  REQUIRE(surfdb_binding_stats(cb, &stats) == SURFDB_OK);
  CHECK(stats.bytes_resident == 25 * db->layout().record_bytes);
  unsigned long long damaged = 99;
  REQUIRE(surfdb_verify(cdb, &damaged) == SURFDB_OK);
  CHECK(damaged == 0);
  surfdb_binding_destroy(cb);
  surfdb_close(cdb);
}

TEST_CASE("C API contact evaluation equals the C++ API's") {
  const BallAndCup& t = ball_and_cup();
  surfdb_database *ball = nullptr, *cup = nullptr;
  REQUIRE(surfdb_open(t.ball->path().c_str(), &ball) == SURFDB_OK);
  REQUIRE(surfdb_open(t.cup->path().c_str(), &cup) == SURFDB_OK);
  surfdb_mount m{};
  Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(m.rotation) = t.mount.rotation;
  surfdb_contact* c = nullptr;
  REQUIRE(surfdb_contact_create(ball, &m, cup, &m, &c) == SURFDB_OK);
  FreeformContact cpp(t.ball, t.mount, t.cup, t.mount);
  surfdb_body_state bi{{0.001, -0.002, -0.04001}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, -0.1}, {0, 0, 0}};
  surfdb_body_state bj{{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}, {0, 0, 0}};
  surfdb_contact_result r;
  REQUIRE(surfdb_contact_evaluate(c, &bi, &bj, &r) == SURFDB_OK);
  BodyState si;
  si.pose.r = {0.001, -0.002, -0.04001};
  si.velocity = {0, 0, -0.1};
  const ContactResult e = cpp.evaluate(si, BodyState{});
  CHECK(r.status == 1);
  // Independent truth: a ball of 10 mm centred 40.01 mm from the centre of a 50 mm cup indents
  // it by |c| + 10 - 50 mm, the normal points back to the centre.
  // catches: the C body state's rotation read column-major (a transposed mount), metres and
  // millimetres mixed at the boundary (1000 times).
  const Eigen::Vector3d centre(0.001, -0.002, -0.04001);
  const double delta = centre.norm() + t.ball_radius - t.cup_radius;
  MESSAGE("C API contact: indentation error " << r.indentation - delta << " m of " << delta << " m");
  // Measured 8e-15 m; bound 5e-13 m, that of tests/contact on the same tables (the curved
  // interpolants' O(R h^4) radial error, worst 1.4e-13 m over 200 cases there).
  CHECK(std::abs(r.indentation - delta) < 5e-13);
  CHECK(r.indentation == e.indentation);
  CHECK(same(r.normal, e.normal));
  CHECK(r.indentation_rate == e.indentation_rate);
  surfdb_contact_destroy(c);
  surfdb_close(ball);
  surfdb_close(cup);
}

TEST_CASE("C API errors are statuses with messages, never exceptions") {
  surfdb_database* db = nullptr;
  CHECK(surfdb_open("/no/such/file.sdb", &db) == SURFDB_ERROR_FILE);
  CHECK(db == nullptr);
  CHECK(std::string(surfdb_last_error()).find("no such file") != std::string::npos);
  CHECK(surfdb_open(nullptr, &db) == SURFDB_ERROR_ARGUMENT);
  CHECK(surfdb_query(nullptr, 0, 0, nullptr) == SURFDB_ERROR_ARGUMENT);
  CHECK(surfdb_query_d1(nullptr, 0, 0, nullptr) == SURFDB_ERROR_ARGUMENT);
  surfdb_prefetch(nullptr, 0, 0);  // a hint to nobody: ignored
}

// Queries on the paper's octant against the closed-form sphere, and the query contract at the
// domain's edges.
#include "surfdb/table/surface_binding.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <thread>
#include <vector>

#include "../support/node_values.hpp"
#include "../support/octant_fixture.hpp"

using namespace surfdb;
using namespace surfdb::test;
using Eigen::Vector3d;

namespace {
constexpr double R = 50, pi = std::numbers::pi;


double angle(const Vector3d& a, const Vector3d& b) { return std::atan2(a.cross(b).norm(), a.dot(b)); }
}  // namespace

TEST_CASE("octant at random (u,v): within the chord bound and frames within 1e-5 rad") {
  const auto db = paper_octant();
  SurfaceBinding binding(db, {5, 5}, Residency::direct_mapping);
  const double h = db->header().du;  // du = dv
  const double chord = (h * h * R + h * h * R) / 8;  // (du^2 |s_uu| + dv^2 |s_vv|) / 8, |s_uu| = R
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> param(0, pi / 2 - 0.05);  // frames are singular at the pole
  double worst_point = 0, worst_n = 0, worst_t = 0, worst_b = 0;
  for (int k = 0; k < 20000; ++k) {
    const double u = param(rng), v = param(rng);
    const SurfacePoint s = binding.query(u, v);
    REQUIRE(s.status == QueryStatus::valid);
    const Vector3d exact = octant_point(u, v);
    const Vector3d su(-std::sin(u) * std::cos(v), -std::sin(u) * std::sin(v), std::cos(u));
    const Vector3d n = -exact / R, t = su.normalized(), b = n.cross(t);
    worst_point = std::max(worst_point, (s.p - exact).norm());
    worst_n = std::max(worst_n, angle(s.n, n));
    worst_t = std::max(worst_t, angle(s.t, t));
    worst_b = std::max(worst_b, angle(s.b, b));
    CHECK(s.p.norm() <= R + 1e-12);  // a chord never leaves the sphere
  }
  CHECK(worst_point <= chord);
  CHECK(worst_n < 1e-5);
  CHECK(worst_t < 1e-5);
  CHECK(worst_b < 1e-5);
  MESSAGE("octant worst point error " << worst_point << " mm, bound " << chord << " mm; normal "
                                      << worst_n << " rad");
}

TEST_CASE("at grid nodes the answer is the stored node exactly") {
  const auto db = paper_octant();
  SurfaceBinding binding(db, {5, 5}, Residency::window_copy);
  const Header& h = db->header();
  for (auto [i, j] : {std::pair<std::uint64_t, std::uint64_t>{0, 0}, {26, 27}, {500, 133}, {998, 998}, {997, 0}}) {
    const auto stored = node_values(*db, i, j);
    const SurfacePoint s = binding.query(stored[U], stored[V]);
    CAPTURE(i);
    CAPTURE(j);
    CHECK(s.p == Vector3d(stored[X], stored[Y], stored[Z]));
    CHECK((s.n - Vector3d(stored[NX], stored[NY], stored[NZ])).norm() < 1e-15);
    CHECK(s.status == QueryStatus::valid);
    CHECK(s.degenerate == (i >= 997));  // cells touching the pole row
  }
  // On the upper bound exactly: inside, last cell.
  const SurfacePoint corner = binding.query(h.u1, h.v1);
  CHECK(corner.status == QueryStatus::valid);
  CHECK(std::isfinite(corner.n.norm()));
}

TEST_CASE("cell derivatives match finite differences of the interpolant") {
  SurfaceBinding binding(paper_octant());
  const double u = 0.4123, v = 0.9876, e = 1e-7;  // inside one cell
  const SurfacePoint s = binding.query(u, v);
  const SurfacePoint su = binding.query(u + e, v), sv = binding.query(u, v + e);
  CHECK(((su.p - s.p) / e - s.dp_du).norm() < 1e-5 * s.dp_du.norm());
  CHECK(((sv.p - s.p) / e - s.dp_dv).norm() < 1e-5 * s.dp_dv.norm());
  CHECK(((su.n - s.n) / e - s.dn_du).norm() < 1e-4 * s.dn_du.norm());
  CHECK(((sv.n - s.n) / e - s.dn_dv).norm() < 1e-4 * s.dn_dv.norm());
  // The normal's derivative is the curvature: |dn/du| / |dp/du| = 1/R on a sphere.
  CHECK(s.dn_du.norm() / s.dp_du.norm() == doctest::Approx(1 / R).epsilon(1e-4));
}

TEST_CASE("outside a non-periodic domain or NaN: status says so and values are finite") {
  SurfaceBinding binding(paper_octant());
  for (auto [u, v] : {std::pair{-0.1, 0.5}, {0.5, 2.0}, {std::nan(""), 0.3}, {0.3, INFINITY}}) {
    const SurfacePoint s = binding.query(u, v);
    CHECK(s.status == QueryStatus::outside_domain);
    CHECK(s.p.allFinite());
    CHECK(s.n.allFinite());
    CHECK(std::isfinite(s.u));
  }
  const SurfacePoint clamped = binding.query(-0.1, 0.5);
  CHECK(clamped.u == 0);
  CHECK((clamped.p - octant_point(0, 0.5)).norm() < 1e-4);
}

TEST_CASE("queries on distinct bindings of one database from two threads agree with one thread") {
  const auto db = paper_octant();
  std::vector<std::pair<double, double>> uv;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> param(0, pi / 2);
  for (int k = 0; k < 4000; ++k) uv.emplace_back(param(rng), param(rng));
  SurfaceBinding reference(db, {5, 5});
  std::vector<Vector3d> expected;
  for (auto [u, v] : uv) expected.push_back(reference.query(u, v).p);
  std::vector<Vector3d> a(uv.size()), b(uv.size());
  std::thread ta([&] { SurfaceBinding s(db, {3, 3}, Residency::window_copy); for (std::size_t k = 0; k < uv.size(); ++k) a[k] = s.query(uv[k].first, uv[k].second).p; });
  std::thread tb([&] { SurfaceBinding s(db, {7, 7}); for (std::size_t k = uv.size(); k-- > 0;) b[k] = s.query(uv[k].first, uv[k].second).p; });
  ta.join();
  tb.join();
  CHECK(a == expected);
  CHECK(b == expected);
}

TEST_CASE("curved interpolation removes the chord error on the octant") {
  const auto db = paper_octant();
  SurfaceBinding binding(db, {5, 5}, Residency::direct_mapping, Interpolation::curved);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> param(0, pi / 2 - 0.05);
  double worst = 0, worst_radial = 0;
  for (int k = 0; k < 20000; ++k) {
    const double u = param(rng), v = param(rng);
    const SurfacePoint s = binding.query(u, v);
    worst = std::max(worst, (s.p - octant_point(u, v)).norm());
    worst_radial = std::max(worst_radial, std::abs(s.p.norm() - R));
  }
  MESSAGE("curved: worst point error " << worst << " mm, off the sphere by " << worst_radial << " mm");
  CHECK(worst_radial < 1e-9);  // chord error was 3.1e-5 mm: O(R h^4) is left
  CHECK(worst < 3.1e-5);       // along the surface the bilinear parameterisation error remains
  // The derivatives are those of the curved interpolant.
  const double u = 0.4123, v = 0.9876, e = 1e-7;
  const SurfacePoint s = binding.query(u, v), su = binding.query(u + e, v);
  CHECK(((su.p - s.p) / e - s.dp_du).norm() < 1e-5 * s.dp_du.norm());
}

namespace {
// Every field of two answers, compared bit for bit.
bool same(const SurfacePoint& a, const SurfacePoint& b) {
  return a.status == b.status && a.u == b.u && a.v == b.v && a.p == b.p && a.n == b.n && a.t == b.t &&
         a.b == b.b && a.dp_du == b.dp_du && a.dp_dv == b.dp_dv && a.dn_du == b.dn_du && a.dn_dv == b.dn_dv &&
         a.k1 == b.k1 && a.k2 == b.k2 && a.degenerate == b.degenerate;
}

// (u,v) pairs that exercise every way of reaching a cell: small steps inside one cell and into its
// neighbours (both ways along both axes), diagonal steps, grid lines, the upper edge, jumps.
std::vector<std::pair<double, double>> mixed_sequence(double h, double top) {
  std::vector<std::pair<double, double>> uv;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0, 1);
  double u = 0.3, v = 0.7;
  for (int k = 0; k < 20000; ++k) {
    const double r = unit(rng);
    if (r < 0.6) {  // a short step, often across a cell edge
      u += (unit(rng) - 0.5) * 0.8 * h;
      v += (unit(rng) - 0.5) * 0.8 * h;
    } else if (r < 0.7) {  // onto a grid line
      u = std::round(u / h) * h;
    } else if (r < 0.75) {
      v = top;  // the upper edge
    } else if (r < 0.8) {  // a jump
      u = unit(rng) * top;
      v = unit(rng) * top;
    }
    u = std::clamp(u, 0.0, top);
    v = std::clamp(v, 0.0, top);
    uv.emplace_back(u, v);
  }
  return uv;
}
}  // namespace

TEST_CASE("an answer does not depend on the queries before it") {
  // A binding keeps its last cell, moves shared corners into a neighbour and answers a repeated
  // (u,v) from memory: none of that may change a value. Each answer of a long mixed sequence is
  // compared with that of a binding that has just answered a query far away.
  const auto db = paper_octant();
  const double h = db->header().du, top = db->header().u1;
  SurfaceBinding walking(db, {5, 5}, Residency::direct_mapping);
  SurfaceBinding fresh(db, {37, 37}, Residency::direct_mapping);
  int differing = 0;
  for (auto [u, v] : mixed_sequence(h, top)) {
    const SurfacePoint a = walking.query(u, v);
    fresh.query(top - u, top - v);  // somewhere else: the next query loads its cell afresh
    differing += !same(a, fresh.query(u, v));
  }
  CHECK(differing == 0);
}

TEST_CASE("query_d1 gives query's point, derivatives and normal bit for bit") {
  const auto db = paper_octant();
  const double h = db->header().du, top = db->header().u1;
  for (Interpolation mode : {Interpolation::bilinear, Interpolation::curved}) {
    SurfaceBinding full(db, {5, 5}, Residency::direct_mapping, mode);
    SurfaceBinding light(db, {5, 5}, Residency::window_copy, mode);
    int differing = 0;
    for (auto [u, v] : mixed_sequence(h, top)) {
      const SurfacePoint a = full.query(u, v);
      const SurfaceD1 b = light.query_d1(u, v);
      differing += !(a.status == b.status && a.u == b.u && a.v == b.v && a.p == b.p && a.dp_du == b.dp_du &&
                     a.dp_dv == b.dp_dv && a.n == b.n);
    }
    CHECK(differing == 0);
  }
  // Outside the domain the status says so, as for query().
  SurfaceBinding light(db);
  CHECK(light.query_d1(-0.1, 0.5).status == QueryStatus::outside_domain);
  CHECK(light.query_d1(std::nan(""), 0.5).status == QueryStatus::outside_domain);
}

TEST_CASE("a batch of queries answers as the queries one by one, and moves the window alike") {
  // The batch calls prefetch the cells of the queries ahead; neither answers nor window moves may
  // change. Hints on their own move nothing.
  const auto db = paper_octant();
  const double h = db->header().du, top = db->header().u1;
  std::vector<double> u, v;
  for (auto [a, b] : mixed_sequence(h, top)) u.push_back(a), v.push_back(b);
  SurfaceBinding one(db, {5, 5}), batch(db, {5, 5}), batch_d1(db, {5, 5});
  std::vector<SurfacePoint> answers(u.size());
  std::vector<SurfaceD1> answers_d1(u.size());
  batch.query(u, v, answers);
  batch_d1.query_d1(u, v, answers_d1);
  int differing = 0;
  for (std::size_t k = 0; k < u.size(); ++k) {
    const SurfacePoint a = one.query(u[k], v[k]);
    const SurfaceD1& d = answers_d1[k];
    differing += !same(a, answers[k]);
    differing += !(a.status == d.status && a.u == d.u && a.v == d.v && a.p == d.p && a.dp_du == d.dp_du &&
                   a.dp_dv == d.dp_dv && a.n == d.n);
  }
  CHECK(differing == 0);
  CHECK(one.window().stats().updates > 10);
  for (const SurfaceBinding* b : {&batch, &batch_d1}) {
    CHECK(b->window().stats().updates == one.window().stats().updates);
    CHECK(b->window().stats().records_read == one.window().stats().records_read);
    CHECK(b->window().stats().outside_reads == one.window().stats().outside_reads);
  }
  const WindowStats before = one.window().stats();
  for (double x : {-1.0, 0.3, 1.2, top, std::nan("")}) one.prefetch(x, 0.6);
  CHECK(one.window().stats().updates == before.updates);
  CHECK(one.window().stats().records_read == before.records_read);
  CHECK_THROWS_AS(one.query_d1(u, std::span(v).first(3), answers_d1), std::invalid_argument);
}

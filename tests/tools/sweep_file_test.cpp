// Sweep files (tools/surfdb/sweep_file.hpp) against what they say: a grid holds every combination
// of the values given, the last parameter fastest; zip pairs them; evenly spaced ranges hit their
// ends; a Latin hypercube puts exactly one sample in each of its strata and a seed gives the same
// samples again; every case gets its own key; bad paths, values of the wrong type and empty ranges
// are refused naming the path, before any case exists.
#include "sweep_file.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

#include "../support/temp_dir.hpp"
#include "sweep_sampling.hpp"

namespace surfdb::cli {
namespace {

constexpr const char* kScenario = R"(
[simulation]
end_time = 0.1
integrator = "ab4"

[[body]]
name = "ball"
mass = 0.011
position = [0.0, 0.0, 0.03]

[[contact]]
name = "ball-cup"
surface_i = "ball"
surface_j = "cup"
stiffness = 5e9
restitution = 0.8
)";

SweepPlan plan_of(const test::TempDir& dir, const std::string& sweep) {
  std::ofstream(dir / "base.toml") << kScenario;
  std::ofstream(dir / "sweep.toml") << "scenario = \"base.toml\"\n" << sweep;
  return read_sweep(dir / "sweep.toml");
}

std::string error_of(const test::TempDir& dir, const std::string& sweep) {
  try {
    plan_of(dir, sweep);
  } catch (const SweepError& e) {
    return e.what();
  }
  return "no error";
}

TEST_CASE("a grid holds every combination of the values given, the last parameter fastest") {
  test::TempDir dir;
  const SweepPlan p = plan_of(dir, R"(
end_time = 0.03
[[parameter]]
path = "contact.ball-cup.restitution"
values = [0.5, 0.7, 0.9]
[[parameter]]
path = "body.ball.position"
values = [[0.0, 0.0, 0.03], [0.0, 0.001, 0.03]]
[[parameter]]
path = "simulation.integrator"
values = ["ab4"]
)");
  REQUIRE(p.cases.size() == 6);
  CHECK(p.end_time == 0.03);
  CHECK(p.scenario == dir / "base.toml");
  const char* restitution[] = {"0.5", "0.5", "0.7", "0.7", "0.9", "0.9"};
  for (std::size_t k = 0; k < 6; ++k) {
    CHECK(p.cases[k].values[0] == restitution[k]);
    CHECK(p.cases[k].values[1] == (k % 2 ? "[0, 0.001, 0.03]" : "[0, 0, 0.03]"));
    CHECK(p.cases[k].values[2] == "\"ab4\"");
    CHECK(p.cases[k].overrides[0] == std::string("contact.ball-cup.restitution=") + restitution[k]);
  }
  CHECK(p.cases.front().id == "0001");
  CHECK(p.cases.back().id == "0006");
  std::set<std::string> keys;
  for (const SweepCase& c : p.cases) keys.insert(c.key);
  CHECK(keys.size() == 6);
}

TEST_CASE("zip pairs the k-th values, and an evenly spaced range includes both ends") {
  test::TempDir dir;
  const SweepPlan p = plan_of(dir, R"(
combine = "zip"
[[parameter]]
path = "contact.ball-cup.stiffness"
range = [1e9, 4e9]
count = 4
[[parameter]]
path = "contact.ball-cup.restitution"
values = [0.1, 0.2, 0.3, 0.4]
)");
  REQUIRE(p.cases.size() == 4);
  const char* stiffness[] = {"1e+09", "2e+09", "3e+09", "4e+09"};
  const char* restitution[] = {"0.1", "0.2", "0.3", "0.4"};
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(p.cases[k].values[0] == stiffness[k]);
    CHECK(p.cases[k].values[1] == restitution[k]);
  }
}

TEST_CASE("a Latin hypercube has one sample in each stratum, and a seed gives the same samples") {
  for (const std::size_t n : {1u, 7u, 100u}) {
    const std::vector<double> x = latin_hypercube(2.0, 5.0, n, 42);
    REQUIRE(x.size() == n);
    std::vector<int> per_stratum(n, 0);
    for (const double v : x) {
      REQUIRE(v >= 2.0);
      REQUIRE(v < 5.0);
      ++per_stratum[static_cast<std::size_t>(std::floor((v - 2.0) / 3.0 * static_cast<double>(n)))];
    }
    CHECK(std::all_of(per_stratum.begin(), per_stratum.end(), [](int c) { return c == 1; }));
    CHECK(latin_hypercube(2.0, 5.0, n, 42) == x);
  }
  CHECK(latin_hypercube(2.0, 5.0, 20, 1) != latin_hypercube(2.0, 5.0, 20, 2));
  const std::vector<double> u = uniform_samples(-1.0, 1.0, 1000, 7);
  CHECK(u == uniform_samples(-1.0, 1.0, 1000, 7));
  CHECK(std::all_of(u.begin(), u.end(), [](double v) { return v >= -1.0 && v < 1.0; }));
  double mean = 0;
  for (const double v : u) mean += v / 1000;
  CHECK(std::abs(mean) < 0.1);  // 1000 samples of variance 1/3: sigma of the mean 0.018
}

TEST_CASE("sampled parameters in a sweep file: the strata, the seed, and the same cases read twice") {
  test::TempDir dir;
  const std::string sweep = R"(
combine = "zip"
[[parameter]]
path = "contact.ball-cup.restitution"
range = [0.2, 0.9]
count = 10
sample = "latin_hypercube"
seed = 3
[[parameter]]
path = "contact.ball-cup.stiffness"
range = [1e9, 1e10]
count = 10
sample = "uniform"
seed = 4
)";
  const SweepPlan a = plan_of(dir, sweep), b = plan_of(dir, sweep);
  REQUIRE(a.cases.size() == 10);
  std::set<int> strata;
  for (std::size_t k = 0; k < 10; ++k) {
    CHECK(a.cases[k].values == b.cases[k].values);
    CHECK(a.cases[k].key == b.cases[k].key);
    strata.insert(static_cast<int>(std::floor((std::stod(a.cases[k].values[0]) - 0.2) / 0.07)));
  }
  CHECK(strata.size() == 10);
}

TEST_CASE("zipped Latin hypercubes without seeds are drawn independently, not along the diagonal") {
  test::TempDir dir;
  const SweepPlan plan = plan_of(dir, R"(
combine = "zip"
[[parameter]]
path = "contact.ball-cup.restitution"
range = [0.0, 1.0]
count = 20
sample = "latin_hypercube"
[[parameter]]
path = "contact.ball-cup.stiffness"
range = [0.0, 1.0]
count = 20
sample = "latin_hypercube"
)");
  REQUIRE(plan.cases.size() == 20);
  int same_stratum = 0;  // a shared permutation would put every case in the same stratum of both
  for (const SweepCase& c : plan.cases)
    same_stratum += std::floor(std::stod(c.values[0]) * 20) == std::floor(std::stod(c.values[1]) * 20);
  CHECK(same_stratum < 20);
}

TEST_CASE("a case's key changes with the base scenario and the end time") {
  test::TempDir dir;
  const std::string parameter = "[[parameter]]\npath = \"contact.ball-cup.restitution\"\nvalues = [0.5]\n";
  const std::string key = plan_of(dir, parameter).cases[0].key;
  CHECK(plan_of(dir, "end_time = 0.02\n" + parameter).cases[0].key != key);
  std::ofstream(dir / "base.toml", std::ios::app) << "# changed\n";
  std::ofstream(dir / "sweep.toml") << "scenario = \"base.toml\"\n" << parameter;
  CHECK(read_sweep(dir / "sweep.toml").cases[0].key != key);
}

TEST_CASE("bad input is refused naming the path, before any case runs") {
  test::TempDir dir;
  const auto refused = [&](const std::string& sweep, const std::string& message) {
    const std::string e = error_of(dir, sweep);
    CHECK_MESSAGE(e.find(message) != std::string::npos, e);
  };
  refused("[[parameter]]\npath = \"contact.ball-cup.stifness\"\nvalues = [1e9]\n",
          "parameter 'contact.ball-cup.stifness': " + (dir / "base.toml").string() + ": no key 'stifness' in [[contact]] (name, ");
  refused("[[parameter]]\npath = \"contact.ball-pan.stiffness\"\nvalues = [1e9]\n",
          "parameter 'contact.ball-pan.stiffness': " + (dir / "base.toml").string() + ": no [[contact]] named 'ball-pan'");
  refused("[[parameter]]\npath = \"spring.s.stiffness\"\nvalues = [1e9]\n", "base.toml: no [[spring]] named 's'");
  refused("[[parameter]]\npath = \"contact.ball-cup.friction\"\nvalues = [0.1]\n",
          "parameter 'contact.ball-cup.friction': " + (dir / "base.toml").string() + " leaves this key out");
  refused("[[parameter]]\npath = 'contact.\"ball-cup.stiffness'\nvalues = [1e9]\n", "a quote in the path is not closed");
  refused("[[parameter]]\npath = \"contact..stiffness\"\nvalues = [1e9]\n", "an empty name in the path");
  refused("[[parameter]]\npath = \"contact.ball-cup.restitution\"\nvalues = [0.5, \"high\"]\n",
          "parameter 'contact.ball-cup.restitution': value 2 must be a number");
  refused("[[parameter]]\npath = \"body.ball.position\"\nvalues = [[0.0, 0.1]]\n",
          "parameter 'body.ball.position': value 1 must be a vector of 3 numbers");
  refused("[[parameter]]\npath = \"simulation.integrator\"\nvalues = [4]\n", "value 1 must be a string");
  refused("[[parameter]]\npath = \"contact.ball-cup.restitution\"\nvalues = []\n", "values must be a non-empty list");
  refused("[[parameter]]\npath = \"contact.ball-cup.restitution\"\nrange = [0.1, 0.9]\ncount = 0\n",
          "parameter 'contact.ball-cup.restitution': count must be a whole number of at least 1");
  refused("[[parameter]]\npath = \"contact.ball-cup.restitution\"\nrange = [0.5, 0.5]\ncount = 3\n", "an empty range");
  refused("[[parameter]]\npath = \"contact.ball-cup.restitution\"\nrange = [0.9, 0.1]\ncount = 3\nsample = \"uniform\"\n",
          "an empty range");
  refused("[[parameter]]\npath = \"body.ball.position\"\nrange = [0.0, 0.1]\ncount = 3\n", "a range applies to a number");
  refused("combine = \"zip\"\n[[parameter]]\npath = \"contact.ball-cup.restitution\"\nvalues = [0.5]\n"
          "[[parameter]]\npath = \"contact.ball-cup.stiffness\"\nvalues = [1e9, 2e9]\n",
          "needs as many values for each parameter");
  refused("[[parameter]]\npath = \"contact.ball-cup.restitution\"\nvalue = [0.5]\n", "unknown key 'value'");
  refused("", "at least one [[parameter]]");
  CHECK(error_of(dir, "[[parameter]]\npath = \"contact.ball-cup.restitution\"\nvalues = [0.5, 2]\n") == "no error");
}

}  // namespace
}  // namespace surfdb::cli

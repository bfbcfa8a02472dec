// surfdb/model.h: a model's data stepped from C against the library's established run
// (make_simulation and Simulation::run, with the command's initial-penetration check), bit for
// bit; a restored state run twice alike; two data of one model on two threads as each alone; and
// the contact points against Hertz's closed form on the bouncing ball.
#include "surfdb/model.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "surfdb/multibody/initial_penetration.hpp"
#include "surfdb/scenario/scenario.hpp"

extern "C" int c_model_steps(const char* scenario, const char* const* overrides, int override_count, long steps,
                             double end_time, double* state, int size, surfdb_run_summary* summary);
extern "C" int c_model_restore_twice(const char* scenario, double t1, double t2);
extern "C" int c_model_save_and_restore(const char* scenario, const char* override, double t_write, double t_save,
                                        double t_end);

namespace {

const std::string kBall = std::string(SURFDB_SOURCE_DIR) + "/samples/integrators/bouncing_ball.toml";
const std::string kCupBall = std::string(SURFDB_SOURCE_DIR) + "/samples/slider_crank_cup_ball/hertz_analytic.toml";

struct Reference {
  std::vector<double> y;
  surfdb::RunStatistics stats;
  double final_energy = 0, dissipated = 0;
};

// The established path: the scenario's simulation run to its end time.
Reference reference(const std::string& scenario, const std::vector<std::string>& overrides) {
  surfdb::Scenario s = surfdb::load_scenario(scenario, overrides);
  const std::unique_ptr<surfdb::Simulation> sim = surfdb::make_simulation(s);
  Reference r{s.initial_state, {}, 0, 0};
  r.y.resize(static_cast<std::size_t>(sim->size()), 0.0);
  surfdb::check_initial_penetration(*sim, r.y.data());
  surfdb::RunObserver none;
  r.stats = sim->run(r.y, s.run, none);
  r.final_energy = sim->mechanical_energy(r.y.data());
  r.dissipated = sim->dissipated_energy(r.y.data());
  return r;
}

void check_against_reference(const std::string& scenario, const std::vector<std::string>& overrides, long steps) {
  const Reference r = reference(scenario, overrides);
  std::vector<const char*> set;
  for (const std::string& o : overrides) set.push_back(o.c_str());
  std::vector<double> y(r.y.size());
  surfdb_run_summary summary{};
  REQUIRE(c_model_steps(scenario.c_str(), set.data(), static_cast<int>(set.size()), steps, r.stats.end_time, y.data(),
                        static_cast<int>(y.size()), &summary) == SURFDB_OK);
  CHECK(std::memcmp(y.data(), r.y.data(), y.size() * sizeof(double)) == 0);
  CHECK(summary.end_time == r.stats.end_time);
  CHECK(summary.steps == r.stats.steps);
  CHECK(summary.rhs_evaluations == r.stats.rhs_evaluations);
  CHECK(summary.initial_energy == r.stats.initial_energy);
  CHECK(summary.final_energy == r.final_energy);
  CHECK(summary.dissipated_energy == r.dissipated);
  CHECK(summary.run_status == static_cast<int>(r.stats.health.status()));
}

}  // namespace

TEST_CASE("a model's data stepped from C ends where the library's run ends, bit for bit") {
  for (const char* integrator : {"adams", "bdf", "dormand_prince"}) {
    CAPTURE(integrator);
    check_against_reference(kBall, {std::string("simulation.integrator=") + integrator}, -1);
  }
  check_against_reference(kBall, {"simulation.integrator=rk4", "simulation.step=1e-5"}, 5000);
  check_against_reference(kCupBall, {"simulation.end_time=0.025"}, 25000);  // AB4 through the first impact
}

TEST_CASE("a snapshot saved in an impact runs on as the run went on from it, bit for bit, in the data saved or another") {
  // The ball's first impact begins at 14.3 ms and lasts about 0.4 ms: the save falls inside it,
  // with the impact's latched velocity and the integrator's history (Adams' order and step) in
  // play, and after a state written by hand. A restore that started afresh, or replayed without
  // the write or the steps' stop times, ends elsewhere.
  for (const char* integrator : {"adams", "bdf", "dormand_prince"}) {
    CAPTURE(integrator);
    const std::string set = std::string("simulation.integrator=") + integrator;
    CHECK(c_model_save_and_restore(kBall.c_str(), set.c_str(), 0.005, 0.0144, 0.03) == 1);
  }
}

TEST_CASE("a state restored twice runs on alike, through an impact") {
  CHECK(c_model_restore_twice(kBall.c_str(), 0.0142, 0.03) == 1);
}

TEST_CASE("two data of one model on two threads end as each does alone") {
  surfdb_model* model = nullptr;
  REQUIRE(surfdb_model_open(kBall.c_str(), nullptr, 0, &model) == SURFDB_OK);
  const auto run = [&](double drop, std::vector<double>& y) {
    surfdb_data* data = nullptr;
    REQUIRE(surfdb_data_make(model, &data) == SURFDB_OK);
    y.resize(static_cast<std::size_t>(surfdb_data_state_size(data)));
    surfdb_data_get_state(data, y.data(), static_cast<int>(y.size()));
    y[2] += drop;  // the ball's height
    surfdb_data_set_state(data, y.data(), static_cast<int>(y.size()));
    surfdb_advance(model, data, 0.04);
    surfdb_data_get_state(data, y.data(), static_cast<int>(y.size()));
    surfdb_data_close(data);
  };
  std::vector<double> alone[2], together[2];
  run(0.0, alone[0]);
  run(0.002, alone[1]);
  std::thread a([&] { run(0.0, together[0]); }), b([&] { run(0.002, together[1]); });
  a.join();
  b.join();
  for (int k = 0; k < 2; ++k) CHECK(std::memcmp(alone[k].data(), together[k].data(), alone[k].size() * sizeof(double)) == 0);
  CHECK(alone[0][2] != alone[1][2]);
  surfdb_model_close(model);
}

TEST_CASE("contact points from C are Hertz's on the floor, and errors are statuses") {
  surfdb_model* model = nullptr;
  surfdb_data* data = nullptr;
  REQUIRE(surfdb_model_open(kBall.c_str(), nullptr, 0, &model) == SURFDB_OK);
  REQUIRE(surfdb_data_make(model, &data) == SURFDB_OK);
  CHECK(std::string(surfdb_model_body_name(model, 0)) == "ball");
  int count = 0;
  while (count == 0) {  // to the first impact (14.3 ms)
    REQUIRE(surfdb_step(model, data) == SURFDB_OK);
    REQUIRE(surfdb_data_contact_points(data, nullptr, 0, &count) == SURFDB_OK);
  }
  surfdb_contact_point p{};
  REQUIRE(surfdb_data_contact_points(data, &p, 1, &count) == SURFDB_OK);
  double y[SURFDB_BODY_STATE_SIZE + 1];
  REQUIRE(surfdb_data_get_state(data, y, SURFDB_BODY_STATE_SIZE + 1) == SURFDB_OK);
  const double depth = 0.005 - y[2];  // the ball's radius less its centre's height
  CHECK(p.contact == 0);
  CHECK(p.indentation == doctest::Approx(depth).epsilon(1e-9));
  CHECK(p.normal[2] == 1.0);
  CHECK(p.force[2] == doctest::Approx(1e8 * std::pow(depth, 1.5)).epsilon(1e-8));  // K delta^1.5
  CHECK(surfdb_data_get_state(data, y, 3) == SURFDB_ERROR_ARGUMENT);
  CHECK(std::string(surfdb_last_error()).find("the state has 14") != std::string::npos);
  surfdb_model* other = nullptr;
  REQUIRE(surfdb_model_open(kBall.c_str(), nullptr, 0, &other) == SURFDB_OK);
  CHECK(surfdb_step(other, data) == SURFDB_ERROR_ARGUMENT);
  CHECK(std::string(surfdb_last_error()).find("another model") != std::string::npos);
  const char* bad[] = {"body.marble.mass=0.01"};
  surfdb_model* none = nullptr;
  CHECK(surfdb_model_open(kBall.c_str(), bad, 1, &none) == SURFDB_ERROR_SCENARIO);
  CHECK(none == nullptr);
  surfdb_data_close(data);
  surfdb_model_close(other);
  surfdb_model_close(model);
}

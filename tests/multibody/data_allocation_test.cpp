// A Data allocates what it needs when made: stepping it allocates nothing but the growth of each
// contact's log of ended impacts (summary.json's impacts_detail: a vector, so at most bit_width(n)
// allocations for n impacts), for point contact on a fixed pair (each integrator), groups of
// pairs from the broad phase once in play, and a surface joint. Counted by replacing operator new
// in this test program (tests/support/counting_allocator.cpp: it only counts while `counting` is set). Scenes from
// samples/: the cam sample needs its prepare.sh (skipped without).
#include <doctest/doctest.h>

#include <bit>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "../support/counting_allocator.hpp"
#include "surfdb/multibody/data.hpp"
#include "surfdb/scenario/scenario.hpp"

using surfdb::test::allocations;
using surfdb::test::counting;

namespace {

const std::string kSamples = std::string(SURFDB_SOURCE_DIR) + "/samples/";

struct Counted {
  long allocations = -1;  // while stepping; -1: the scene's prepared files are missing
  long impacts = 0;       // ended or under way at the end, all contacts
};

// Steps `warm` steps, then counts the allocations of the next `steps` (through contacts).
Counted allocations_while_stepping(const std::string& scenario, const std::vector<std::string>& overrides,
                                   const std::string& needs, long warm, long steps) {
  if (!needs.empty() && !std::filesystem::exists(kSamples + needs)) return {};
  const std::shared_ptr<const surfdb::Model> model = surfdb::load_model(kSamples + scenario, overrides);
  surfdb::Data data(model);
  for (long k = 0; k < warm; ++k) REQUIRE(surfdb::step(*model, data));
  allocations = 0;
  counting = true;
  bool going = true;
  for (long k = 0; k < steps && going; ++k) going = surfdb::step(*model, data);
  counting = false;
  CHECK(going);
  Counted c{allocations, 0};
  for (const surfdb::ContactGroup& g : data.simulation().contacts()) c.impacts += g.statistics().impacts;
  return c;
}

// The impacts log's growth at most.
long log_growth(long impacts) { return static_cast<long>(std::bit_width(static_cast<unsigned long>(impacts))); }

}  // namespace

TEST_CASE("the counting allocator counts") {
  allocations = 0;
  counting = true;
  ::operator delete(::operator new(16));
  counting = false;
  CHECK(allocations == 1);
}

TEST_CASE("stepping a point contact allocates nothing but its impacts log, with every integrator") {
  const std::string ball = "integrators/bouncing_ball.toml";  // first impact at 14.3 ms
  for (const std::string integrator : {"adams", "bdf", "dormand_prince", "rk4", "ab4"}) {
    CAPTURE(integrator);
    const bool fixed = integrator == "rk4" || integrator == "ab4";
    std::vector<std::string> set{"simulation.integrator=" + integrator};
    if (fixed) set.push_back("simulation.step=1e-5");
    const Counted c = allocations_while_stepping(ball, set, "", 10, fixed ? 3000 : 600);
    CHECK(c.impacts > 0);
    CHECK(c.allocations <= log_growth(c.impacts));
  }
}

TEST_CASE("stepping groups of pairs from the broad phase allocates nothing once its pairs are in play") {
  const Counted c = allocations_while_stepping("primitive_scenes/billiard.toml", {}, "", 400, 1500);
  CHECK(c.impacts > 0);
  CHECK(c.allocations <= log_growth(c.impacts));
}

TEST_CASE("stepping a surface joint allocates nothing") {
  const Counted c = allocations_while_stepping("cam_follower/sphere_constraint.toml", {}, "cam_follower/tables", 20, 500);
  if (c.allocations < 0) MESSAGE("skipped: run samples/cam_follower/prepare.sh");
  CHECK(c.allocations <= 0);
}

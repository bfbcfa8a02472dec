// What surfdb/model.h and surfdb/simulation.h share: a scenario's errors turned into statuses, and
// a run's summary, warnings and contacts' statistics filled from a Data.
#pragma once

#include <string>
#include <vector>

#include "surfdb/model.h"
#include "c_errors.hpp"
#include "surfdb/multibody/data.hpp"
#include "surfdb/scenario/scenario.hpp"

namespace surfdb::capi {

/// Runs f as guarded() does, a scenario's errors (the file, its bodies placed inside each other)
/// as SURFDB_ERROR_SCENARIO.
template <class F>
surfdb_status scenario_guarded(F&& f) {
  try {
    f();
    return SURFDB_OK;
  } catch (const ScenarioError& e) {
    return fail(SURFDB_ERROR_SCENARIO, e.what());
  } catch (const InitialPenetrationError& e) {
    return fail(SURFDB_ERROR_SCENARIO, e.what());
  } catch (...) {
    return guarded([] { throw; });
  }
}

/// Fills `out` from the run so far.
void fill_summary(Data& data, surfdb_run_summary* out);
/// Warning `index` of the run so far; `messages` keeps its line alive (rebuilt when stale).
surfdb_status fill_warning(Data& data, int index, std::vector<std::string>& messages, surfdb_run_warning* out,
                           const char* call);
/// Contact `index`'s statistics.
surfdb_status fill_contact(const Data& data, int index, surfdb_contact_summary* out, const char* call);

}  // namespace surfdb::capi

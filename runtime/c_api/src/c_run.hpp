// What surfdb/model.h and surfdb/simulation.h share: a run's summary, warnings and contacts'
// statistics filled from a Data.
#pragma once

#include <string>
#include <vector>

#include "surfdb/model.h"
#include "surfdb/multibody/data.hpp"

namespace surfdb::capi {

/// Fills `out` from the run so far.
void fill_summary(Data& data, surfdb_run_summary* out);
/// Warning `index` of the run so far; `messages` keeps its line alive (rebuilt when stale).
surfdb_status fill_warning(Data& data, int index, std::vector<std::string>& messages, surfdb_run_warning* out,
                           const char* call);
/// Contact `index`'s statistics.
surfdb_status fill_contact(const Data& data, int index, surfdb_contact_summary* out, const char* call);

}  // namespace surfdb::capi

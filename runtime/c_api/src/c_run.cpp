// A run's summary, warnings and contacts' statistics filled from a Data, for surfdb/model.h and
// surfdb/simulation.h alike.
#include "c_run.hpp"

#include <cmath>

#include "c_errors.hpp"

namespace surfdb::capi {

static_assert(static_cast<int>(RunStatus::ok) == SURFDB_RUN_OK && static_cast<int>(RunStatus::warnings) == SURFDB_RUN_WARNINGS &&
              static_cast<int>(RunStatus::failed) == SURFDB_RUN_FAILED);

void fill_summary(Data& data, surfdb_run_summary* out) {
  const RunStatistics& run = data.statistics();
  out->end_time = run.end_time;
  out->steps = run.steps;
  out->rhs_evaluations = run.rhs_evaluations;
  out->initial_energy = run.initial_energy;
  out->final_energy = data.mechanical_energy();
  out->dissipated_energy = data.dissipated_energy();
  out->constraint_drift = run.constraint_drift;
  out->run_status = static_cast<int>(run.health.status());
  out->warning_count = static_cast<int>(run.health.warnings().size());
}

surfdb_status fill_warning(Data& data, int index, std::vector<std::string>& messages, surfdb_run_warning* out,
                           const char* call) {
  const RunStatistics& run = data.statistics();
  const std::vector<RunWarning>& warnings = run.health.warnings();
  if (index < 0 || index >= static_cast<int>(warnings.size()))
    return fail(SURFDB_ERROR_ARGUMENT, std::string(call) + ": no warning " + std::to_string(index) + " (the run has " +
                                           std::to_string(warnings.size()) + ")");
  messages.clear();
  for (const RunWarning& w : warnings) messages.push_back(run.health.describe(w));
  const RunWarning& w = warnings[static_cast<std::size_t>(index)];
  out->kind = to_string(w.kind);
  out->subject = w.subject.c_str();
  out->count = w.count;
  out->first_time = w.first_time;
  out->worst = w.worst;
  out->message = messages[static_cast<std::size_t>(index)].c_str();
  return SURFDB_OK;
}

surfdb_status fill_contact(const Data& data, int index, surfdb_contact_summary* out, const char* call) {
  const std::vector<ContactGroup>& contacts = data.simulation().contacts();
  if (index < 0 || index >= static_cast<int>(contacts.size()))
    return fail(SURFDB_ERROR_ARGUMENT, std::string(call) + ": no contact " + std::to_string(index));
  const GroupStatistics& s = contacts[static_cast<std::size_t>(index)].statistics();
  out->first_contact_time = std::isnan(s.first_contact_time) ? -1.0 : s.first_contact_time;
  out->max_indentation = s.max_indentation;
  out->impacts = s.impacts;
  out->solver_failures = static_cast<long long>(s.solver_failures);
  return SURFDB_OK;
}

}  // namespace surfdb::capi

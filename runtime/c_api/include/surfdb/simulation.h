/* Scenarios run by surfdb's own multibody loop, from C, Fortran or any language with a C foreign-
 * function interface (library surfdb_c_simulation, with surfdb_c). A scenario file
 * (docs/scenario.md) holds the bodies, joints, surfaces, contacts and integrator; the run is the
 * library's run of its model (surfdb/model.h, which also steps a run by hand), the same initial
 * checks, steps and numbers as `surfdb simulate`.
 *
 * Statuses and surfdb_last_error() as in surfdb.h; no C++ exception crosses this header, and none
 * crosses the caller's callback (it is plain C). SI units. Thread safety: one simulation per
 * thread at a time; distinct simulations may run on distinct threads. */
#ifndef SURFDB_SIMULATION_H
#define SURFDB_SIMULATION_H

#include "surfdb/surfdb.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct surfdb_simulation surfdb_simulation;

/* Per body, 13 numbers: position (3, world, m), Euler parameters (4, e0 first, body to world),
 * velocity (3, world, m/s), angular velocity (3, body axes, rad/s); bodies in the file's order. */
#define SURFDB_BODY_STATE_SIZE 13

/* Called at t = 0 and at each output instant of the scenario's schedule (its output_interval,
 * and every step of each impact's first 2000), with the bodies' states (body_count x 13). */
typedef void (*surfdb_output_callback)(void* user, double t, const double* bodies, int body_count);

typedef struct surfdb_contact_summary {
  double first_contact_time;  /* s; negative when the pair never touched */
  double max_indentation;     /* m, over the run */
  long long impacts;
  long long solver_failures;  /* accepted steps whose detection did not solve */
} surfdb_contact_summary;

/* A run's status (docs/scenario.md, "The health of a run"): ok; ran to its end with warnings; or
 * failed, stopped early at end_time (the integrator gave up, the state turned NaN). */
typedef enum surfdb_run_status {
  SURFDB_RUN_OK = 0,
  SURFDB_RUN_WARNINGS = 1,
  SURFDB_RUN_FAILED = 2
} surfdb_run_status;

/* surfdb_run_summary gained run_status and warning_count at its end in API version 2: a program
 * built against an older header passes a shorter struct and must be rebuilt. */
#define SURFDB_SIMULATION_API_VERSION 2

typedef struct surfdb_run_summary {
  double end_time;  /* s, reached */
  long long steps, rhs_evaluations;
  double initial_energy, final_energy, dissipated_energy; /* J */
  double constraint_drift;                                /* largest position-level violation */
  int run_status;    /* a surfdb_run_status */
  int warning_count; /* read each with surfdb_simulation_warning */
} surfdb_run_summary;

/* One warning of a run; the strings live until the simulation is closed. */
typedef struct surfdb_run_warning {
  const char* kind;    /* "solver_failures", "deep_appearance", "energy_gain", "constraint_drift",
                          "integrator_message", "integrator_failure", "non_finite_state" */
  const char* subject; /* "contact 'ball_plate'", "surface joint 'cam'", "body 'ball'", "integrator",
                          "energy", "joints" */
  long long count;
  double first_time; /* s */
  double worst;      /* the kind's magnitude: depth (m), energy gain (J), violation */
  const char* message; /* the line `surfdb simulate` prints */
} surfdb_run_warning;

/* Reads and checks a scenario file (tables relative to its folder), with the initial checks: a
 * contact starting deeper than its tolerance is SURFDB_ERROR_SCENARIO. */
surfdb_status surfdb_simulation_open(const char* scenario, surfdb_simulation** out);
void surfdb_simulation_close(surfdb_simulation* sim);
int surfdb_simulation_body_count(const surfdb_simulation* sim);
int surfdb_simulation_contact_count(const surfdb_simulation* sim);

/* Runs from the scenario's initial state to end_time (s; <= 0 for the scenario's own), calling
 * output (may be NULL) with `user`. A simulation runs once; open another to run again. */
surfdb_status surfdb_simulation_run(surfdb_simulation* sim, double end_time, surfdb_output_callback output,
                                    void* user, surfdb_run_summary* summary);
/* After the run: contact `index` (0-based, the file's order). */
surfdb_status surfdb_simulation_contact(const surfdb_simulation* sim, int index, surfdb_contact_summary* out);
/* After the run: warning `index` (0-based, below the summary's warning_count). */
surfdb_status surfdb_simulation_warning(const surfdb_simulation* sim, int index, surfdb_run_warning* out);

#ifdef __cplusplus
}
#endif

#endif /* SURFDB_SIMULATION_H */

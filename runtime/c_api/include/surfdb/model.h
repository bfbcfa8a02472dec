/* A scenario's model and its runs, stepped from C, Fortran or any language with a C foreign-
 * function interface (library surfdb_c_simulation), as MuJoCo's mj_step(m, d): a model compiled
 * once from a scenario file (docs/scenario.md), read-only and shared by any number of runs
 * (surfdb_data), each holding its state, contacts, statistics and integrator. The steps are the
 * library's own: those of `surfdb simulate`, of surfdb/simulation.h's runs and of Python's
 * surfdb.step, bit for bit.
 *
 *   surfdb_model* m; surfdb_data* d;
 *   surfdb_model_open("scene.toml", NULL, 0, &m);
 *   surfdb_data_make(m, &d);
 *   while (surfdb_data_time(d) < 0.1) surfdb_step(m, d);
 *
 * Statuses and surfdb_last_error() as in surfdb.h; no C++ exception crosses this header. SI
 * units. Thread safety: a model may be shared by threads; a data is stepped by one thread at a
 * time, distinct data on distinct threads. */
#ifndef SURFDB_MODEL_H
#define SURFDB_MODEL_H

#include "surfdb/simulation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct surfdb_model surfdb_model;
typedef struct surfdb_data surfdb_data;
typedef struct surfdb_snapshot surfdb_snapshot;

/* A contact point that carries force at the last evaluation (after a step: the accepted state). */
typedef struct surfdb_contact_point {
  int contact;           /* the scenario's [[contact]] entry, 0-based */
  double point[3];       /* m, world: midway between the surfaces' points */
  double normal[3];      /* unit, world, out of body j's surface */
  double indentation;    /* m */
  double force[3];       /* N, world, on body i */
} surfdb_contact_point;

/* Reads and checks a scenario file; overrides (may be NULL when count is 0) are "PATH=VALUE" as
 * `surfdb simulate --set` takes them, applied in order. */
surfdb_status surfdb_model_open(const char* scenario, const char* const* overrides, int override_count,
                                surfdb_model** out);
/* Frees the model; its data must be closed first. */
void surfdb_model_close(surfdb_model* model);
int surfdb_model_body_count(const surfdb_model* model);
int surfdb_model_contact_count(const surfdb_model* model);
/* Body `index`'s name (the file's order), or NULL; lives as long as the model. */
const char* surfdb_model_body_name(const surfdb_model* model, int index);
double surfdb_model_end_time(const surfdb_model* model);

/* A run of the model at its initial state, t = 0, after the initial checks (a contact starting
 * deeper than its tolerance is SURFDB_ERROR_SCENARIO). */
surfdb_status surfdb_data_make(const surfdb_model* model, surfdb_data** out);
void surfdb_data_close(surfdb_data* data);
double surfdb_data_time(const surfdb_data* data);
/* The whole state's length: per body SURFDB_BODY_STATE_SIZE numbers (surfdb/simulation.h), then
 * each contact's dissipated energy and the five-equation surface joints' parameters. */
int surfdb_data_state_size(const surfdb_data* data);
/* Copies the state into `state` (size numbers, at least the state's). */
surfdb_status surfdb_data_get_state(const surfdb_data* data, double* state, int size);
/* Writes the state (exactly the state's size); the next step restarts the integrator from it. */
surfdb_status surfdb_data_set_state(surfdb_data* data, const double* state, int size);

/* One step of the model's integrator. A run that cannot go on (the integrator gave up, the state
 * turned NaN) takes no step and returns SURFDB_OK: surfdb_data_summary's run_status says failed. */
surfdb_status surfdb_step(const surfdb_model* model, surfdb_data* data);
/* Steps to time t (s). */
surfdb_status surfdb_advance(const surfdb_model* model, surfdb_data* data, double t);
/* Back to the initial state at t = 0: the run that follows is the first one's, bit for bit. */
surfdb_status surfdb_reset(const surfdb_model* model, surfdb_data* data);
/* Starts afresh from time t and a whole state saved with surfdb_data_get_state: the contacts'
 * memories and the statistics too, so that a state restored twice runs on alike. */
surfdb_status surfdb_restore(const surfdb_model* model, surfdb_data* data, double t, const double* state, int size);

/* Where the run is now, to come back to exactly with surfdb_restore_snapshot; the run goes on
 * untouched. Free it with surfdb_snapshot_close. */
surfdb_status surfdb_save(const surfdb_model* model, const surfdb_data* data, surfdb_snapshot** out);
/* Brings `data` (of the snapshot's model: the data saved or another) back to the snapshot by
 * running its steps again from the run's start (t = 0, or its last surfdb_restore), so that the
 * run on from here is the one that went on from the save, bit for bit: states, contacts and
 * statistics. Costs those steps. */
surfdb_status surfdb_restore_snapshot(const surfdb_model* model, surfdb_data* data, const surfdb_snapshot* snapshot);
/* The snapshot's time (s); 0 for NULL. */
double surfdb_snapshot_time(const surfdb_snapshot* snapshot);
void surfdb_snapshot_close(surfdb_snapshot* snapshot);

/* The run so far, as surfdb_simulation_run gives it; warnings with surfdb_data_warning. */
surfdb_status surfdb_data_summary(surfdb_data* data, surfdb_run_summary* out);
surfdb_status surfdb_data_warning(surfdb_data* data, int index, surfdb_run_warning* out);
/* Contact `index`'s statistics so far. */
surfdb_status surfdb_data_contact(const surfdb_data* data, int index, surfdb_contact_summary* out);
/* The contact points carrying force: writes up to `capacity` into `points` (may be NULL when
 * capacity is 0) and their number into *count (may exceed capacity: call again with more room). */
surfdb_status surfdb_data_contact_points(surfdb_data* data, surfdb_contact_point* points, int capacity, int* count);

#ifdef __cplusplus
}
#endif

#endif /* SURFDB_MODEL_H */

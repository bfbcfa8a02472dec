/* surfdb's runtime as a C API, for C, Fortran (ISO_C_BINDING), MATLAB/Octave loaders and any
 * language with a C foreign-function interface. Stable: only additions in later versions.
 *
 * Every function returns a surfdb_status; on anything but SURFDB_OK, surfdb_last_error() gives a
 * message for the calling thread. No C++ exception crosses this header. Lengths as in the file
 * (millimetres for CAD input) for databases and bindings; SI units (m, s) for contacts, whose
 * bodies the caller moves. Matrices are row-major 3 x 3. Thread safety: a database may be shared
 * by bindings and contacts on any threads; one binding or contact per thread at a time. */
#ifndef SURFDB_H
#define SURFDB_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum surfdb_status {
  SURFDB_OK = 0,
  SURFDB_ERROR_FILE = 1,     /* missing, unreadable, damaged or not a surface database */
  SURFDB_ERROR_ARGUMENT = 2, /* a null pointer or an impossible value */
  SURFDB_ERROR_INTERNAL = 3,
  SURFDB_ERROR_SCENARIO = 4  /* a scenario file that is missing or invalid (surfdb/simulation.h) */
} surfdb_status;

typedef struct surfdb_database surfdb_database;
typedef struct surfdb_binding surfdb_binding;
typedef struct surfdb_contact surfdb_contact;

/* Point and frame at (u, v); status 0 valid, 1 outside the domain, 2 trimmed or padding cell;
 * from surfdb_project also 3: not the nearest point (no convergence, or a maximum or saddle of
 * the distance), the last iterate. */
typedef struct surfdb_point {
  double u, v;
  double p[3], n[3], t[3], b[3];
  double dp_du[3], dp_dv[3], dn_du[3], dn_dv[3];
  double k1, k2;
  int status;
  int degenerate;
} surfdb_point;

/* The lighter answer: point, first derivatives and unit normal, equal to surfdb_point's fields of
 * the same name; about half the work of surfdb_query (no frame, normal derivatives, curvatures). */
typedef struct surfdb_point_d1 {
  double u, v;
  double p[3], dp_du[3], dp_dv[3], n[3];
  int status;
} surfdb_point_d1;

typedef struct surfdb_window_stats {
  unsigned long long updates, records_read, outside_reads, bytes_resident;
} surfdb_window_stats;

/* A body's pose and velocities, world axes, SI. */
typedef struct surfdb_body_state {
  double r[3];
  double rotation[9]; /* body to world */
  double velocity[3];
  double angular_velocity[3];
} surfdb_body_state;

/* Where a surface sits in its body: origin (m, body axes) and rotation (surface to body). */
typedef struct surfdb_mount {
  double offset[3];
  double rotation[9];
} surfdb_mount;

/* status: 0 separated, 1 touching, 2 no convergence, 3 invalid cell, 4 outside domain, 5 singular. */
typedef struct surfdb_contact_result {
  int status;
  int iterations;
  double u_i, v_i, u_j, v_j;
  double point_i[3], point_j[3], normal[3];
  double indentation, gap, indentation_rate;
  double tangential_velocity[3];
  double curvature_i, curvature_j;
} surfdb_contact_result;

const char* surfdb_last_error(void);

surfdb_status surfdb_open(const char* path, surfdb_database** out);
void surfdb_close(surfdb_database* db);
/* Every data record checked; *first_damaged is 0 when all are intact. */
surfdb_status surfdb_verify(surfdb_database* db, unsigned long long* first_damaged);

/* A binding with a storage window of window_u x window_v records (mapped in place). */
surfdb_status surfdb_binding_create(surfdb_database* db, unsigned window_u, unsigned window_v, surfdb_binding** out);
void surfdb_binding_destroy(surfdb_binding* binding);
surfdb_status surfdb_query(surfdb_binding* binding, double u, double v, surfdb_point* out);
surfdb_status surfdb_query_d1(surfdb_binding* binding, double u, double v, surfdb_point_d1* out);
/* A hint that a query at (u, v) comes soon: its cell's corners are requested from memory when they
 * lie in the window; nothing else happens. A loop over many points at random gains most by hinting
 * SURFDB_PREFETCH_AHEAD points ahead. */
#define SURFDB_PREFETCH_AHEAD 8
void surfdb_prefetch(const surfdb_binding* binding, double u, double v);
/* Closest point to x: Newton from the guess (u, v) when use_guess is non-zero, a global search
 * when it is zero or Newton does not converge onto a valid cell (as surfdb project and Python's
 * Binding.project). */
surfdb_status surfdb_project(surfdb_binding* binding, const double x[3], int use_guess, double u, double v,
                             surfdb_point* out, double* distance);
surfdb_status surfdb_binding_stats(const surfdb_binding* binding, surfdb_window_stats* out);

/* Free-form contact between surface i on body i and surface j on body j (5 x 5 windows each). */
surfdb_status surfdb_contact_create(surfdb_database* surface_i, const surfdb_mount* mount_i, surfdb_database* surface_j,
                                    const surfdb_mount* mount_j, surfdb_contact** out);
void surfdb_contact_destroy(surfdb_contact* contact);
surfdb_status surfdb_contact_evaluate(surfdb_contact* contact, const surfdb_body_state* body_i,
                                      const surfdb_body_state* body_j, surfdb_contact_result* out);

#ifdef __cplusplus
}
#endif

#endif /* SURFDB_H */

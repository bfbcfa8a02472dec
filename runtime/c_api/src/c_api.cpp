// The C API (surfdb.h) over the C++ runtime: handles own C++ objects, exceptions become statuses.
#include "surfdb/surfdb.h"

#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "c_errors.hpp"
#include "surfdb/contact/contact_newton.hpp"
#include "surfdb/table/projection.hpp"

struct surfdb_database {
  std::shared_ptr<const surfdb::Database> db;
};

struct surfdb_binding {
  surfdb_database* owner;
  surfdb::SurfaceBinding binding;
};

struct surfdb_contact {
  surfdb::FreeformContact contact;
};

namespace surfdb::capi {

namespace {
thread_local std::string last_error;
}

surfdb_status fail(surfdb_status status, const std::string& message) {
  last_error = message;
  return status;
}

}  // namespace surfdb::capi

namespace {

using surfdb::capi::fail;
using surfdb::capi::guarded;

constexpr int kNotConverged = 3;  // surfdb_point.status of a projection that is not the nearest point

void copy3(const Eigen::Vector3d& v, double* out) { std::memcpy(out, v.data(), 3 * sizeof(double)); }

Eigen::Matrix3d matrix(const double* m) { return Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(m); }

void fill(const surfdb::SurfacePoint& s, surfdb_point* out) {
  out->u = s.u;
  out->v = s.v;
  copy3(s.p, out->p), copy3(s.n, out->n), copy3(s.t, out->t), copy3(s.b, out->b);
  copy3(s.dp_du, out->dp_du), copy3(s.dp_dv, out->dp_dv), copy3(s.dn_du, out->dn_du), copy3(s.dn_dv, out->dn_dv);
  out->k1 = s.k1;
  out->k2 = s.k2;
  out->status = static_cast<int>(s.status);
  out->degenerate = s.degenerate;
}

void fill(const surfdb::SurfaceD1& s, surfdb_point_d1* out) {
  out->u = s.u;
  out->v = s.v;
  copy3(s.p, out->p), copy3(s.dp_du, out->dp_du), copy3(s.dp_dv, out->dp_dv), copy3(s.n, out->n);
  out->status = static_cast<int>(s.status);
}

surfdb::BodyState body(const surfdb_body_state& s) {
  surfdb::BodyState b;
  b.pose.r = Eigen::Vector3d(s.r[0], s.r[1], s.r[2]);
  b.pose.A = matrix(s.rotation);
  b.velocity = Eigen::Vector3d(s.velocity[0], s.velocity[1], s.velocity[2]);
  b.angular_velocity = Eigen::Vector3d(s.angular_velocity[0], s.angular_velocity[1], s.angular_velocity[2]);
  return b;
}

surfdb::SurfaceMount mount(const surfdb_mount& m) {
  return {Eigen::Vector3d(m.offset[0], m.offset[1], m.offset[2]), matrix(m.rotation)};
}

}  // namespace

extern "C" {

const char* surfdb_last_error(void) { return surfdb::capi::last_error.c_str(); }

surfdb_status surfdb_open(const char* path, surfdb_database** out) {
  if (!path || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_open: null argument");
  *out = nullptr;
  return guarded([&] { *out = new surfdb_database{surfdb::Database::open(path)}; });
}

void surfdb_close(surfdb_database* db) { delete db; }

surfdb_status surfdb_verify(surfdb_database* db, unsigned long long* first_damaged) {
  if (!db || !first_damaged) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_verify: null argument");
  return guarded([&] { *first_damaged = db->db->first_damaged_record(); });
}

surfdb_status surfdb_binding_create(surfdb_database* db, unsigned window_u, unsigned window_v, surfdb_binding** out) {
  if (!db || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_binding_create: null argument");
  *out = nullptr;
  return guarded([&] { *out = new surfdb_binding{db, surfdb::SurfaceBinding(db->db, {window_u, window_v})}; });
}

void surfdb_binding_destroy(surfdb_binding* binding) { delete binding; }

surfdb_status surfdb_query(surfdb_binding* binding, double u, double v, surfdb_point* out) {
  if (!binding || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_query: null argument");
  return guarded([&] { fill(binding->binding.query(u, v), out); });
}

surfdb_status surfdb_query_d1(surfdb_binding* binding, double u, double v, surfdb_point_d1* out) {
  if (!binding || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_query_d1: null argument");
  return guarded([&] { fill(binding->binding.query_d1(u, v), out); });
}

void surfdb_prefetch(const surfdb_binding* binding, double u, double v) {
  static_assert(SURFDB_PREFETCH_AHEAD == surfdb::SurfaceBinding::kPrefetchAhead);
  if (binding) binding->binding.prefetch(u, v);
}

surfdb_status surfdb_project(surfdb_binding* binding, const double x[3], int use_guess, double u, double v,
                             surfdb_point* out, double* distance) {
  if (!binding || !x || !out || !distance) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_project: null argument");
  return guarded([&] {
    const Eigen::Vector3d point(x[0], x[1], x[2]);
    const surfdb::Projection p =
        surfdb::project_near(binding->binding, point, use_guess ? std::optional(std::pair{u, v}) : std::nullopt);
    fill(p.point, out);
    if (!p.converged) out->status = kNotConverged;
    *distance = p.distance;
  });
}

surfdb_status surfdb_binding_stats(const surfdb_binding* binding, surfdb_window_stats* out) {
  if (!binding || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_binding_stats: null argument");
  const surfdb::WindowStats& s = binding->binding.window().stats();
  *out = {s.updates, s.records_read, s.outside_reads, s.bytes_resident};
  return SURFDB_OK;
}

surfdb_status surfdb_contact_create(surfdb_database* surface_i, const surfdb_mount* mount_i, surfdb_database* surface_j,
                                    const surfdb_mount* mount_j, surfdb_contact** out) {
  if (!surface_i || !mount_i || !surface_j || !mount_j || !out)
    return fail(SURFDB_ERROR_ARGUMENT, "surfdb_contact_create: null argument");
  *out = nullptr;
  return guarded([&] {
    *out = new surfdb_contact{surfdb::FreeformContact(surface_i->db, mount(*mount_i), surface_j->db, mount(*mount_j))};
  });
}

void surfdb_contact_destroy(surfdb_contact* contact) { delete contact; }

surfdb_status surfdb_contact_evaluate(surfdb_contact* contact, const surfdb_body_state* body_i,
                                      const surfdb_body_state* body_j, surfdb_contact_result* out) {
  if (!contact || !body_i || !body_j || !out) return fail(SURFDB_ERROR_ARGUMENT, "surfdb_contact_evaluate: null argument");
  return guarded([&] {
    const surfdb::ContactResult r = contact->contact.evaluate(body(*body_i), body(*body_j));
    out->status = static_cast<int>(r.status);
    out->iterations = r.iterations;
    out->u_i = r.u_i, out->v_i = r.v_i, out->u_j = r.u_j, out->v_j = r.v_j;
    copy3(r.point_i, out->point_i), copy3(r.point_j, out->point_j), copy3(r.normal, out->normal);
    out->indentation = r.indentation;
    out->gap = r.gap;
    out->indentation_rate = r.indentation_rate;
    copy3(r.tangential_velocity, out->tangential_velocity);
    out->curvature_i = r.curvature_i;
    out->curvature_j = r.curvature_j;
  });
}

}  // extern "C"

#include "surfdb/libsurfdb/analytic_surfaces.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace surfdb {
namespace {

using Eigen::Vector3d;
constexpr double kPi = std::numbers::pi;

class AnalyticSurface final : public SurfaceSource {
 public:
  explicit AnalyticSurface(const AnalyticSpec& spec) : spec_(spec) {
    const auto [u0, u1, v0, v1] = default_ranges();
    bounds_.u0 = spec.u_range ? spec.u_range->first : u0;
    bounds_.u1 = spec.u_range ? spec.u_range->second : u1;
    bounds_.v0 = spec.v_range ? spec.v_range->first : v0;
    bounds_.v1 = spec.v_range ? spec.v_range->second : v1;
    const bool u_angle = spec.kind == AnalyticKind::sphere || spec.kind == AnalyticKind::cylinder ||
                         spec.kind == AnalyticKind::torus;
    const bool v_angle = spec.kind == AnalyticKind::torus;
    const auto full_turn = [](double a, double b) { return std::abs(b - a - 2 * kPi) < 1e-12; };
    if (u_angle && full_turn(bounds_.u0, bounds_.u1)) bounds_.u_period = 2 * kPi;
    if (v_angle && full_turn(bounds_.v0, bounds_.v1)) bounds_.v_period = 2 * kPi;
  }

  ParamBounds bounds() const override { return bounds_; }
  bool inside(double, double) const override { return true; }
  std::unique_ptr<SurfaceSource> clone() const override {
    return std::make_unique<AnalyticSurface>(*this);
  }

  SourceInfo info() const override {
    static constexpr const char* names[] = {"octant", "sphere", "plane", "cylinder", "torus"};
    static constexpr const char* types[] = {"Octant", "Sphere", "Plane", "Cylinder", "Torus"};
    const auto k = static_cast<int>(spec_.kind);
    SourceInfo s;
    s.kind = "analytic";
    s.name = names[k];
    s.surface_type = types[k];
    return s;
  }

  SurfaceD2 d2(double u, double v) const override {
    const double R = spec_.radius, r = spec_.minor_radius;
    const double cu = std::cos(u), su = std::sin(u), cv = std::cos(v), sv = std::sin(v);
    SurfaceD2 d;
    switch (spec_.kind) {
      case AnalyticKind::octant:
        d.p = R * Vector3d(cu * cv, cu * sv, su);
        d.su = R * Vector3d(-su * cv, -su * sv, cu);
        d.sv = R * Vector3d(-cu * sv, cu * cv, 0);
        d.suu = -d.p;
        d.suv = R * Vector3d(su * sv, -su * cv, 0);
        d.svv = R * Vector3d(-cu * cv, -cu * sv, 0);
        break;
      case AnalyticKind::sphere:
        d.p = R * Vector3d(cv * cu, cv * su, sv);
        d.su = R * Vector3d(-cv * su, cv * cu, 0);
        d.sv = R * Vector3d(-sv * cu, -sv * su, cv);
        d.suu = R * Vector3d(-cv * cu, -cv * su, 0);
        d.suv = R * Vector3d(sv * su, -sv * cu, 0);
        d.svv = -d.p;
        break;
      case AnalyticKind::plane:
        d.p = Vector3d(u, v, 0);
        d.su = Vector3d::UnitX();
        d.sv = Vector3d::UnitY();
        d.suu = d.suv = d.svv = Vector3d::Zero();
        break;
      case AnalyticKind::cylinder:
        d.p = Vector3d(R * cu, R * su, v);
        d.su = Vector3d(-R * su, R * cu, 0);
        d.sv = Vector3d::UnitZ();
        d.suu = Vector3d(-R * cu, -R * su, 0);
        d.suv = d.svv = Vector3d::Zero();
        break;
      case AnalyticKind::torus: {
        const double w = R + r * cv;
        d.p = Vector3d(w * cu, w * su, r * sv);
        d.su = Vector3d(-w * su, w * cu, 0);
        d.sv = Vector3d(-r * sv * cu, -r * sv * su, r * cv);
        d.suu = Vector3d(-w * cu, -w * su, 0);
        d.suv = Vector3d(r * sv * su, -r * sv * cu, 0);
        d.svv = Vector3d(-r * cv * cu, -r * cv * su, -r * sv);
        break;
      }
    }
    return d;
  }

 private:
  struct Ranges {
    double u0, u1, v0, v1;
  };
  Ranges default_ranges() const {
    switch (spec_.kind) {
      case AnalyticKind::octant: return {0, kPi / 2, 0, kPi / 2};
      case AnalyticKind::sphere: return {0, 2 * kPi, -kPi / 2, kPi / 2};
      case AnalyticKind::plane: return {0, spec_.length, 0, spec_.length};
      case AnalyticKind::cylinder: return {0, 2 * kPi, 0, spec_.length};
      case AnalyticKind::torus: return {0, 2 * kPi, 0, 2 * kPi};
    }
    return {0, 1, 0, 1};
  }

  AnalyticSpec spec_;
  ParamBounds bounds_;
};

void require_positive(double x, const char* what) {
  if (!(x > 0) || !std::isfinite(x))
    throw std::invalid_argument(std::string(what) + " must be a positive number");
}

void require_range(const std::optional<std::pair<double, double>>& r, const char* what) {
  if (r && !(std::isfinite(r->first) && std::isfinite(r->second) && r->first < r->second))
    throw std::invalid_argument(std::string(what) + " must be two finite numbers, low < high");
}

}  // namespace

AnalyticKind parse_analytic_kind(const std::string& name) {
  if (name == "octant") return AnalyticKind::octant;
  if (name == "sphere") return AnalyticKind::sphere;
  if (name == "plane") return AnalyticKind::plane;
  if (name == "cylinder") return AnalyticKind::cylinder;
  if (name == "torus") return AnalyticKind::torus;
  throw std::invalid_argument("unknown analytic surface '" + name +
                              "' (octant, sphere, plane, cylinder, torus)");
}

std::unique_ptr<SurfaceSource> make_analytic_surface(const AnalyticSpec& spec) {
  require_positive(spec.radius, "radius");
  require_positive(spec.minor_radius, "minor radius");
  require_positive(spec.length, "length");
  require_range(spec.u_range, "u range");
  require_range(spec.v_range, "v range");
  if (spec.kind == AnalyticKind::torus && !(spec.minor_radius < spec.radius))
    throw std::invalid_argument("torus minor radius must be smaller than its radius");
  return std::make_unique<AnalyticSurface>(spec);
}

}  // namespace surfdb

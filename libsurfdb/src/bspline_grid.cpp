#include "bspline_grid.hpp"

#include <BSplCLib.hxx>
#include <Precision.hxx>
#include <gp_Pnt.hxx>
#include <gp_Vec.hxx>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace surfdb {
namespace {

constexpr int kDerivatives = 2;  // value, first and second derivative of each basis function
constexpr int kRows = kDerivatives + 1;

// d^k/dt^k N(first + j, p)(t) into ders[k * (p + 1) + j], k = 0..2 (zero above the degree), where
// U[span] <= t < U[span + 1] and first = span - p (The NURBS Book, A2.3, with 0-based knots U).
// Not BSplCLib::EvalBsplineBasis: it locates the span itself, the one after a knot, where a face
// ending on the knot needs the one before it (bases()).
void basis_derivatives(const double* U, int span, int p, double t, double* ders, std::vector<double>& work) {
  const int m = p + 1;
  work.resize(static_cast<std::size_t>(m * m + 2 * m + 2 * kRows));
  double* ndu = work.data();  // lower triangle: knot differences; upper: the basis functions of each degree
  double* left = ndu + m * m;
  double* right = left + m;
  double* a = right + m;  // two rows of kRows coefficients, used alternately
  ndu[0] = 1.0;
  for (int j = 1; j <= p; ++j) {
    left[j] = t - U[span + 1 - j];
    right[j] = U[span + j] - t;
    double saved = 0.0;
    for (int r = 0; r < j; ++r) {
      ndu[j * m + r] = right[r + 1] + left[j - r];
      const double temp = ndu[r * m + j - 1] / ndu[j * m + r];
      ndu[r * m + j] = saved + right[r + 1] * temp;
      saved = left[j - r] * temp;
    }
    ndu[j * m + j] = saved;
  }
  const int n = std::min(kDerivatives, p);
  for (int j = 0; j <= p; ++j) ders[j] = ndu[j * m + p];
  std::fill(ders + (n + 1) * m, ders + kRows * m, 0.0);
  for (int r = 0; r <= p; ++r) {
    double* a1 = a;
    double* a2 = a + kRows;
    a1[0] = 1.0;
    for (int k = 1; k <= n; ++k) {
      const int rk = r - k, pk = p - k;
      double d = 0.0;
      if (r >= k) {
        a2[0] = a1[0] / ndu[(pk + 1) * m + rk];
        d = a2[0] * ndu[rk * m + pk];
      }
      const int j1 = rk >= -1 ? 1 : -rk;
      const int j2 = r - 1 <= pk ? k - 1 : p - r;
      for (int j = j1; j <= j2; ++j) {
        a2[j] = (a1[j] - a1[j - 1]) / ndu[(pk + 1) * m + rk + j];
        d += a2[j] * ndu[(rk + j) * m + pk];
      }
      if (r <= pk) {
        a2[k] = -a1[k - 1] / ndu[(pk + 1) * m + r];
        d += a2[k] * ndu[r * m + pk];
      }
      ders[k * m + r] = d;
      std::swap(a1, a2);
    }
  }
  double factor = p;
  for (int k = 1; k <= n; ++k) {
    for (int j = 0; j <= p; ++j) ders[k * m + j] *= factor;
    factor *= p - k;
  }
}

Eigen::Vector3d xyz(const double (&s)[4]) { return {s[0], s[1], s[2]}; }

Eigen::Vector3d placed(const gp_Trsf& t, const Eigen::Vector3d& v) {
  gp_Vec g(v.x(), v.y(), v.z());
  g.Transform(t);
  return {g.X(), g.Y(), g.Z()};
}

}  // namespace

std::shared_ptr<const BSplineGrid> BSplineGrid::make(const Handle(Geom_BSplineSurface)& surface,
                                                     const gp_Trsf& placement, const ParamBounds& bounds) {
  if (surface.IsNull() || surface->IsUPeriodic() || surface->IsVPeriodic()) return nullptr;
  std::shared_ptr<BSplineGrid> grid(new BSplineGrid);
  const auto direction = [](int degree, int poles, double lower, double upper) {
    Direction d;
    d.degree = degree;
    d.poles = poles;
    d.flat_knots.Resize(1, poles + degree + 1, false);
    d.lower = lower;
    d.upper = upper;
    return d;
  };
  grid->u_ = direction(surface->UDegree(), surface->NbUPoles(), bounds.u0, bounds.u1);
  grid->v_ = direction(surface->VDegree(), surface->NbVPoles(), bounds.v0, bounds.v1);
  surface->UKnotSequence(grid->u_.flat_knots);
  surface->VKnotSequence(grid->v_.flat_knots);
  grid->rational_ = surface->IsURational() || surface->IsVRational();
  grid->poles_.reserve(static_cast<std::size_t>(4 * grid->u_.poles * grid->v_.poles));
  for (int i = 1; i <= grid->u_.poles; ++i) {
    for (int j = 1; j <= grid->v_.poles; ++j) {
      const gp_Pnt& p = surface->Pole(i, j);
      const double w = grid->rational_ ? surface->Weight(i, j) : 1.0;
      grid->poles_.insert(grid->poles_.end(), {p.X(), p.Y(), p.Z(), w});
    }
  }
  grid->placement_ = placement;
  return grid;
}

void BSplineGrid::bases(const Direction& d, std::span<const double> t, std::vector<int>& first,
                        std::vector<double>& basis, std::vector<double>& work) {
  const int m = d.degree + 1;
  const double* U = &d.flat_knots.First();  // 0-based view of the flat knots
  const int lower = d.flat_knots.Lower();
  // OpenCASCADE's adaptor (GeomAdaptor_Surface::D2, IfUVBound) evaluates a node on the face's
  // bound (exactly on it: BRepAdaptor_Surface loads the adaptor without tolerance) that lies
  // within this of a knot on the span inside the face. On such a bound line it also takes the
  // other parameter's span as starting at a knot within this of it, where this evaluator takes the
  // span BSplCLib::LocateParameter gives (as inside the face): the two differ only at a node less
  // than 5e-10 but more than rounding below a knot where the surface is not C2.
  const double at_knot = 0.5 * Precision::PConfusion();
  first.resize(t.size());
  basis.resize(t.size() * kRows * static_cast<std::size_t>(m));
  for (std::size_t k = 0; k < t.size(); ++k) {
    int index = 0;
    double located = 0;
    // U[span] <= t < U[span + 1], span within the surface's range (clamped there beyond it).
    BSplCLib::LocateParameter(d.degree, d.flat_knots, t[k], false, lower + d.degree,
                              d.flat_knots.Upper() - d.degree, index, located);
    int span = index - lower;
    if (t[k] == d.upper) {
      while (span > d.degree && U[span] >= t[k] - at_knot) --span;
    } else if (t[k] == d.lower) {
      while (span < d.poles - 1 && U[span + 1] <= t[k] + at_knot) ++span;
    }
    first[k] = span - d.degree;
    basis_derivatives(U, span, d.degree, t[k], &basis[k * kRows * m], work);
  }
}

void BSplineGrid::evaluate(std::span<const double> u, std::span<const double> v, std::span<SurfaceD2> out,
                           Scratch& scratch) const {
  assert(out.size() == u.size() * v.size());
  if (u.empty() || v.empty()) return;
  bases(u_, u, scratch.u_first, scratch.u_basis, scratch.work);
  bases(v_, v, scratch.v_first, scratch.v_basis, scratch.work);
  const auto [lo, hi] = std::minmax_element(scratch.v_first.begin(), scratch.v_first.end());
  const int v_lo = *lo, v_hi = *hi + v_.degree;
  scratch.partial.resize(static_cast<std::size_t>(v_hi - v_lo + 1) * kRows * 4);
  const double* origin = &poles_[(static_cast<std::size_t>(scratch.u_first[0]) * v_.poles + v_lo) * 4];
  std::copy(origin, origin + 3, scratch.origin);
  const std::size_t mu = static_cast<std::size_t>(u_.degree + 1);
  for (std::size_t a = 0; a < u.size(); ++a) {
    evaluate_u_line(v, scratch.u_first[a], &scratch.u_basis[a * kRows * mu], v_lo, v_hi,
                    out.subspan(a * v.size(), v.size()), scratch);
  }
}

// One grid line at u: the poles summed along u for each v pole the line's spans touch (the point
// and its u derivatives of the curve those v poles would give), then each node along v.
void BSplineGrid::evaluate_u_line(std::span<const double> v, int u_first, const double* u_basis, int v_lo,
                                  int v_hi, std::span<SurfaceD2> out, Scratch& scratch) const {
  const int mu = u_.degree + 1, mv = v_.degree + 1;
  const double* o = scratch.origin;
  double* partial = scratch.partial.data();
  for (int l = v_lo; l <= v_hi; ++l) {
    double* s = partial + (l - v_lo) * kRows * 4;
    std::fill(s, s + kRows * 4, 0.0);
    for (int k = 0; k < mu; ++k) {
      const double* pole = &poles_[(static_cast<std::size_t>(u_first + k) * v_.poles + l) * 4];
      const double w = pole[3];
      const double h[4] = {w * (pole[0] - o[0]), w * (pole[1] - o[1]), w * (pole[2] - o[2]), w};
      for (int d = 0; d < kRows; ++d) {
        const double n = u_basis[d * mu + k];
        for (int c = 0; c < 4; ++c) s[d * 4 + c] += n * h[c];
      }
    }
  }
  for (std::size_t b = 0; b < v.size(); ++b) {
    const double* m = &scratch.v_basis[b * kRows * mv];
    const double* s = partial + (scratch.v_first[b] - v_lo) * kRows * 4;
    // S, S_u, S_v, S_uu, S_uv, S_vv in homogeneous coordinates, from the first pole on (not from
    // zeros, which GCC clears with a slow string store).
    double sum[6][4];
    for (int c = 0; c < 4; ++c) {
      sum[0][c] = m[0] * s[c];
      sum[1][c] = m[0] * s[4 + c];
      sum[2][c] = m[mv] * s[c];
      sum[3][c] = m[0] * s[8 + c];
      sum[4][c] = m[mv] * s[4 + c];
      sum[5][c] = m[2 * mv] * s[c];
    }
    for (int j = 1; j < mv; ++j) {
      s += kRows * 4;
      const double m0 = m[j], m1 = m[mv + j], m2 = m[2 * mv + j];
      for (int c = 0; c < 4; ++c) {
        sum[0][c] += m0 * s[c];
        sum[1][c] += m0 * s[4 + c];
        sum[2][c] += m1 * s[c];
        sum[3][c] += m0 * s[8 + c];
        sum[4][c] += m1 * s[4 + c];
        sum[5][c] += m2 * s[c];
      }
    }
    out[b] = finish(sum, scratch.origin);
  }
}

// The homogeneous sums divided through by the weight (quotient rule to second order), moved back
// from the block's origin, placed.
SurfaceD2 BSplineGrid::finish(const double (&sum)[6][4], const double (&origin)[3]) const {
  SurfaceD2 d{xyz(sum[0]), xyz(sum[1]), xyz(sum[2]), xyz(sum[3]), xyz(sum[4]), xyz(sum[5])};
  if (rational_) {
    const double w = sum[0][3], wu = sum[1][3], wv = sum[2][3];
    const double wuu = sum[3][3], wuv = sum[4][3], wvv = sum[5][3];
    d.p /= w;
    d.su = (d.su - wu * d.p) / w;
    d.sv = (d.sv - wv * d.p) / w;
    d.suu = (d.suu - 2 * wu * d.su - wuu * d.p) / w;
    d.suv = (d.suv - wu * d.sv - wv * d.su - wuv * d.p) / w;
    d.svv = (d.svv - 2 * wv * d.sv - wvv * d.p) / w;
  }
  d.p += Eigen::Vector3d(origin[0], origin[1], origin[2]);
  if (placement_.Form() != gp_Identity) {
    gp_Pnt p(d.p.x(), d.p.y(), d.p.z());
    p.Transform(placement_);
    d.p = {p.X(), p.Y(), p.Z()};
    d.su = placed(placement_, d.su);
    d.sv = placed(placement_, d.sv);
    d.suu = placed(placement_, d.suu);
    d.suv = placed(placement_, d.suv);
    d.svv = placed(placement_, d.svv);
  }
  return d;
}

}  // namespace surfdb

#include "trim_scanline.hpp"

#include <BRepAdaptor_Surface.hxx>
#include <BRep_Tool.hxx>
#include <Geom2dAdaptor_Curve.hxx>
#include <Precision.hxx>
#include <TopExp.hxx>
#include <TopExp_Explorer.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Edge.hxx>
#include <TopoDS_Vertex.hxx>
#include <gp_Vec2d.hxx>

#include <algorithm>
#include <cmath>
#include <limits>

namespace surfdb {
namespace {

// Samples per knot span (B-splines) and per curve at least, where the signs of u'(t) and v'(t)
// are looked at; a change of sign between two samples is refined to a split of the curve.
constexpr int kSamplesPerSpan = 8;
constexpr int kMinSamples = 32;
constexpr int kMaxSamples = 4096;
// Nodes this many classifier tolerances from a trimming curve are classified node by node.
constexpr double kBandTolerances = 10;
// Nodes this fraction of the classifier's tolerance (or of Precision::Confusion, which the classifier
// may reduce it to) from a curve are on the boundary for the classifier, so inside.
constexpr double kOnTolerance = 1e-3;
// A vertex is uncertain within this many times the larger of its tolerance (in parameters) and
// the gap to the nearest other edge end.
constexpr double kVertexMargin = 2;

int sample_count(const Handle(Geom2d_Curve)& curve, double t0, double t1) {
  Geom2dAdaptor_Curve adaptor(curve, t0, t1);
  if (adaptor.GetType() == GeomAbs_Line) return 1;
  const int spans = adaptor.NbIntervals(GeomAbs_CN);
  return std::clamp(spans * kSamplesPerSpan, kMinSamples, kMaxSamples);
}

gp_Vec2d derivative(const Geom2d_Curve& curve, double t) {
  gp_Pnt2d p;
  gp_Vec2d d;
  curve.D1(t, p, d);
  return d;
}

int sign(double x) { return (x > 0) - (x < 0); }

// The zero of component `axis` of the derivative between a and b, where its sign is sa at a and
// the opposite at b, by bisection to the parameter's resolution.
double derivative_zero(const Geom2d_Curve& curve, int axis, double a, double b, int sa) {
  for (int it = 0; it < 200 && b - a > 1e-15 * std::max(1.0, std::abs(a) + std::abs(b)); ++it) {
    const double m = 0.5 * (a + b);
    (sign(derivative(curve, m).Coord(axis + 1)) == sa ? a : b) = m;
  }
  return 0.5 * (a + b);
}

// Parameters strictly inside (t0, t1) where u'(t) or v'(t) changes sign: between them the curve
// is monotone in u and in v.
std::vector<double> monotone_splits(const Handle(Geom2d_Curve)& handle, double t0, double t1) {
  std::vector<double> splits;
  const int n = sample_count(handle, t0, t1);
  const Geom2d_Curve& curve = *handle;
  if (n == 1) return splits;
  for (int axis = 0; axis < 2; ++axis) {
    int last_sign = 0;
    double last_t = t0, prev_t = t0;
    for (int k = 0; k <= n; ++k) {
      const double t = k == n ? t1 : t0 + (t1 - t0) * k / n;
      const int s = sign(derivative(curve, t).Coord(axis + 1));
      if (s != 0 && last_sign != 0 && s != last_sign)
        splits.push_back(prev_t == last_t ? derivative_zero(curve, axis, last_t, t, last_sign) : prev_t);
      if (s != 0) last_sign = s, last_t = t;
      prev_t = t;
    }
  }
  std::sort(splits.begin(), splits.end());
  const double min_gap = 1e-12 * (t1 - t0);
  std::erase_if(splits, [&](double t) { return t - t0 <= min_gap || t1 - t <= min_gap; });
  splits.erase(std::unique(splits.begin(), splits.end(), [&](double a, double b) { return b - a <= min_gap; }),
               splits.end());
  return splits;
}

double vertex_radius(const TopoDS_Vertex& vertex, const BRepAdaptor_Surface& surface) {
  if (vertex.IsNull()) return 0;
  const double tol = BRep_Tool::Tolerance(vertex);
  return std::max(surface.UResolution(tol), surface.VResolution(tol));
}

}  // namespace

std::shared_ptr<const TrimScanline> TrimScanline::build(const TopoDS_Face& face_in, const BRepAdaptor_Surface& surface,
                                                        double tolerance) {
  auto scan = std::make_shared<TrimScanline>();
  scan->band_ = kBandTolerances * std::max(tolerance, Precision::PConfusion());
  scan->on_ = kOnTolerance * std::min(tolerance, Precision::Confusion());
  TopoDS_Face face = face_in;
  face.Orientation(TopAbs_FORWARD);  // as BRepClass_FaceExplorer sees it
  struct Range {
    double t0, t1;
  };
  std::vector<Range> ranges;
  std::vector<CurveEnd> ends;  // two per curve, at t0 and t1: the vertex's tolerance in parameters
  for (TopExp_Explorer e(face, TopAbs_EDGE); e.More(); e.Next()) {
    const TopoDS_Edge& edge = TopoDS::Edge(e.Current());
    // The classifier compares only forward and reversed edges.
    if (edge.Orientation() != TopAbs_FORWARD && edge.Orientation() != TopAbs_REVERSED) continue;
    double t0 = 0, t1 = 0;
    Handle(Geom2d_Curve) curve = BRep_Tool::CurveOnSurface(edge, face, t0, t1);
    if (curve.IsNull() || !(t1 > t0)) return nullptr;
    TopoDS_Vertex first, last;
    TopExp::Vertices(edge, first, last);  // at the curve's first and last parameters
    scan->curves_.push_back(curve);
    ranges.push_back({t0, t1});
    ends.push_back({curve->Value(t0), vertex_radius(first, surface)});
    ends.push_back({curve->Value(t1), vertex_radius(last, surface)});
  }
  // Where two edges' ends do not meet exactly, the gap between them is uncertain too.
  for (std::size_t a = 0; a < ends.size(); ++a) {
    double gap = std::numeric_limits<double>::infinity();
    for (std::size_t b = 0; b < ends.size(); ++b)
      if (b != a) gap = std::min(gap, ends[a].p.Distance(ends[b].p));
    if (!std::isfinite(gap)) gap = 0;
    ends[a].radius = kVertexMargin * std::max({ends[a].radius, gap, scan->band_});
  }
  for (std::size_t c = 0; c < scan->curves_.size(); ++c) scan->add_curve(static_cast<int>(c), ranges[c].t0,
                                                                         ranges[c].t1, ends[2 * c], ends[2 * c + 1]);
  scan->index_pieces();
  return scan;
}

void TrimScanline::add_curve(int index, double t0, double t1, const CurveEnd& first, const CurveEnd& last) {
  const Geom2d_Curve& curve = *curves_[index];
  std::vector<double> t = monotone_splits(curves_[index], t0, t1);
  t.insert(t.begin(), t0);
  t.push_back(t1);
  std::vector<gp_Pnt2d> p(t.size());
  p.front() = first.p;
  p.back() = last.p;
  for (std::size_t k = 1; k + 1 < t.size(); ++k) p[k] = curve.Value(t[k]);  // one value per split
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    Piece piece;
    piece.curve = index;
    piece.ta = t[k];
    piece.tb = t[k + 1];
    piece.pa = p[k];
    piece.pb = p[k + 1];
    piece.ra = k == 0 ? first.radius : 0;
    piece.rb = k + 2 == t.size() ? last.radius : 0;
    const double reach = std::max({band_, piece.ra, piece.rb});
    piece.lo = std::min(piece.pa.X(), piece.pb.X()) - reach;
    piece.hi = std::max(piece.pa.X(), piece.pb.X()) + reach;
    pieces_.push_back(piece);
  }
}

void TrimScanline::index_pieces() {
  if (pieces_.empty()) return;
  double lo = pieces_[0].lo, hi = pieces_[0].hi;
  for (const Piece& p : pieces_) lo = std::min(lo, p.lo), hi = std::max(hi, p.hi);
  const std::size_t buckets = std::clamp<std::size_t>(pieces_.size() / 2, 8, 4096);
  bucket_u0_ = lo;
  bucket_du_ = std::max(hi - lo, 1e-300) / static_cast<double>(buckets);
  const auto bucket = [&](double u) {
    return static_cast<std::size_t>(std::clamp((u - bucket_u0_) / bucket_du_, 0.0, double(buckets - 1)));
  };
  bucket_start_.assign(buckets + 1, 0);
  for (const Piece& p : pieces_)
    for (std::size_t k = bucket(p.lo); k <= bucket(p.hi); ++k) ++bucket_start_[k + 1];
  for (std::size_t k = 0; k < buckets; ++k) bucket_start_[k + 1] += bucket_start_[k];
  bucket_pieces_.resize(bucket_start_.back());
  std::vector<std::uint32_t> fill(bucket_start_.begin(), bucket_start_.end() - 1);
  for (std::uint32_t i = 0; i < pieces_.size(); ++i)
    for (std::size_t k = bucket(pieces_[i].lo); k <= bucket(pieces_[i].hi); ++k) bucket_pieces_[fill[k]++] = i;
}

std::span<const std::uint32_t> TrimScanline::candidates(double u) const {
  const std::size_t buckets = bucket_start_.empty() ? 0 : bucket_start_.size() - 1;
  const double x = (u - bucket_u0_) / bucket_du_;
  if (buckets == 0 || !(x >= 0) || x > double(buckets)) return {};
  const std::size_t k = std::min(static_cast<std::size_t>(x), buckets - 1);
  return {bucket_pieces_.data() + bucket_start_[k], bucket_start_[k + 1] - bucket_start_[k]};
}

// The parameter where the piece (monotone in u) meets the line u = target, which lies within
// the piece's u range: Newton's method kept inside a shrinking bracket.
double TrimScanline::solve_u(const Piece& p, double target) const {
  const Geom2d_Curve& curve = *curves_[p.curve];
  double a = p.ta, b = p.tb, fa = p.pa.X() - target, fb = p.pb.X() - target;
  if (fa == 0) return a;
  if (fb == 0) return b;
  double t = a + (b - a) * fa / (fa - fb);
  for (int it = 0; it < 100; ++it) {
    gp_Pnt2d q;
    gp_Vec2d d;
    curve.D1(t, q, d);
    const double f = q.X() - target;
    if (f == 0) return t;
    ((f < 0) == (fa < 0) ? a : b) = t;
    double next = t - f / d.X();
    if (!(next > a && next < b)) next = 0.5 * (a + b);  // outside the bracket, or not a number
    const bool converged = std::abs(next - t) <= 1e-15 * (p.tb - p.ta);
    t = next;
    if (converged || b - a <= 1e-15 * (p.tb - p.ta)) break;
  }
  return t;
}

void TrimScanline::add_piece_events(const Piece& p, double u, LineEvents& line) const {
  const bool near_a = p.ra > 0 && std::abs(p.pa.X() - u) <= p.ra;
  const bool near_b = p.rb > 0 && std::abs(p.pb.X() - u) <= p.rb;
  if (near_a) line.events.push_back({p.pa.Y(), false}), line.bands.push_back({p.pa.Y() - p.ra, p.pa.Y() + p.ra});
  if (near_b) line.events.push_back({p.pb.Y(), false}), line.bands.push_back({p.pb.Y() - p.rb, p.pb.Y() + p.rb});
  const Geom2d_Curve& curve = *curves_[p.curve];
  const double ulo = std::min(p.pa.X(), p.pb.X()), uhi = std::max(p.pa.X(), p.pb.X());
  const double vlo = std::min(p.pa.Y(), p.pb.Y()), vhi = std::max(p.pa.Y(), p.pb.Y());
  // Half-open: a crossing when the ends lie on different sides of u, an end exactly at u counted
  // with the side above it; pieces meeting at a split share that end, so the count is exact.
  if ((p.pa.X() < u) != (p.pb.X() < u)) {
    const double v = curve.Value(solve_u(p, u)).Y();
    line.events.push_back({v, !near_a && !near_b});
    line.on.push_back({v - on_, v + on_});
  }
  if (uhi - u <= on_ && u - ulo <= on_) line.on.push_back({vlo - on_, vhi + on_});  // along the line

  // Nodes within h of the piece: the piece's v range where its u is within h of the line.
  const double h = std::max({band_, near_a ? p.ra : 0.0, near_b ? p.rb : 0.0});
  if (uhi < u - h || ulo > u + h) return;
  const auto v_where = [&](double target) {
    if (target <= ulo) return p.pa.X() <= p.pb.X() ? p.pa.Y() : p.pb.Y();
    if (target >= uhi) return p.pa.X() <= p.pb.X() ? p.pb.Y() : p.pa.Y();
    return curve.Value(solve_u(p, target)).Y();
  };
  const double v1 = v_where(u - h), v2 = v_where(u + h);
  line.bands.push_back({std::min(v1, v2) - h, std::max(v1, v2) + h});
}

// Sorted by lower end, overlapping ones joined.
void TrimScanline::merge(std::vector<Band>& bands) {
  std::sort(bands.begin(), bands.end(), [](const auto& a, const auto& b) { return a.lo < b.lo; });
  std::size_t n = 0;
  for (const auto& b : bands) {
    if (n > 0 && b.lo <= bands[n - 1].hi) bands[n - 1].hi = std::max(bands[n - 1].hi, b.hi);
    else bands[n++] = b;
  }
  bands.resize(n);
}

void TrimScanline::classify_line(double u, std::span<const double> v, std::span<std::uint8_t> inside,
                                 const Classify& classify) const {
  LineEvents line;
  for (std::uint32_t i : candidates(u)) {
    const Piece& p = pieces_[i];
    if (u >= p.lo && u <= p.hi) add_piece_events(p, u, line);
  }
  std::sort(line.events.begin(), line.events.end(), [](const Event& a, const Event& b) { return a.v < b.v; });
  merge(line.bands);
  merge(line.on);
  if (!fill(u, v, inside, classify, line, true)) fill(u, v, inside, classify, line, false);
}

// Walks the nodes upwards through the events. Returns false when parity was trusted and the line
// ends inside (a crossing missed or counted twice): the caller then classifies interval by interval.
bool TrimScanline::fill(double u, std::span<const double> v, std::span<std::uint8_t> inside, const Classify& classify,
                        const LineEvents& line, bool trust_parity) const {
  enum State { out = 0, in = 1, unknown = 2 };
  State state = out;  // below every crossing the line is outside the face
  std::size_t e = 0, b = 0, o = 0;
  const auto pass = [&](const Event& event) {
    state = (state == unknown || !event.certain || !trust_parity) ? unknown : State(1 - state);
  };
  const auto within = [](const std::vector<Band>& bands, std::size_t& i, double x) {
    while (i < bands.size() && bands[i].hi < x) ++i;
    return i < bands.size() && bands[i].lo <= x;
  };
  for (std::size_t k = 0; k < v.size(); ++k) {
    for (; e < line.events.size() && line.events[e].v < v[k]; ++e) pass(line.events[e]);
    const bool on = within(line.on, o, v[k]);
    if (within(line.bands, b, v[k])) {
      inside[k] = on || classify(u, v[k]);
      continue;
    }
    if (state == unknown) state = classify(u, v[k]) ? in : out;
    inside[k] = state;
  }
  for (; e < line.events.size(); ++e) pass(line.events[e]);
  return !(trust_parity && state == in);
}

}  // namespace surfdb

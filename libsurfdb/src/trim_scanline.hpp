// Which nodes of a grid line u = const lie inside a trimmed face, found from the face's trimming
// curves in its parameter plane instead of one point classification per node (issue 20).
//
// The curves (every edge's pcurve, seams twice, degenerate edges at poles included) are cut once
// into pieces monotone in u and in v. Along a line, each piece the line crosses flips inside and
// outside; below every crossing the line is outside. Nodes within `band` of a curve (in u and in v)
// and nodes after a crossing near a vertex (where two edges' ends need not meet exactly, so the
// parity is uncertain) are classified by the caller's per-node classifier instead, except nodes
// within a thousandth of the classifier's tolerance of a curve, which it always finds on the boundary
// (inside); so is one node after each uncertain place, which fixes the state until the next
// crossing. A line whose crossings do not return it to outside is classified interval by interval.
#pragma once

#include <Geom2d_Curve.hxx>
#include <TopoDS_Face.hxx>
#include <gp_Pnt2d.hxx>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

class BRepAdaptor_Surface;

namespace surfdb {

class TrimScanline {
 public:
  /// The per-node truth: true when (u, v) is inside the face or on its boundary.
  using Classify = std::function<bool(double u, double v)>;

  /// The face's trimming curves cut into monotone pieces; `tolerance` is the classifier's. Null
  /// when an edge has no curve in the parameter plane (every node is then classified).
  static std::shared_ptr<const TrimScanline> build(const TopoDS_Face& face, const BRepAdaptor_Surface& surface,
                                                   double tolerance);

  /// inside[k] = classify(u, v[k]) for ascending v, calling classify only where the crossings
  /// leave the answer uncertain. Const and free of shared mutable state: callable from threads.
  void classify_line(double u, std::span<const double> v, std::span<std::uint8_t> inside,
                     const Classify& classify) const;

 private:
  struct Piece {
    int curve = 0;          // index into curves_
    double ta = 0, tb = 0;  // parameter range, ta < tb
    gp_Pnt2d pa, pb;        // the curve at ta and tb
    double ra = 0, rb = 0;  // > 0: pa (pb) is an edge end, uncertain within this radius
    double lo = 0, hi = 0;  // u range the piece reaches, widened by the band and the radii
  };
  struct CurveEnd {
    gp_Pnt2d p;
    double radius = 0;
  };
  struct Event {
    double v;
    bool certain;  // a crossing away from vertices flips the state; others make it unknown
  };
  struct Band {
    double lo, hi;
  };
  // What a line meets: crossings and vertices in v order, where nodes are classified one by one
  // (bands), and where nodes lie on a curve, which the classifier always calls on, so inside.
  struct LineEvents {
    std::vector<Event> events;
    std::vector<Band> bands, on;
  };

  static void merge(std::vector<Band>& bands);
  void add_curve(int index, double t0, double t1, const CurveEnd& first, const CurveEnd& last);
  void index_pieces();
  void add_piece_events(const Piece& p, double u, LineEvents& line) const;
  bool fill(double u, std::span<const double> v, std::span<std::uint8_t> inside, const Classify& classify,
            const LineEvents& line, bool trust_parity) const;
  double solve_u(const Piece& p, double u) const;
  std::span<const std::uint32_t> candidates(double u) const;

  std::vector<Handle(Geom2d_Curve)> curves_;
  std::vector<Piece> pieces_;
  double band_ = 0;                          // parameter distance within which nodes are classified
  double on_ = 0;                            // nodes this close to a curve are on it for the classifier
  double bucket_u0_ = 0, bucket_du_ = 1;     // pieces by u: bucket k covers u0 + k du .. u0 + (k+1) du
  std::vector<std::uint32_t> bucket_start_;  // bucket k's pieces: bucket_pieces_[start[k] .. start[k+1])
  std::vector<std::uint32_t> bucket_pieces_;
};

}  // namespace surfdb

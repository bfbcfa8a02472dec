#include "surfdb/libsurfdb/edge_sampling.hpp"

#include <BRepAdaptor_Curve.hxx>
#include <BRepAdaptor_Curve2d.hxx>
#include <BRepAdaptor_Surface.hxx>
#include <BRepClass_FaceClassifier.hxx>
#include <BRep_Builder.hxx>
#include <BRep_Tool.hxx>
#include <GCPnts_AbscissaPoint.hxx>
#include <GCPnts_UniformAbscissa.hxx>
#include <Standard_Failure.hxx>
#include <TopExp.hxx>
#include <TopTools_IndexedDataMapOfShapeListOfShape.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Compound.hxx>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "cad_model_faces.hpp"

namespace surfdb {
namespace {

// rad between neighbouring points: a circle's chords then lie within r (1 - cos 0.5 deg) =
// 3.8e-5 r of it, 0.19 um on a 5 mm hole, where a ball resting on the rim sits.
constexpr double kMaxTurn = std::numbers::pi / 180;
constexpr double kSmoothAngle = std::numbers::pi / 180;    // faces within this of tangent are smooth
constexpr int kMaxSegments = 100000;

std::array<double, 3> triple(const gp_Vec& v) { return {v.X(), v.Y(), v.Z()}; }

gp_Vec unit(const gp_Vec& v) { return v.Magnitude() > 0 ? v.Normalized() : v; }

// The curve's parameters at equal arc lengths: enough points for the spacing and the turning.
std::vector<double> parameters(const BRepAdaptor_Curve& c, std::optional<double> spacing) {
  const double first = c.FirstParameter(), last = c.LastParameter();
  const double length = GCPnts_AbscissaPoint::Length(c);
  double turn = 0;
  gp_Vec previous;
  for (int k = 0; k <= 64; ++k) {
    gp_Pnt p;
    gp_Vec d;
    c.D1(first + (last - first) * k / 64, p, d);
    if (k > 0 && d.Magnitude() > 0 && previous.Magnitude() > 0) turn += d.Angle(previous);
    previous = d;
  }
  const double step = spacing ? *spacing / 2 : length / 64;
  const int segments = std::clamp(static_cast<int>(std::max(std::ceil(length / step), std::ceil(turn / kMaxTurn))), 1,
                                  kMaxSegments);
  std::vector<double> t;
  GCPnts_UniformAbscissa uniform(c, segments + 1, first, last);
  if (uniform.IsDone() && uniform.NbPoints() == segments + 1)
    for (int k = 1; k <= uniform.NbPoints(); ++k) t.push_back(uniform.Parameter(k));
  else
    for (int k = 0; k <= segments; ++k) t.push_back(first + (last - first) * k / segments);
  return t;
}

struct FaceFrame {
  gp_Vec normal, across;  // outward unit normal; the surface's direction of the pcurve's left side
};

FaceFrame frame_at(const BRepAdaptor_Curve2d& pcurve, const BRepAdaptor_Surface& surface, bool reversed, double t) {
  gp_Pnt2d uv;
  gp_Vec2d tau;
  pcurve.D1(t, uv, tau);
  gp_Pnt p;
  gp_Vec du, dv;
  surface.D1(uv.X(), uv.Y(), p, du, dv);
  gp_Vec n = du.Crossed(dv);
  if (n.Magnitude() < 1e-12 * du.Magnitude() * dv.Magnitude() || n.Magnitude() == 0) {
    // A pole of the surface: its normal a little into the face.
    const gp_Pnt2d inside(uv.X() - 1e-6 * tau.Y(), uv.Y() + 1e-6 * tau.X());
    surface.D1(inside.X(), inside.Y(), p, du, dv);
    n = du.Crossed(dv);
  }
  return {unit(reversed ? -n : n), du * -tau.Y() + dv * tau.X()};
}

// +1 when the face lies on its pcurve's left (in the surface's parameters), -1 on its right:
// classified a little to each side of the edge's middle.
double left_side(const TopoDS_Face& face, const BRepAdaptor_Curve2d& pcurve, const BRepAdaptor_Surface& surface,
                 double t, double offset) {
  gp_Pnt2d uv;
  gp_Vec2d tau;
  pcurve.D1(t, uv, tau);
  gp_Pnt p;
  gp_Vec du, dv;
  surface.D1(uv.X(), uv.Y(), p, du, dv);
  const gp_Vec2d left(-tau.Y(), tau.X());
  const double scale = (du * left.X() + dv * left.Y()).Magnitude();
  const double tolerance = BRep_Tool::Tolerance(face);
  for (double h : {offset, 10 * offset, 100 * offset}) {
    const double step = scale > 0 ? h / scale : h;
    const auto state = [&](double sign) {
      return BRepClass_FaceClassifier(face, gp_Pnt2d(uv.X() + sign * step * left.X(), uv.Y() + sign * step * left.Y()),
                                      tolerance).State();
    };
    const TopAbs_State l = state(1), r = state(-1);
    if (l == TopAbs_IN && r != TopAbs_IN) return 1;
    if (r == TopAbs_IN && l != TopAbs_IN) return -1;
  }
  return 1;  // the wire's convention, the face on the left of its edges
}

EdgeSide tabulate_side(const TopoDS_Edge& edge, const TopoDS_Face& face, std::uint32_t index,
                       const BRepAdaptor_Curve& curve, const std::vector<double>& t, double offset) {
  const BRepAdaptor_Curve2d pcurve(edge, face);
  const BRepAdaptor_Surface surface(face);
  const bool reversed = face.Orientation() == TopAbs_REVERSED;
  const double side = left_side(face, pcurve, surface, 0.5 * (t.front() + t.back()), offset);  // not at a vertex
  EdgeSide s{index, {}, {}};
  for (const double x : t) {
    gp_Pnt p;
    gp_Vec tangent;
    curve.D1(x, p, tangent);
    const gp_Vec along = unit(tangent);
    const FaceFrame f = frame_at(pcurve, surface, reversed, x);
    const gp_Vec across = f.across * side;
    s.normal.push_back(triple(f.normal));
    s.inward.push_back(triple(unit(across - along * across.Dot(along))));
  }
  return s;
}

double dot(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Convex where face 1 turns away below face 2's tangent plane at some point, smooth where the
// normals agree within kSmoothAngle everywhere, concave otherwise.
EdgeKind kind_of(const SetEdge& e) {
  if (e.sides.size() == 1) return EdgeKind::free;
  bool smooth = true;
  for (std::size_t k = 0; k < e.points.size(); ++k) {
    if (std::acos(std::clamp(dot(e.sides[0].normal[k], e.sides[1].normal[k]), -1.0, 1.0)) < kSmoothAngle) continue;
    smooth = false;
    if (dot(e.sides[0].inward[k], e.sides[1].normal[k]) < 0) return EdgeKind::convex;
  }
  return smooth ? EdgeKind::smooth : EdgeKind::concave;
}

}  // namespace

std::vector<SetEdge> sample_set_edges(const CadModel& model, const std::vector<std::uint32_t>& faces,
                                      std::optional<double> spacing) {
  TopoDS_Compound all;
  BRep_Builder builder;
  builder.MakeCompound(all);
  TopTools_IndexedMapOfShape face_map;
  for (std::uint32_t f = 1; f <= model.face_count(); ++f) {
    builder.Add(all, CadModelFaces::face(model, f));
    face_map.Add(CadModelFaces::face(model, f));
  }
  TopTools_IndexedDataMapOfShapeListOfShape edge_faces;
  TopExp::MapShapesAndAncestors(all, TopAbs_EDGE, TopAbs_FACE, edge_faces);
  std::vector<SetEdge> edges;
  for (int e = 1; e <= edge_faces.Extent(); ++e) {
    const TopoDS_Edge& edge = TopoDS::Edge(edge_faces.FindKey(e));
    std::vector<std::uint32_t> around;
    for (const TopoDS_Shape& f : edge_faces(e)) around.push_back(static_cast<std::uint32_t>(face_map.FindIndex(f)));
    std::sort(around.begin(), around.end());
    around.erase(std::unique(around.begin(), around.end()), around.end());
    const bool chosen = std::any_of(around.begin(), around.end(), [&](std::uint32_t f) {
      return std::find(faces.begin(), faces.end(), f) != faces.end();
    });
    if (!chosen || BRep_Tool::Degenerated(edge)) continue;
    if (around.size() == 1 && BRep_Tool::IsClosed(edge, CadModelFaces::face(model, around[0]))) continue;  // a seam
    if (around.size() > 2) around.resize(2);
    try {
      const BRepAdaptor_Curve curve(edge);
      const std::vector<double> t = parameters(curve, spacing);
      const double offset = 10 * BRep_Tool::Tolerance(edge) + (spacing ? 1e-3 * *spacing : 1e-6);
      SetEdge s;
      s.index = static_cast<std::uint32_t>(e);
      for (const double x : t) s.points.push_back(triple(gp_Vec(curve.Value(x).XYZ())));
      for (const std::uint32_t f : around)
        s.sides.push_back(tabulate_side(edge, CadModelFaces::face(model, f), f, curve, t, offset));
      s.kind = kind_of(s);
      edges.push_back(std::move(s));
    } catch (const Standard_Failure& failure) {
      throw CadError("edge " + std::to_string(e) + " of face " + std::to_string(around.front()) +
                     ": OpenCASCADE cannot evaluate it (" + failure.GetMessageString() + ")");
    }
  }
  return edges;
}

}  // namespace surfdb

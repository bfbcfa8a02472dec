#include "nurbs_text.hpp"

#include <Standard_Failure.hxx>
#include <TColStd_Array1OfInteger.hxx>
#include <TColStd_Array1OfReal.hxx>
#include <TColStd_Array2OfReal.hxx>
#include <TColgp_Array2OfPnt.hxx>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "surfdb/libsurfdb/cad_model.hpp"

namespace surfdb {
namespace {

class Parser {
 public:
  explicit Parser(const std::filesystem::path& path) : path_(path), in_(path) {
    if (!in_) throw CadError(path.string() + ": cannot open for reading");
  }

  // Next non-blank, non-comment line split into words; false at end of file.
  bool next(std::vector<std::string>& words) {
    std::string line;
    while (std::getline(in_, line)) {
      ++line_no_;
      if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
      std::istringstream s(line);
      words.clear();
      for (std::string w; s >> w;) words.push_back(w);
      if (!words.empty()) return true;
    }
    return false;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw CadError(path_.string() + ":" + std::to_string(line_no_) + ": " + what);
  }

  double number(const std::string& w) const {
    std::size_t used = 0;
    double x = 0;
    try {
      x = std::stod(w, &used);
    } catch (const std::exception&) {
      fail("'" + w + "' is not a number");
    }
    if (used != w.size() || !std::isfinite(x)) fail("'" + w + "' is not a finite number");
    return x;
  }

 private:
  std::filesystem::path path_;
  std::ifstream in_;
  int line_no_ = 0;
};

}  // namespace

NurbsText read_nurbs_text(const std::filesystem::path& path) {
  Parser p(path);
  std::vector<std::string> w;
  if (!p.next(w) || w.size() != 2 || w[0] != "surfdb-nurbs") p.fail("expected 'surfdb-nurbs 1'");
  if (w[1] != "1") p.fail("NURBS text version " + w[1] + " is not supported (1 is)");

  NurbsText out;
  std::map<std::string, std::vector<double>> fields;
  const std::map<std::string, std::size_t> counts = {{"degree", 2}, {"poles", 2}, {"rational", 1}};
  while (true) {
    if (!p.next(w)) p.fail("end of file before 'points'");
    if (w[0] == "points") break;
    if (w[0] == "unit") {
      if (w.size() != 2 || (w[1] != "mm" && w[1] != "m")) p.fail("unit must be 'mm' or 'm'");
      out.unit = w[1] == "m" ? LengthUnit::metre : LengthUnit::millimetre;
      continue;
    }
    const bool known = counts.count(w[0]) || w[0] == "uknots" || w[0] == "vknots" ||
                       w[0] == "umults" || w[0] == "vmults";
    if (!known) p.fail("unknown keyword '" + w[0] + "'");
    if (fields.count(w[0])) p.fail("'" + w[0] + "' given twice");
    if (counts.count(w[0]) && w.size() != counts.at(w[0]) + 1)
      p.fail("'" + w[0] + "' takes " + std::to_string(counts.at(w[0])) + " values");
    std::vector<double>& values = fields[w[0]];
    for (std::size_t i = 1; i < w.size(); ++i) values.push_back(p.number(w[i]));
  }
  for (const char* key : {"degree", "poles", "uknots", "vknots", "umults", "vmults"})
    if (!fields.count(key)) p.fail(std::string("'") + key + "' is missing before 'points'");

  const auto whole = [&](double x, const char* what) {
    if (x != std::floor(x) || x < 1 || x > 1e6) p.fail(std::string(what) + " must be a positive whole number");
    return static_cast<int>(x);
  };
  const int du = whole(fields["degree"][0], "degree"), dv = whole(fields["degree"][1], "degree");
  const int nu = whole(fields["poles"][0], "pole count"), nv = whole(fields["poles"][1], "pole count");
  const bool rational = fields.count("rational") && fields["rational"][0] != 0;
  if (du > Geom_BSplineSurface::MaxDegree() || dv > Geom_BSplineSurface::MaxDegree())
    p.fail("degree above OpenCASCADE's maximum of " + std::to_string(Geom_BSplineSurface::MaxDegree()));

  const auto knot_array = [&](const char* knots_key, const char* mults_key, int degree, int poles,
                              TColStd_Array1OfReal& knots, TColStd_Array1OfInteger& mults) {
    const auto& k = fields[knots_key];
    const auto& m = fields[mults_key];
    if (k.size() < 2 || k.size() != m.size())
      p.fail(std::string("'") + knots_key + "' and '" + mults_key + "' need the same count, at least 2");
    knots.Resize(1, static_cast<int>(k.size()), false);
    mults.Resize(1, static_cast<int>(m.size()), false);
    int total = 0;
    for (std::size_t i = 0; i < k.size(); ++i) {
      if (i > 0 && !(k[i] > k[i - 1])) p.fail(std::string("'") + knots_key + "' must increase strictly");
      knots(static_cast<int>(i) + 1) = k[i];
      mults(static_cast<int>(i) + 1) = whole(m[i], "multiplicity");
      total += mults(static_cast<int>(i) + 1);
    }
    if (total != poles + degree + 1)
      p.fail(std::string("multiplicities in '") + mults_key + "' add up to " + std::to_string(total) +
             ", a surface of " + std::to_string(poles) + " poles and degree " +
             std::to_string(degree) + " needs " + std::to_string(poles + degree + 1));
  };
  TColStd_Array1OfReal uknots(1, 2), vknots(1, 2);
  TColStd_Array1OfInteger umults(1, 2), vmults(1, 2);
  knot_array("uknots", "umults", du, nu, uknots, umults);
  knot_array("vknots", "vmults", dv, nv, vknots, vmults);

  TColgp_Array2OfPnt poles(1, nu, 1, nv);
  TColStd_Array2OfReal weights(1, nu, 1, nv);
  const std::size_t per_pole = rational ? 4 : 3;
  for (int i = 1; i <= nu; ++i) {
    for (int j = 1; j <= nv; ++j) {
      if (!p.next(w)) p.fail("end of file after " + std::to_string((i - 1) * nv + j - 1) + " of " +
                             std::to_string(nu * nv) + " poles");
      if (w.size() != per_pole) p.fail("a pole takes " + std::to_string(per_pole) + " numbers");
      poles(i, j) = gp_Pnt(p.number(w[0]), p.number(w[1]), p.number(w[2]));
      weights(i, j) = rational ? p.number(w[3]) : 1.0;
      if (!(weights(i, j) > 0)) p.fail("weights must be positive");
    }
  }
  if (p.next(w)) p.fail("unexpected text after the last pole");

  try {
    out.surface = rational ? new Geom_BSplineSurface(poles, weights, uknots, vknots, umults, vmults, du, dv)
                           : new Geom_BSplineSurface(poles, uknots, vknots, umults, vmults, du, dv);
  } catch (const Standard_Failure& e) {
    throw CadError(path.string() + ": OpenCASCADE refuses the surface: " + e.GetMessageString());
  }
  return out;
}

}  // namespace surfdb

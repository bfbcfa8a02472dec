// Reading an assembly's product structure with XCAF: the shape tool's free shapes are walked down
// through their components; a label that is no assembly is a part (one per label, however many
// components refer to it), and each path down to it an instance whose placement is the product of
// the components' locations.
#include <BRepBndLib.hxx>
#include <BRep_Tool.hxx>
#include <Bnd_Box.hxx>
#include <IGESCAFControl_Reader.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <STEPCAFControl_Reader.hxx>
#include <Standard_Failure.hxx>
#include <TDF_Label.hxx>
#include <TDF_LabelSequence.hxx>
#include <TDF_Tool.hxx>
#include <TDataStd_Name.hxx>
#include <TDocStd_Document.hxx>
#include <TopExp.hxx>
#include <TopExp_Explorer.hxx>
#include <TopLoc_Location.hxx>
#include <TopTools_IndexedMapOfShape.hxx>
#include <TopoDS.hxx>
#include <XCAFApp_Application.hxx>
#include <XCAFDoc_DocumentTool.hxx>
#include <XCAFDoc_MaterialTool.hxx>
#include <XCAFDoc_ShapeTool.hxx>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <mutex>
#include <set>

#include "cad_assembly_impl.hpp"
#include "cad_model_faces.hpp"

namespace surfdb {
namespace {

// XCAF holds a material's density in g/cm^3 (the STEP reader converts to it) and gives a shape's
// in g/mm^3 (XCAFDoc_MaterialTool::GetDensityForShape).
constexpr double kKilogramsPerCubicMetrePerGramPerCubicMillimetre = 1e6;

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

void check_readable(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw CadError(path.string() + ": no such file");
  if (!std::filesystem::is_regular_file(status)) throw CadError(path.string() + ": not a regular file, not a CAD file");
  if (std::filesystem::file_size(path, ec) == 0) throw CadError(path.string() + ": file is empty");
  if (!std::ifstream(path)) throw CadError(path.string() + ": cannot open for reading");
}

Handle(TDocStd_Document) read_document(const std::filesystem::path& path, const std::string& kind) {
  {  // OpenCASCADE reports on standard output by default; surfdb's commands own that stream.
    static std::once_flag once;
    std::call_once(once, [] { Message::DefaultMessenger()->ChangePrinters().Clear(); });
  }
  Handle(TDocStd_Document) doc;
  XCAFApp_Application::GetApplication()->NewDocument("MDTV-XCAF", doc);
  bool ok = false;
  if (kind == "step") {
    STEPCAFControl_Reader reader;
    reader.SetNameMode(true);
    reader.SetMatMode(true);
    ok = reader.ReadFile(path.c_str()) == IFSelect_RetDone && reader.Transfer(doc);
  } else {
    IGESCAFControl_Reader reader;
    reader.SetNameMode(true);
    ok = reader.ReadFile(path.c_str()) == IFSelect_RetDone && reader.Transfer(doc);
  }
  if (!ok) throw CadError(path.string() + ": OpenCASCADE cannot read this as a " + (kind == "step" ? "STEP" : "IGES") + " file");
  return doc;
}

std::string label_name(const TDF_Label& label) {
  Handle(TDataStd_Name) name;
  if (!label.FindAttribute(TDataStd_Name::GetID(), name)) return {};
  return TCollection_AsciiString(name->Get()).ToCString();
}

std::string label_entry(const TDF_Label& label) {
  TCollection_AsciiString entry;
  TDF_Tool::Entry(label, entry);
  return entry.ToCString();
}

Placement placement_of(const TopLoc_Location& location, const std::string& where) {
  const gp_Trsf t = location.Transformation();
  if (std::abs(t.ScaleFactor() - 1) > 1e-9 || t.IsNegative())
    throw CadError(where + " is placed with a scale factor of " + std::to_string(t.ScaleFactor()) +
                   " (a scaled or mirrored instance): only rigid placements are supported");
  Placement p;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) p.rotation(r, c) = t.Value(r + 1, c + 1);
    p.translation[r] = t.Value(r + 1, 4);
  }
  return p;
}

AssemblyPart describe_part(const TopoDS_Shape& shape, const std::string& product_name) {
  AssemblyPart part;
  part.product_name = product_name;
  TopTools_IndexedMapOfShape faces;
  TopExp::MapShapes(shape, TopAbs_FACE, faces);
  part.faces = static_cast<std::uint32_t>(faces.Extent());
  part.volume = closed_solids_properties(shape, part.solids).Mass();
  Bnd_Box box;
  BRepBndLib::Add(shape, box, false);
  if (!box.IsVoid())
    box.Get(part.bounding_box.min[0], part.bounding_box.min[1], part.bounding_box.min[2], part.bounding_box.max[0],
            part.bounding_box.max[1], part.bounding_box.max[2]);
  return part;
}

// Walks the product structure depth first, components in the file's order.
class StructureWalker {
 public:
  StructureWalker(CadAssembly::Impl& impl, const std::string& file) : impl_(impl), file_(file) {}

  void walk(const TDF_Label& label, const Placement& placement, const std::string& path) {
    if (XCAFDoc_ShapeTool::IsAssembly(label)) {
      TDF_LabelSequence components;
      XCAFDoc_ShapeTool::GetComponents(label, components, false);
      const std::string here = path + (path.empty() ? "" : "/") + sanitised_part_name(label_name(label));
      for (const TDF_Label& component : components) {
        TDF_Label referred;
        if (!XCAFDoc_ShapeTool::GetReferredShape(component, referred)) continue;
        const Placement local =
            placement_of(XCAFDoc_ShapeTool::GetLocation(component), file_ + ": component '" + label_name(component) + "'");
        walk(referred, local.then(placement), here);
      }
      return;
    }
    const TopoDS_Shape shape = XCAFDoc_ShapeTool::GetShape(label);
    if (shape.IsNull() || !TopExp_Explorer(shape, TopAbs_FACE).More()) {  // wireframe, points, nothing
      if (faceless_.insert(label_entry(label)).second)
        impl_.warnings.push_back(file_ + ": product '" + label_name(label) + "' has no faces and is left out");
      return;
    }
    const std::uint32_t part = part_of(label, shape);
    AssemblyInstance instance;
    instance.part = part;
    instance.name = impl_.parts[part].name + "_" + std::to_string(++occurrences_[part]);
    instance.path = path;
    instance.placement = placement;
    impl_.instances.push_back(std::move(instance));
  }

 private:
  std::uint32_t part_of(const TDF_Label& label, const TopoDS_Shape& shape) {
    const std::string entry = label_entry(label);
    if (const auto found = index_.find(entry); found != index_.end()) return found->second;
    AssemblyPart part = describe_part(shape, label_name(label));
    part.file_density = XCAFDoc_MaterialTool::GetDensityForShape(label) * kKilogramsPerCubicMetrePerGramPerCubicMillimetre;
    part.name = unique_name(sanitised_part_name(part.product_name));
    const auto index = static_cast<std::uint32_t>(impl_.parts.size());
    impl_.parts.push_back(std::move(part));
    impl_.shapes.push_back(shape);
    index_[entry] = index;
    occurrences_.push_back(0);
    return index;
  }

  std::string unique_name(const std::string& base) {
    std::string name = base;
    for (int k = 2; !names_.insert(name).second; ++k) name = base + "_" + std::to_string(k);
    return name;
  }

  CadAssembly::Impl& impl_;
  std::string file_;
  std::map<std::string, std::uint32_t> index_;  // label entry -> part
  std::vector<std::uint32_t> occurrences_;       // per part
  std::set<std::string> names_;
  std::set<std::string> faceless_;  // label entries of products without faces, warned about once
};

}  // namespace

bool closed_solid(const TopoDS_Shape& solid) {
  for (TopExp_Explorer e(solid, TopAbs_SHELL); e.More(); e.Next())
    if (!BRep_Tool::IsClosed(e.Current())) return false;
  return true;
}

Placement Placement::then(const Placement& outer) const {
  return Placement{outer.rotation * rotation, outer.rotation * translation + outer.translation};
}

std::string sanitised_part_name(const std::string& product_name) {
  std::string name;
  for (const unsigned char c : product_name) {
    const bool keep = std::isalnum(c) || c == '-' || c == '_';
    if (keep && c < 128) {
      name += static_cast<char>(std::tolower(c));
    } else if (!name.empty() && name.back() != '_') {
      name += '_';
    }
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  while (!name.empty() && name.front() == '_') name.erase(name.begin());
  return name.empty() ? "part" : name;
}

CadAssembly CadAssembly::load(const std::filesystem::path& path) {
  check_readable(path);
  const std::string ext = lower_extension(path);
  auto impl = std::make_shared<Impl>();
  impl->path = path;
  if (ext == ".step" || ext == ".stp") {
    impl->kind = "step";
  } else if (ext == ".iges" || ext == ".igs") {
    impl->kind = "iges";
  } else {
    throw CadError(path.string() + ": an assembly is read from STEP (.step, .stp) or IGES (.iges, .igs), not '" + ext + "'");
  }
  try {
    const Handle(TDocStd_Document) doc = read_document(path, impl->kind);
    const Handle(XCAFDoc_ShapeTool) tool = XCAFDoc_DocumentTool::ShapeTool(doc->Main());
    TDF_LabelSequence roots;
    tool->GetFreeShapes(roots);
    StructureWalker walker(*impl, path.filename().string());
    for (const TDF_Label& root : roots) walker.walk(root, Placement{}, "");
    doc->Close();
  } catch (const Standard_Failure& e) {
    throw CadError(path.string() + ": OpenCASCADE failed reading it: " + e.GetMessageString());
  }
  if (impl->parts.empty()) throw CadError(path.string() + ": the file holds no part (no shape)");
  CadAssembly assembly;
  assembly.impl_ = std::move(impl);
  return assembly;
}

std::string CadAssembly::file_name() const { return impl_->path.filename().string(); }
std::string CadAssembly::kind() const { return impl_->kind; }
LengthUnit CadAssembly::unit() const { return LengthUnit::millimetre; }
const std::vector<std::string>& CadAssembly::warnings() const { return impl_->warnings; }
const std::vector<AssemblyPart>& CadAssembly::parts() const { return impl_->parts; }
const std::vector<AssemblyInstance>& CadAssembly::instances() const { return impl_->instances; }

std::uint32_t CadAssembly::part_index(const std::string& name) const {
  std::string names;
  for (std::size_t k = 0; k < impl_->parts.size(); ++k) {
    if (impl_->parts[k].name == name) return static_cast<std::uint32_t>(k);
    names += (names.empty() ? "" : ", ") + impl_->parts[k].name;
  }
  throw CadError(file_name() + ": no part named '" + name + "' (the parts are " + names + ")");
}

gp_Trsf transformation(const Placement& p) {
  gp_Trsf t;
  const Eigen::Matrix3d& r = p.rotation;
  const Eigen::Vector3d& o = p.translation;
  t.SetValues(r(0, 0), r(0, 1), r(0, 2), o[0], r(1, 0), r(1, 1), r(1, 2), o[1], r(2, 0), r(2, 1), r(2, 2), o[2]);
  return t;
}

CadModel CadAssembly::part_model(std::uint32_t part, const Placement& frame) const {
  gp_Trsf t = transformation(frame);
  t.Invert();
  const TopoDS_Shape moved = impl_->shapes.at(part).Moved(TopLoc_Location(t));
  return CadModelFaces::from_shape(moved, impl_->parts[part].name + ".step", impl_->kind, LengthUnit::millimetre);
}

}  // namespace surfdb

// Writes the STEP assemblies the `surfdb assemble` command-line test reads, with OpenCASCADE's
// XCAF: drop.step, loose parts held apart above a fixed base (a block used twice, a puck of brass,
// a material the file carries), and
// surface.step, a part given as a shell only (a surface model, no solid); huge.step, the base
// beside a block 200 m long (a part drawn in the wrong unit); bolted.step, the base with a
// bracket standing on it, a pin pressed into the bracket's hole (20 um wider than the hole) and
// a puck 2 mm above the bracket.
//   make_test_assembly DIR
#include <BRepAlgoAPI_Cut.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <BRepPrimAPI_MakeCylinder.hxx>
#include <STEPCAFControl_Writer.hxx>
#include <TDataStd_Name.hxx>
#include <TDocStd_Document.hxx>
#include <XCAFApp_Application.hxx>
#include <XCAFDoc_DocumentTool.hxx>
#include <XCAFDoc_MaterialTool.hxx>
#include <XCAFDoc_ShapeTool.hxx>
#include <gp_Trsf.hxx>

#include <cstdio>
#include <string>

namespace {

gp_Trsf moved(double x, double y, double z, double turn = 0) {
  gp_Trsf r, t;
  r.SetRotation(gp_Ax1(gp_Pnt(0, 0, 0), gp_Dir(0, 0, 1)), turn);
  t.SetTranslation(gp_Vec(x, y, z));
  return t * r;
}

enum class Variant { drop, surface_model, huge, bolted };

bool write(const std::string& path, Variant variant) {
  Handle(TDocStd_Document) doc;
  XCAFApp_Application::GetApplication()->NewDocument("MDTV-XCAF", doc);
  const Handle(XCAFDoc_ShapeTool) tool = XCAFDoc_DocumentTool::ShapeTool(doc->Main());
  const auto part = [&](const TopoDS_Shape& shape, const char* name) {
    const TDF_Label label = tool->AddShape(shape, false);
    TDataStd_Name::Set(label, name);
    return label;
  };
  const TDF_Label top = tool->NewShape();
  TDataStd_Name::Set(top, "Drop");
  // mm: the base's top face at z = 0; the parts 2 mm above it.
  const TDF_Label base = part(BRepPrimAPI_MakeBox(gp_Pnt(-60, -60, -10), 120, 120, 10).Shape(), "Base");
  tool->AddComponent(top, base, TopLoc_Location());
  if (variant == Variant::surface_model) {
    const TDF_Label skin = part(BRepPrimAPI_MakeBox(20, 20, 20).Shell(), "Skin");
    tool->AddComponent(top, skin, TopLoc_Location(moved(0, 0, 2)));
  } else if (variant == Variant::bolted) {
    // The bracket 40 x 40 x 20 on the base's top, a hole of radius 4 through it at x = 10; the
    // pin (radius 4.02, a press fit) 30 long from the base's top up through the hole; the puck
    // over the bracket's other half.
    const TopoDS_Shape box = BRepPrimAPI_MakeBox(gp_Pnt(-20, -20, 0), 40, 40, 20).Shape();
    const TopoDS_Shape hole = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(10, 0, -1), gp_Dir(0, 0, 1)), 4, 22).Shape();
    const TDF_Label bracket = part(BRepAlgoAPI_Cut(box, hole).Shape(), "Bracket");
    const TDF_Label pin = part(BRepPrimAPI_MakeCylinder(4.02, 30).Shape(), "Pin");
    const TDF_Label puck = part(BRepPrimAPI_MakeCylinder(6, 5).Shape(), "Puck");
    tool->AddComponent(top, bracket, TopLoc_Location());
    tool->AddComponent(top, pin, TopLoc_Location(moved(10, 0, 0)));
    tool->AddComponent(top, puck, TopLoc_Location(moved(-8, 0, 22)));
  } else if (variant == Variant::huge) {
    const TDF_Label beam = part(BRepPrimAPI_MakeBox(200000, 100, 100).Shape(), "Beam");
    tool->AddComponent(top, beam, TopLoc_Location(moved(0, 0, 2)));
  } else {
    const TDF_Label block = part(BRepPrimAPI_MakeBox(gp_Pnt(-15, -10, 0), 30, 20, 10).Shape(), "Block");
    const TDF_Label puck = part(BRepPrimAPI_MakeCylinder(10, 8).Shape(), "Puck");
    tool->AddComponent(top, block, TopLoc_Location(moved(-25, -20, 2)));
    tool->AddComponent(top, block, TopLoc_Location(moved(25, -20, 2, 0.5)));
    tool->AddComponent(top, puck, TopLoc_Location(moved(0, 25, 2)));
    // The puck is brass in the file: 8.5 g/cm^3, XCAF's unit.
    XCAFDoc_DocumentTool::MaterialTool(doc->Main())
        ->SetMaterial(puck, new TCollection_HAsciiString("brass"), new TCollection_HAsciiString(""), 8.5,
                      new TCollection_HAsciiString("density"), new TCollection_HAsciiString("POSITIVE_RATIO_MEASURE"));
  }
  tool->UpdateAssemblies();
  STEPCAFControl_Writer writer;
  writer.SetMaterialMode(true);
  return writer.Transfer(doc, STEPControl_AsIs) && writer.Write(path.c_str()) == IFSelect_RetDone;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_test_assembly DIR\n");
    return 2;
  }
  Message::DefaultMessenger()->ChangePrinters().Clear();  // the writer's statistics, not wanted
  const std::string dir = argv[1];
  return write(dir + "/drop.step", Variant::drop) && write(dir + "/surface.step", Variant::surface_model) &&
                 write(dir + "/huge.step", Variant::huge) && write(dir + "/bolted.step", Variant::bolted)
             ? 0
             : 1;
}

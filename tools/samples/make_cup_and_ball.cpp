// Writes the demonstration's parts (Machado, Flores and Ambrósio 2014, §6) with OpenCASCADE:
//   cup.step  a spherical bowl, inner radius 50 mm, wall 5 mm, the half below its centre's plane
//   ball.igs  the marble ball, radius 10 mm
// Both spheres have their parametric poles on the x axis, so the contact region at the bottom
// (-z) lies at mid-latitude of the parameterisation, far from the poles (docs/demo.md).
// Usage: make_cup_and_ball OUTDIR
#include <BRepAlgoAPI_Cut.hxx>
#include <BRepPrimAPI_MakeSphere.hxx>
#include <IGESControl_Controller.hxx>
#include <IGESControl_Writer.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <STEPControl_Writer.hxx>
#include <gp_Ax2.hxx>

#include <cstdio>
#include <filesystem>
#include <numbers>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_cup_and_ball OUTDIR\n");
    return 2;
  }
  Message::DefaultMessenger()->ChangePrinters().Clear();
  const std::filesystem::path dir = argv[1];
  constexpr double pi = std::numbers::pi;
  // Pole axis x; longitude 0 at -y, pi/2 at -z, pi at +y: longitudes [0, pi] are the lower half.
  const gp_Ax2 axes(gp_Pnt(0, 0, 0), gp::DX(), -gp::DY());

  const TopoDS_Shape outer = BRepPrimAPI_MakeSphere(axes, 55.0, -pi / 2, pi / 2, pi).Shape();
  const TopoDS_Shape inner = BRepPrimAPI_MakeSphere(axes, 50.0, -pi / 2, pi / 2, pi).Shape();
  BRepAlgoAPI_Cut bowl(outer, inner);
  if (!bowl.IsDone()) {
    std::fprintf(stderr, "make_cup_and_ball: the boolean cut failed\n");
    return 1;
  }
  STEPControl_Writer step;
  if (step.Transfer(bowl.Shape(), STEPControl_AsIs) != IFSelect_RetDone ||
      step.Write((dir / "cup.step").c_str()) != IFSelect_RetDone) {
    std::fprintf(stderr, "make_cup_and_ball: cannot write cup.step\n");
    return 1;
  }

  const TopoDS_Shape ball = BRepPrimAPI_MakeSphere(gp_Ax2(gp_Pnt(0, 0, 0), gp::DX(), -gp::DY()), 10.0).Shape();
  IGESControl_Controller::Init();
  IGESControl_Writer iges("MM", 1);  // B-rep mode: faces, orientation kept
  if (!iges.AddShape(ball) || !(iges.ComputeModel(), iges.Write((dir / "ball.igs").c_str()))) {
    std::fprintf(stderr, "make_cup_and_ball: cannot write ball.igs\n");
    return 1;
  }
  std::printf("wrote %s and %s\n", (dir / "cup.step").c_str(), (dir / "ball.igs").c_str());
  return 0;
}

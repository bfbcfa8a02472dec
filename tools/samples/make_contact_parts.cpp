// Writes the parts of samples/parts_in_contact (contact_parts.hpp) as STEP files:
//   v_groove.step  a block with a 90-degree V-groove
//   seam_plate.step  a plate whose top is two coplanar faces
//   fillet_ramp.step  a flat, a cylindrical fillet and a slope
//   bowl.step  a hemispherical bowl, inner radius 60 mm
//   holed_plate.step  a plate with a round through-hole of radius 5 mm
//   ball.step  a ball of radius 10 mm
//   rod.step  a rod of radius 5 mm, 30 mm long
//   block.step  a block 20 x 10 x 6 mm
// Usage: make_contact_parts OUTDIR
#include <Message.hxx>
#include <Message_Messenger.hxx>

#include <cstdio>
#include <exception>

#include "contact_parts.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_contact_parts OUTDIR\n");
    return 2;
  }
  Message::DefaultMessenger()->ChangePrinters().Clear();
  const std::filesystem::path dir = argv[1];
  namespace s = surfdb::samples;
  try {
    s::write_step(s::v_groove_block(), dir / "v_groove.step");
    s::write_step(s::seam_plate(), dir / "seam_plate.step");
    s::write_step(s::fillet_ramp(), dir / "fillet_ramp.step");
    s::write_step(s::bowl(), dir / "bowl.step");
    s::write_step(s::holed_plate(), dir / "holed_plate.step");
    s::write_step(s::ball(10), dir / "ball.step");
    s::write_step(s::rod(30), dir / "rod.step");
    s::write_step(s::block(), dir / "block.step");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_contact_parts: %s\n", e.what());
    return 1;
  }
  std::printf("wrote the parts into %s\n", dir.c_str());
  return 0;
}

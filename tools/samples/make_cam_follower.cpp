// Writes the cam-follower benchmark's parts (cam_parts.hpp; issue 18) as STEP files, lengths in mm:
//   cam_flat.step       the disc cam for a flat-faced follower
//   cam_sphere.step     the disc cam for a spherical follower of radius 8 mm
//   follower_flat.step  the flat follower's plate, its contact face y = 0
// and prints the profiles' smallest radii of curvature (positive: convex, no undercut).
// Usage: make_cam_follower OUTDIR
#include <Message.hxx>
#include <Message_Messenger.hxx>

#include <cstdio>
#include <exception>

#include "cam_parts.hpp"
#include "contact_parts.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_cam_follower OUTDIR\n");
    return 2;
  }
  Message::DefaultMessenger()->ChangePrinters().Clear();
  const std::filesystem::path dir = argv[1];
  namespace c = surfdb::samples::cam;
  try {
    surfdb::samples::write_step(c::cam(c::Follower::flat, c::kProfileNodes), dir / "cam_flat.step");
    surfdb::samples::write_step(c::cam(c::Follower::sphere, c::kProfileNodes), dir / "cam_sphere.step");
    surfdb::samples::write_step(c::follower_plate(), dir / "follower_flat.step");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_cam_follower: %s\n", e.what());
    return 1;
  }
  const int samples = 100 * c::kProfileNodes;
  std::printf("smallest radius of curvature: flat cam %.4f mm, spherical-follower cam %.4f mm\n",
              c::smallest_flat_radius(samples), c::smallest_sphere_radius(samples));
  std::printf("wrote the parts into %s\n", dir.c_str());
  return 0;
}

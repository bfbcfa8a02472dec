// The parts of samples/parts_in_contact, built with OpenCASCADE (lengths in mm), shared by the
// sample's generator (make_contact_parts) and the tests that check contact on them against
// closed forms. Each function documents where the faces a ball touches lie.
#pragma once

#include <TopoDS_Shape.hxx>

#include <filesystem>

namespace surfdb::samples {

/// A block with a 90-degree V-groove along x (x from -30 to 30): the groove's bottom line is the
/// x axis, its walls the planes z = -y (y from -25 to 0) and z = y (y from 0 to 25); the block's
/// underside is z = -10. Seven faces; the walls share the bottom line's edge.
TopoDS_Shape v_groove_block();
inline constexpr double kGrooveHalfWidth = 25;  // mm

/// A plate whose top, z = 0 over x in [-50, 50] and y in [-20, 20], is two faces meeting along
/// the line x = 0 (two boxes fused, their common face removed, the top left split).
TopoDS_Shape seam_plate();

/// A ramp: a flat top z = 0 (x from -60), a cylindrical fillet of radius kFilletRadius, then a
/// slope falling at kRampAngle, over y in [-20, 20]. The sharp edge the fillet rounds lies on the
/// y axis; the fillet's axis is the line x = -r tan(angle/2), z = -r.
TopoDS_Shape fillet_ramp();
inline constexpr double kFilletRadius = 20;    // mm
inline constexpr double kRampAngleDeg = 10;    // degrees below the horizontal

/// A hemispherical bowl, inner radius kBowlRadius, wall 5 mm, centred at the origin (the half
/// below z = 0); its parameter poles lie on the x axis, away from the bottom.
TopoDS_Shape bowl();
inline constexpr double kBowlRadius = 60;  // mm

/// A plate with a round through-hole: x in [-kPlateHalfLength, kPlateHalfLength], y in [-20, 20],
/// z in [-10, 0], the hole of radius kHoleRadius along the z axis. Its top and sides meet at
/// 90-degree convex edges; the hole's rims are circles of radius kHoleRadius at z = 0 and -10.
TopoDS_Shape holed_plate();
inline constexpr double kPlateHalfLength = 30;  // mm
inline constexpr double kHoleRadius = 5;        // mm

/// A rod: a solid cylinder of radius kRodRadius along the x axis from -length/2 to length/2,
/// centred at the origin. Three faces: the lateral face and two flat ends, whose rims are circles
/// of radius kRodRadius at x = -length/2 and length/2.
TopoDS_Shape rod(double length);
inline constexpr double kRodRadius = 5;  // mm

/// A block: x in [-kBlockX/2, kBlockX/2], y in [-kBlockY/2, kBlockY/2], z in [-kBlockZ/2,
/// kBlockZ/2]. Six flat faces; its underside's edges are kBlockX and kBlockY long.
TopoDS_Shape block();
inline constexpr double kBlockX = 20, kBlockY = 10, kBlockZ = 6;  // mm

/// A sphere of radius r centred at the origin, its parameter poles on the x axis.
TopoDS_Shape ball(double radius);

/// Writes a shape as STEP (AP214, mm). Throws std::runtime_error when it cannot.
void write_step(const TopoDS_Shape& shape, const std::filesystem::path& path);

}  // namespace surfdb::samples

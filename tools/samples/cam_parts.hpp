// The cam-follower benchmark's parts (samples/cam_follower, issue 18), built with OpenCASCADE,
// lengths in mm; the motion law and its constants are cam_law.hpp's.
//
// Convention. The cam turns about its own z axis (through the part's origin), counter-clockwise
// seen from +z; theta is the angle it has turned. The follower translates along the world +y axis
// above the cam, with displacement s(theta) from its lowest position. In the cam's own axes the
// follower's direction is therefore e(theta) = (sin theta, cos theta, 0), and
// e'(theta) = de/dtheta = (cos theta, -sin theta, 0); e' maps to the world +x axis at every theta.
// At theta = 0 the cam's axes are the world's and the contact lies on the cam's +y axis.
//
// Each cam's profile is a closed curve p(theta) in the plane z = 0 of its axes, traversed clockwise
// seen from +z as theta grows (the contact point runs backwards over a cam turning forwards):
//   flat-faced follower, face x . e(theta) = R_b + s:  c(theta) = (R_b + s) e + s' e'
//     (the envelope of the face lines; convex where R_b + s + s'' > 0);
//   spherical follower of radius r_f, centre on the pitch curve q(theta) = rho e, rho = R_b + r_f + s:
//     c(theta) = q - r_f n, n = (rho e - rho' e') / sqrt(rho^2 + rho'^2) the pitch curve's outward
//     unit normal (its tangent is rho' e + rho e', turned a quarter counter-clockwise).
// The cam is the profile interpolated by a periodic degree-5 B-spline on uniform periodic knots whose
// parameter is theta itself (node k at theta = 2 pi k / nodes), bounding a planar face extruded
// kThickness along z, centred on z = 0. The solid has three faces; `surfdb convert --list-faces`
// numbers the lateral one 1 (a surface of linear extrusion of the profile, forward, its normal out
// of the cam: u = theta, periodic in [0, 2 pi]; v in [-kThickness, 0] with z = -kThickness/2 - v,
// OpenCASCADE's extrusion running along -z, so v = -5 is mid-thickness), the two flat ends 2 and 3.
// The flat follower's plate: see follower_plate() for its contact face's number.
#pragma once

#include <Geom_BSplineCurve.hxx>
#include <TopoDS_Shape.hxx>
#include <gp_Pnt.hxx>

namespace surfdb::samples::cam {

/// The closed-form profiles at cam angle theta, in the cam's axes, z = 0.
gp_Pnt flat_profile(double theta);
gp_Pnt sphere_profile(double theta);
/// The spherical follower's centre at cam angle theta, in the cam's axes: (R_b + r_f + s) e(theta).
gp_Pnt pitch_point(double theta);

/// The profile's smallest radius of curvature over a turn, sampled at `samples` angles, mm
/// (flat: R_b + s + s''; spherical: the pitch curve's less r_f). Positive: a convex cam without undercut.
double smallest_flat_radius(int samples);
double smallest_sphere_radius(int samples);

enum class Follower { flat, sphere };

/// The profile for the follower kind as a periodic degree-5 B-spline through the closed form at
/// `nodes` uniform angles (parameter = theta, range [0, 2 pi]), in the plane z = z0.
/// Throws std::runtime_error when the collocation system cannot be solved.
Handle(Geom_BSplineCurve) profile_curve(Follower kind, int nodes, double z0 = 0);

/// The cam: the profile's face extruded kThickness along z, centred on z = 0 (faces as above).
TopoDS_Shape cam(Follower kind, int nodes);

/// The flat follower's plate in the follower's own axes: x in [-20, 20], y in [0, 5], z in [-7, 7].
/// Its contact face, around y = 0 (outward normal -y), is crowned across z: a cylinder of radius
/// kCrownRadius about the line y = kCrownRadius, z = 0 (parallel to x), touching the plane y = 0 along
/// the x axis and rising kCrownRadius - sqrt(kCrownRadius^2 - 7^2) = 0.049 mm at its edges. Against
/// the cam, which is straight along z, it touches at z = 0 where its tangent plane is y = 0: the
/// flat-faced follower's law holds exactly, and the contact is a point rather than a line (the
/// common-normal solve of two tables has a singular Jacobian along a line contact). 40 mm wide
/// against the contact's travel of +-max|s'| = 9.55 mm along x.
TopoDS_Shape follower_plate();
inline constexpr double kPlateHalfWidth = 20;  // mm, along x
inline constexpr double kPlateHalfDepth = 7;   // mm, along z
inline constexpr double kCrownRadius = 500;    // mm

/// The node count the sample's STEP files use.
inline constexpr int kProfileNodes = 1440;

}  // namespace surfdb::samples::cam

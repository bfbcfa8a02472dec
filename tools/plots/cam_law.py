"""The cam-follower benchmark's motion law and cam profiles in closed form (tools/samples/cam_law.hpp
and cam_parts.hpp say the same in C++; samples/cam_follower). Lengths in mm, the cam angle theta in
rad, derivatives with respect to theta; every function takes numpy arrays."""
import numpy as np

BASE_RADIUS = 40.0      # R_b, mm
LIFT = 10.0             # h, mm
FOLLOWER_RADIUS = 8.0   # r_f, mm
RISE = 2 * np.pi / 3    # beta, rad: the rise's and the return's span


def lift(theta):
    """s, s', s'' (mm, mm/rad, mm/rad^2): cycloidal rise over [0, 2pi/3], dwell at h to pi,
    cycloidal return over [pi, 5pi/3], dwell at 0 to 2pi; periodic."""
    a = np.mod(np.asarray(theta, dtype=float), 2 * np.pi)
    s, ds, dds = np.zeros_like(a), np.zeros_like(a), np.zeros_like(a)
    two_pi = 2 * np.pi
    for lo, sign, base in ((0.0, 1.0, 0.0), (np.pi, -1.0, LIFT)):
        on = (a >= lo) & (a < lo + RISE)
        x = (a[on] - lo) / RISE
        s[on] = base + sign * LIFT * (x - np.sin(two_pi * x) / two_pi)
        ds[on] = sign * LIFT / RISE * (1 - np.cos(two_pi * x))
        dds[on] = sign * LIFT / RISE**2 * two_pi * np.sin(two_pi * x)
    s[(a >= RISE) & (a < np.pi)] = LIFT
    return s, ds, dds


def _in_plane(r_e, r_de, theta):
    """r_e e(theta) + r_de e'(theta), e = (sin, cos), e' = (cos, -sin): x and y in the cam's axes."""
    return r_e * np.sin(theta) + r_de * np.cos(theta), r_e * np.cos(theta) - r_de * np.sin(theta)


def flat_profile(theta):
    """The flat-faced follower's cam: (R_b + s) e + s' e'."""
    s, ds, _ = lift(theta)
    return _in_plane(BASE_RADIUS + s, ds, theta)


def sphere_profile(theta):
    """The spherical follower's cam: the pitch curve rho e (rho = R_b + r_f + s) less r_f along its
    outward normal (rho e - rho' e') / |.|."""
    s, ds, _ = lift(theta)
    rho = BASE_RADIUS + FOLLOWER_RADIUS + s
    norm = np.hypot(rho, ds)
    return _in_plane(rho - FOLLOWER_RADIUS * rho / norm, FOLLOWER_RADIUS * ds / norm, theta)

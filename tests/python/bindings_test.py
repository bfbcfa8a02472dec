"""The Python module against independent answers: the `surfdb` command (the C++ API, printed to
17 digits, so equal means bit-identical), the C API through ctypes, the closed-form sphere, and
the command's own conversion (byte-identical files).

The comparisons with the command and the C API are surfdb against itself through another binding,
on purpose (a binding must add and lose nothing); each such test class also checks the closed
form (sphere points, projections, the ball-in-cup contact), which both would fail if wrong alike.
The conversion of cup.step is compared with the command's only.

Usage: bindings_test.py PATH/TO/surfdb PATH/TO/libsurfdb_c.so SOURCE_DIR   (PYTHONPATH=build/python)
"""
import ctypes
import math
import os
import subprocess
import sys
import tempfile
import threading
import unittest

import numpy as np
import surfdb

SURFDB, RUNTIME_LIBRARY, SOURCE = sys.argv[1:4]
CUP_STEP = os.path.join(SOURCE, "samples/slider_crank_cup_ball/cup.step")
# A 60 x 40 x 10 mm plate, top face at z = 0, with a through-hole of radius 5 mm on the z axis.
HOLED_PLATE_STEP = os.path.join(SOURCE, "samples/parts_in_contact/holed_plate.step")
# Surface z (the pole axis) along body x, surface x along body -z: the contact region at the
# bottom of ball and cup sits at (u, v) = (0, 0), far from the poles (tests/support/ball_and_cup.hpp).
MOUNT_ROTATION = np.array([[0.0, 0, 1], [0, 1, 0], [-1, 0, 0]])


def run(*args, stdin=None):
    return subprocess.run([SURFDB, *args], input=stdin, capture_output=True, text=True, check=True).stdout


def csv_rows(text):
    lines = text.strip().splitlines()
    header = lines[0].split(",")
    return header, [[float(x) for x in line.split(",")] for line in lines[1:]]


class Tables:
    dir = tempfile.TemporaryDirectory()
    octant = os.path.join(dir.name, "octant.sdb")
    ball = os.path.join(dir.name, "ball.sdb")
    cup = os.path.join(dir.name, "cup.sdb")
    run("convert", "--analytic", "octant", "--grid", "301x301", "--record", "20x20", "-o", octant)
    run("convert", "--analytic", "sphere", "--radius", "10", "--grid", "401x401", "--record", "20x20", "-o", ball)
    run("convert", "--analytic", "sphere", "--radius", "50", "--u-range", str(-math.pi / 2), str(math.pi / 2),
        "--grid", "401x401", "--record", "20x20", "--flip-normals", "-o", cup)


class QueryTest(unittest.TestCase):
    def test_query_equals_the_command_bit_for_bit(self):
        rng = np.random.default_rng(3)
        u = rng.uniform(-0.1, 1.7, 2000)  # some outside the octant's domain
        v = rng.uniform(0, math.pi / 2, 2000)
        q = surfdb.Database(Tables.octant).binding(window=(5, 5)).query(u, v)
        header, rows = csv_rows(run("query", Tables.octant, "--batch", "-",
                                    stdin="".join(f"{a!r} {b!r}\n" for a, b in zip(u, v))))
        c = np.array(rows)
        col = {name: k for k, name in enumerate(header)}
        for name, values in (("u", q.u), ("v", q.v), ("x", q.p[:, 0]), ("ny", q.n[:, 1]), ("tz", q.t[:, 2]),
                             ("bx", q.b[:, 0])):
            np.testing.assert_array_equal(values, c[:, col[name]], err_msg=name)
        np.testing.assert_array_equal(q.valid, c[:, col["valid"]] == 1)
        self.assertTrue((q.status[u > math.pi / 2] == 1).all())  # outside_domain
        self.assertTrue(q.valid[(u >= 0) & (u <= math.pi / 2)].all())

    def test_octant_points_lie_on_the_sphere(self):
        g = np.linspace(0, math.pi / 2, 301)
        u, v = np.meshgrid(g[:-1] + 0.37 * (g[1] - g[0]), g[:-1] + 0.61 * (g[1] - g[0]))
        b = surfdb.Database(Tables.octant).binding(interpolation="curved")
        q = b.query(u, v)
        self.assertEqual(q.p.shape, u.shape + (3,))
        r = np.linalg.norm(q.p, axis=-1)
        # Curved interpolation leaves O(h^4) radially (h = pi/600 the cell's angle): measured
        # 2.6e-11 = h^4 / 29, bound h^4 / 6 = 1.25e-10 (was 1e-9, 38 times the error).
        # catches: interpolation="curved" ignored by the binding (chord error h^2 / 8 = 3.4e-6).
        h = math.pi / 600
        np.testing.assert_allclose(r, 50.0, rtol=h**4 / 6)
        np.testing.assert_allclose(np.einsum("...i,...i", q.n, q.n), 1.0, rtol=1e-12)
        np.testing.assert_allclose(np.cross(q.n, q.t), q.b, atol=1e-12)

    def test_query_d1_matches_query_and_its_slopes(self):
        h = (math.pi / 2) / 300  # the 301 x 301 octant's cell, in u and in v
        rng = np.random.default_rng(3)
        u, v = ((rng.integers(5, 290, 2000) + rng.uniform(0.1, 0.9, 2000)) * h for _ in range(2))  # clear of grid lines
        b = surfdb.Database(Tables.octant).binding()
        q, d = b.query(u, v), b.query_d1(u, v)
        np.testing.assert_array_equal(d.p, q.p)
        np.testing.assert_array_equal(d.n, q.n)
        np.testing.assert_array_equal(d.status, q.status)
        # Inside a cell the bilinear point is linear along u at fixed v (and along v at fixed u):
        # a small step's difference quotient is the derivative, to rounding: |p| eps / step = 1.1e-9,
        # measured 2.5e-9, bound 1e-8 (was 1e-6, 400 times). catches: dp_du and dp_dv swapped
        # in the numpy arrays, derivatives per cell instead of per radian (factor 1/h = 191).
        step = 1e-3 * h
        np.testing.assert_allclose((b.query_d1(u + step, v).p - d.p) / step, d.dp_du, atol=1e-8, rtol=0)
        np.testing.assert_allclose((b.query_d1(u, v + step).p - d.p) / step, d.dp_dv, atol=1e-8, rtol=0)

    def test_scalars_give_single_points(self):
        q = surfdb.Database(Tables.octant).binding().query(0.3, 0.9)
        self.assertEqual(q.p.shape, (3,))
        self.assertEqual(q.status.shape, ())
        exact = 50 * np.array([math.cos(0.3) * math.cos(0.9), math.cos(0.3) * math.sin(0.9), math.sin(0.3)])
        # The chord bound of the 301 x 301 grid, 3.4e-4 mm; measured 1.6e-4 mm (was 1e-3 mm).
        # catches: a scalar query answered for (v, u) (points 9 mm apart here).
        cell = math.pi / 2 / 300
        np.testing.assert_allclose(q.p, exact, atol=50 * 2 * cell**2 / 8)

    def test_projection_equals_the_command_and_the_closed_form(self):
        rng = np.random.default_rng(5)
        directions = np.abs(rng.normal(size=(300, 3)))
        directions /= np.linalg.norm(directions, axis=1, keepdims=True)
        points = directions * rng.uniform(30, 70, (300, 1))
        pr = surfdb.Database(Tables.octant).binding().project(points)
        header, rows = csv_rows(run("project", Tables.octant, "--batch", "-",
                                    stdin="".join(" ".join(repr(x) for x in p) + "\n" for p in points)))
        c = np.array(rows)
        col = {name: k for k, name in enumerate(header)}
        np.testing.assert_array_equal(pr.p, c[:, [col["x"], col["y"], col["z"]]])
        np.testing.assert_array_equal(pr.distance, c[:, col["distance"]])
        self.assertTrue(pr.converged.all())
        cell = math.pi / 2 / 300
        chord = 50 * 2 * cell**2 / 8  # a bilinear cell's largest distance from the sphere, 3.4e-4 mm
        np.testing.assert_allclose(pr.p, 50 * directions, atol=chord)
        # The octant's normals point to its centre: positive distances lie inside.
        np.testing.assert_allclose(pr.distance, 50 - np.linalg.norm(points, axis=1), atol=chord)

    def test_bindings_on_threads_agree_with_one_thread(self):
        db = surfdb.Database(Tables.octant)
        s = np.linspace(0, 1, 200_000)  # a path, so that the small windows below follow it
        u, v = 1.5 * s, 0.2 + 1.3 * s**2
        expected = db.binding().query(u, v).p
        results = [None] * 4

        def work(k):
            results[k] = db.binding(window=(3, 3)).query(u, v).p

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for r in results:
            np.testing.assert_array_equal(r, expected)

    def test_window_statistics(self):
        b = surfdb.Database(Tables.octant).binding(window=(5, 5))
        b.query(np.linspace(0.01, 1.5, 5000), np.full(5000, 0.7))
        s = b.stats
        self.assertGreater(s["updates"], 0)
        self.assertLessEqual(s["bytes_resident"], 25 * 20 * 20 * 19 * 8)


class ContactTest(unittest.TestCase):
    def setUp(self):
        self.ball, self.cup = surfdb.Database(Tables.ball), surfdb.Database(Tables.cup)
        self.mount = surfdb.Mount(rotation=MOUNT_ROTATION)

    def evaluate(self, position, velocity):
        contact = surfdb.Contact(self.ball, self.cup, self.mount, self.mount)
        return contact.evaluate(surfdb.BodyState(position, velocity=velocity), surfdb.BodyState())

    def test_ball_in_cup_against_the_closed_form(self):
        for centre in ([0.001, -0.002, -0.04001], [0.0, 0.003, -0.040002], [0.0, 0.0, -0.0395]):
            r = self.evaluate(np.array(centre), np.array([0.0, 0.0, -0.1]))
            c = np.linalg.norm(centre)
            self.assertEqual(r.status, "touching" if c + 0.010 > 0.050 else "separated")
            if r.touching:
                # The curved interpolants' radial error, O(R h^4) (h = pi/400: 1.9e-10 m for the cup):
                # measured 9.8e-13 m, bound 4e-12 m (was 1e-3 of the indentation, 2e-8 m).
                # catches: metres and millimetres mixed (1000 times), the sign of the indentation.
                self.assertAlmostEqual(r.indentation, c + 0.010 - 0.050, delta=4e-12)
                # These centres put the contact on node lines: measured 4.4e-16, bound 1e-14
                # (rounding; was 1e-6). catches: the normal of the ball instead of the cup's (sign).
                np.testing.assert_allclose(r.normal, -np.array(centre) / c, atol=1e-14)
            else:
                # On the node (0, 0) of both tables: exact, measured 0. Bound 1e-15 m (was 1e-8 m).
                self.assertAlmostEqual(r.gap, 0.050 - 0.010 - c, delta=1e-15)

    def test_contact_equals_the_c_api_bit_for_bit(self):
        lib = ctypes.CDLL(RUNTIME_LIBRARY)
        d3, d9 = ctypes.c_double * 3, ctypes.c_double * 9

        class Mount(ctypes.Structure):
            _fields_ = [("offset", d3), ("rotation", d9)]

        class Body(ctypes.Structure):
            _fields_ = [("r", d3), ("rotation", d9), ("velocity", d3), ("angular_velocity", d3)]

        class Result(ctypes.Structure):
            _fields_ = [("status", ctypes.c_int), ("iterations", ctypes.c_int), ("u_i", ctypes.c_double),
                        ("v_i", ctypes.c_double), ("u_j", ctypes.c_double), ("v_j", ctypes.c_double),
                        ("point_i", d3), ("point_j", d3), ("normal", d3), ("indentation", ctypes.c_double),
                        ("gap", ctypes.c_double), ("indentation_rate", ctypes.c_double),
                        ("tangential_velocity", d3), ("curvature_i", ctypes.c_double),
                        ("curvature_j", ctypes.c_double)]

        handles = [ctypes.c_void_p(), ctypes.c_void_p()]
        for path, h in zip((Tables.ball, Tables.cup), handles):
            self.assertEqual(lib.surfdb_open(path.encode(), ctypes.byref(h)), 0)
        m = Mount(d3(0, 0, 0), d9(*MOUNT_ROTATION.ravel()))
        c = ctypes.c_void_p()
        self.assertEqual(lib.surfdb_contact_create(handles[0], ctypes.byref(m), handles[1], ctypes.byref(m),
                                                   ctypes.byref(c)), 0)
        eye = d9(1, 0, 0, 0, 1, 0, 0, 0, 1)
        bi = Body(d3(0.001, -0.002, -0.04001), eye, d3(0.02, 0, -0.1), d3(0, 0, 0))
        bj = Body(d3(0, 0, 0), eye, d3(0, 0, 0), d3(0, 0, 0))
        out = Result()
        self.assertEqual(lib.surfdb_contact_evaluate(c, ctypes.byref(bi), ctypes.byref(bj), ctypes.byref(out)), 0)
        r = self.evaluate(np.array([0.001, -0.002, -0.04001]), np.array([0.02, 0, -0.1]))
        self.assertEqual(out.status, 1)
        self.assertEqual(r.indentation, out.indentation)
        self.assertEqual(r.indentation_rate, out.indentation_rate)
        self.assertEqual(list(r.normal), list(out.normal))
        self.assertEqual(list(r.point_j), list(out.point_j))
        self.assertEqual(list(r.tangential_velocity), list(out.tangential_velocity))
        self.assertEqual(r.uv_i, (out.u_i, out.v_i))
        lib.surfdb_contact_destroy(c)
        for h in handles:
            lib.surfdb_close(h)


class ShapesAndSetsTest(unittest.TestCase):
    """Contact with surface sets and analytic shapes, against closed forms: a ball on a plane, on a
    box's edge, in the cup's table, and on the holed plate's face, outer edge and hole rim."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.plate = os.path.join(cls.dir.name, "plate.sdbs")
        run("convert", HOLED_PLATE_STEP, "--all-faces", "--spacing", "1", "--max-grid", "999", "-o", cls.plate)

    def ball_at(self, contact, centre):
        return contact.points(surfdb.BodyState(np.array(centre)), surfdb.BodyState())

    def test_a_ball_on_a_plane(self):
        contact = surfdb.Contact({"sphere_radius": 0.01}, {"plane_normal": [0, 0, 1]})
        (p,) = self.ball_at(contact, [0.3, -0.2, 0.0099])
        self.assertAlmostEqual(p.indentation, 1e-4, delta=1e-15)
        np.testing.assert_allclose(p.normal, [0, 0, 1], atol=1e-15)  # catches: the normal of the ball (sign)
        self.assertEqual(self.ball_at(contact, [0, 0, 0.0101]), [])
        self.assertAlmostEqual(contact.evaluate(surfdb.BodyState(np.array([0, 0, 0.0101])), surfdb.BodyState()).gap,
                               1e-4, delta=1e-15)

    def test_a_ball_on_a_box_edge(self):
        # Box 0.1 m a side on body j, moved 1 m along x by its mount: the ball's centre 5 mm out
        # of both faces at the edge x = 1.05, z = 0.05; R 8 mm: indentation 8 - 5 sqrt(2) mm.
        contact = surfdb.Contact({"sphere_radius": 0.008}, {"box_size": [0.1, 0.1, 0.1]},
                                 mount_j=surfdb.Mount(offset=np.array([1.0, 0, 0])))
        (p,) = self.ball_at(contact, [1.055, 0.01, 0.055])
        self.assertAlmostEqual(p.indentation, 0.008 - 0.005 * math.sqrt(2), delta=1e-15)
        np.testing.assert_allclose(p.normal, np.array([1, 0, 1]) / math.sqrt(2), atol=1e-15)

    def test_a_ball_in_the_cup_table(self):
        contact = surfdb.Contact({"sphere_radius": 0.010}, surfdb.Database(Tables.cup),
                                 mount_j=surfdb.Mount(rotation=MOUNT_ROTATION))
        centre = np.array([0.001, -0.002, -0.04001])
        (p,) = self.ball_at(contact, centre)
        c = np.linalg.norm(centre)
        self.assertAlmostEqual(p.indentation, c + 0.010 - 0.050, delta=1e-10)
        np.testing.assert_allclose(p.normal, -centre / c, atol=1e-8)

    def test_a_ball_on_the_holed_plate_set(self):
        contact = surfdb.Contact({"sphere_radius": 0.005}, {"table": self.plate})
        # Its top face, far from the edges: indentation 0.1 mm along +z.
        (p,) = self.ball_at(contact, [0.015, 0.01, 0.0049])
        self.assertAlmostEqual(p.indentation, 1e-4, delta=1e-12)
        np.testing.assert_allclose(p.normal, [0, 0, 1], atol=1e-12)
        # Over its outer edge x = 30 mm at 45 degrees: one point, along the resultant of the load per
        # length p(s) = k' delta(s) (Hertz, n = 3/2) over the overlapped chord (contact_sphere_edge.hpp),
        # delta(s) = R - sqrt(d0^2 + s^2), each along its own direction: the resultant is
        # k' d0 integral (R / sqrt(d0^2 + s^2) - 1) ds = 2 k' d0 (R asinh(a / d0) - a), a the chord's
        # half, and the indentation the one Hertz's law gives it, k' = K / (sqrt(2R) B(1/2, 2)).
        centre, R = np.array([0.0332, 0.0, 0.0032]), 0.005
        d0 = 3.2e-3 * math.sqrt(2)
        a = math.sqrt(R * R - d0 * d0)
        resultant = 2 * d0 * (R * math.asinh(a / d0) - a)
        (p,) = self.ball_at(contact, centre)
        self.assertAlmostEqual(p.indentation / (resultant / (math.sqrt(2 * R) * 4 / 3)) ** (2 / 3), 1, delta=1e-5)
        np.testing.assert_allclose(p.normal, np.array([1, 0, 1]) / math.sqrt(2), atol=1e-9)
        # 2.2 mm deep there: a point that deep cannot begin (a thin part's far face would), so none.
        self.assertEqual(self.ball_at(contact, [0.032, 0.0, 0.002]), [])
        # Over the hole (r 5 mm), 1 mm off its axis along y (away from the hole's seam at +x), R 8 mm:
        # the load spreads along the rim's arc under the ball; its resultant summed here over the
        # exact circle. The rim is tabulated by chords 0.19 um inside the circle at most: 0.3 % of
        # this 42 um indentation.
        R, r, centre = 0.008, 0.005, np.array([0.0, 0.001, 0.0069])
        phi = np.linspace(0, 2 * math.pi, 200000, endpoint=False)
        d = centre - np.stack([r * np.cos(phi), r * np.sin(phi), 0 * phi], 1)
        distance = np.linalg.norm(d, axis=1)
        load = (np.clip(R - distance, 0, None)[:, None] * d / distance[:, None]).sum(0) * (2 * math.pi * r / len(phi))
        expected = (np.linalg.norm(load) / (math.sqrt(2 * R) * 4 / 3)) ** (2 / 3)
        contact = surfdb.Contact({"sphere_radius": R}, {"table": self.plate})
        (p,) = self.ball_at(contact, centre)
        self.assertAlmostEqual(p.indentation / expected, 1, delta=0.005)
        np.testing.assert_allclose(p.normal, load / np.linalg.norm(load), atol=1e-4)

    def test_bad_surfaces_are_refused_naming_the_problem(self):
        with self.assertRaisesRegex(surfdb.ScenarioError, "surface_j.*sphere_radius.*positive"):
            surfdb.Contact({"sphere_radius": 0.01}, {"sphere_radius": -1.0})
        with self.assertRaisesRegex(ValueError, "'origin' is the Contact's to give"):
            surfdb.Contact({"sphere_radius": 0.01, "origin": [0, 0, 1]}, {"plane_normal": [0, 0, 1]})
        with self.assertRaisesRegex(ValueError, "a sphere \\(surface_i\\)"):
            surfdb.Contact({"plane_normal": [0, 0, 1]}, {"sphere_radius": 0.01})
        with self.assertRaisesRegex(surfdb.ScenarioError, "no_such.sdbs"):
            surfdb.Contact({"sphere_radius": 0.01}, {"table": "no_such.sdbs"})


class ConvertTest(unittest.TestCase):
    def test_convert_writes_what_the_command_writes(self):
        with tempfile.TemporaryDirectory() as d:
            calls = []
            report = surfdb.convert(CUP_STEP, os.path.join(d, "py.sdb"), face=4, grid=(101, 81), record=(10, 10),
                                    progress=lambda done, total: calls.append((done, total)))
            run("convert", CUP_STEP, "--face", "4", "--grid", "101x81", "--record", "10x10",
                "-o", os.path.join(d, "cli.sdb"))
            with open(os.path.join(d, "py.sdb"), "rb") as a, open(os.path.join(d, "cli.sdb"), "rb") as b:
                self.assertEqual(a.read(), b.read())
            self.assertEqual(report["grid"], (101, 81))
            self.assertEqual(calls[-1][0], calls[-1][1])
            self.assertEqual(surfdb.Database(os.path.join(d, "py.sdb")).verify(), 0)

    def test_faces(self):
        faces = surfdb.faces(CUP_STEP)
        self.assertEqual([f["surface_type"] for f in faces], ["Sphere", "Plane", "Plane", "Sphere"])


class ErrorTest(unittest.TestCase):
    def test_bad_inputs_raise_errors_naming_the_problem(self):
        with self.assertRaisesRegex(surfdb.FormatError, "no such file"):
            surfdb.Database("/no/such/file.sdb")
        with self.assertRaisesRegex(surfdb.CadError, "face"):
            surfdb.convert(CUP_STEP, "/tmp/never.sdb", face=9)
        self.assertFalse(os.path.exists("/tmp/never.sdb"))
        b = surfdb.Database(Tables.octant).binding()
        with self.assertRaisesRegex(ValueError, "same shape"):
            b.query(np.zeros(3), np.zeros(4))
        with self.assertRaisesRegex(ValueError, r"shape \(\.\.\., 3\)"):
            b.project(np.zeros((4, 2)))
        with self.assertRaisesRegex(ValueError, "residency"):
            surfdb.Database(Tables.octant).binding(residency="mmap")
        self.assertTrue(issubclass(surfdb.FormatError, surfdb.Error))

    def test_a_damaged_record_is_refused_not_used(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "damaged.sdb")
            with open(Tables.octant, "rb") as f:
                data = bytearray(f.read())
            record_bytes = 20 * 20 * 19 * 8
            data[record_bytes + 1000] ^= 0x40  # data record 1, after the one header record
            with open(path, "wb") as f:
                f.write(data)
            db = surfdb.Database(path)
            self.assertGreater(db.verify(), 0)
            with self.assertRaisesRegex(surfdb.FormatError, "record"):
                db.binding().query(np.array([0.001]), np.array([0.001]))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)

"""New-user trial: every face of the public CAD parts, and of the project's own sample parts, through
every read-only command as a new user would run them, checked against docs/commands.md,
docs/format.md and docs/notation.md.

Per part: `convert --list-faces` (the count must be the CAD directory's README.md count), then one
`convert --all-faces` at a 9 x 9 grid in 4 x 4 records (several records and padding). Per table written
(found as face_*.sdb anywhere under the output directory): `verify` (exit 0), `info --json`, `export`
to CSV, a JSON `query --batch` at the corners, the centre, interior points and every node, and a JSON
`project --batch` of every node and of every valid node moved by +/- an offset along its normal (1% of
the face, at most a tenth of the radii of curvature and of the cells there). For the first table of
each surface type of each part, also `info`, `export` to VTK, `query --uv` at the centre and `project
--xyz` (every surfdb process costs about 110 ms of dynamic linking, nearly all of it OpenCASCADE's
libraries binding their symbols, so these are not repeated on every table).

What it proves: no command crashes (signal, or exit status above 2), hangs (60 s each) or prints
`nan`/`inf` (nor does the exported CSV or VTK hold one); a refused face is refused with one clear
`surfdb: error:` line; tables match the listed faces; export and info agree (node count, grid order
u_i = u0 + i du, flag counts, VTK points = CSV points); and every answer marked valid is right: a
query at a node gives the exported node and normal, elsewhere a point in its cell; a projection's
distance is (x - p).n with x - p along n, agrees with the brute-force nearest valid exported node to
within a cell diagonal, is ~0 for a node and ~ the offset for a moved node; (n, t, b) orthonormal and
right-handed. Answers marked invalid are legitimate and only counted, except where a valid answer is
certain: a query inside the domain whose every touching cell is valid, and the projection of a
node (moved or not) whose four cells are valid, must answer valid.

Usage: cad_trial.py SURFDB [CAD_DIR] [--samples DIR] [--keep DIR] [--jobs N] [--convert-options '...']
CAD_DIR defaults to ../shared/cad beside the repository; when it does not exist the trial is skipped
with exit status 77. Exit 0 when every check passed, 1 otherwise. Python 3 standard library only.
"""
import argparse
import concurrent.futures
import glob
import json
import math
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import time

SKIP = 77
TIMEOUT = 60  # s, per command
CONVERT_OPTIONS = ["--grid", "9x9", "--record", "4x4"]  # several records a table, padding in the last ones
CAD_SUFFIXES = (".stp", ".step", ".igs", ".iges", ".brep", ".brp", ".nurbs")
NONFINITE = re.compile(r"(?<![A-Za-z_])[-+]?(?:nan|inf(?:inity)?)(?![A-Za-z_])", re.IGNORECASE)
STATUSES = {"query": {"valid", "outside_domain", "invalid_cell"},
            "project": {"valid", "outside_domain", "invalid_cell", "not_converged"}}
# Tolerances relative to the face size (f64 tables) or to its size and distance from the origin (f32):
ROUNDING = {"f64": 1e-9, "f32": 1e-6}  # values that must agree to rounding
CONVERGED = {"f64": 1e-6, "f32": 1e-5}  # a converged projection
SHOWN_FAILURES = 20  # per part


# ---------------------------------------------------------------------------------------------------
# Running the command

class Run:
    """One finished command: arguments, exit status, output, and what went wrong with it as a process."""

    def __init__(self, args, rc, out, err, problems):
        self.args, self.rc, self.out, self.err, self.problems = args, rc, out, err, problems

    def command(self):
        return " ".join(shlex.quote(a) for a in self.args)


def run(args, expect=(0,)):
    """Runs a command and checks what holds for every command: no crash, no hang, no nan or inf in its
    output, an expected exit status."""
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return Run(args, None, "", "", [f"hung: no answer after {TIMEOUT} s"])
    problems = []
    if p.returncode < 0:
        problems.append(f"crashed: killed by signal {-p.returncode}")
    elif p.returncode > 2:
        problems.append(f"crashed: exit status {p.returncode}")
    elif p.returncode not in expect:
        problems.append(f"exit status {p.returncode}: {p.stderr.strip()[:300]}")
    for stream, text in (("stdout", p.stdout), ("stderr", p.stderr)):
        m = NONFINITE.search(text)
        if m:
            problems.append(f"'{m.group(0)}' in {stream}: ...{text[max(0, m.start() - 80):m.end() + 40]!r}")
    return Run(args, p.returncode, p.stdout, p.stderr, problems)


class Report:
    """Counts and failures of one table or one part; each failure carries the command reproducing it."""

    def __init__(self, name):
        self.name, self.counts, self.failures = name, {}, []

    def count(self, key, n=1):
        self.counts[key] = self.counts.get(key, 0) + n

    def fail(self, what, command=None):
        self.failures.append(f"{self.name}: {what}" + (f"\n        reproduce: {command}" if command else ""))

    def checked(self, result):
        """Records a Run's process problems; True when it had none."""
        for problem in result.problems:
            self.fail(problem, result.command())
        return not result.problems

    def merge(self, other):
        for key, n in other.counts.items():
            self.count(key, n)
        self.failures += other.failures


# ---------------------------------------------------------------------------------------------------
# Geometry

def sub(a, b):
    return [x - y for x, y in zip(a, b)]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def length(a):
    return math.sqrt(dot(a, a))


def vec(row, prefix=""):
    """The point (prefix ''), normal ('n'), tangent ('t') or bitangent ('b') of a row, as floats."""
    return [float(row[(prefix or "") + c]) for c in "xyz"]


def frame_problem(row):
    """Why the (n, t, b) of an answer is not orthonormal and right-handed, or None."""
    n, t, b = vec(row, "n"), vec(row, "t"), vec(row, "b")
    if abs(length(n) - 1) > 1e-6 or abs(length(t) - 1) > 1e-6 or abs(dot(n, t)) > 1e-6:
        return f"frame not orthonormal: |n| = {length(n):.9g}, |t| = {length(t):.9g}, n.t = {dot(n, t):.3g}"
    if length(sub(b, cross(n, t))) > 1e-6:
        return "b is not n x t"
    return None


class Grid:
    """A table's nodes as `export` gives them, in grid order (i along u, j along v), with cell validity
    and the local cell sizes the tolerances use."""

    def __init__(self, header, rows):
        self.h, self.rows = header, rows
        self.nu, self.nv = header["u_points"], header["v_points"]
        self.p = [vec(r) for r in rows]
        self.n = [vec(r, "n") for r in rows]
        self.flags = [int(float(r["flags"])) for r in rows]
        self.valid_nodes = [(self.p[k], k // self.nv, k % self.nv) for k in range(len(rows)) if self.flags[k] & 1]
        lo = [min(p[c] for p in self.p) for c in range(3)]
        hi = [max(p[c] for p in self.p) for c in range(3)]
        self.size = max(length(sub(hi, lo)), 1e-300)
        scalar = header.get("scalar", "f64")
        scale = self.size if scalar == "f64" else max(self.size, max(map(abs, lo + hi)))
        self.exact, self.converged = ROUNDING[scalar] * scale, CONVERGED[scalar] * scale
        self.unit_exact = ROUNDING[scalar]  # for unit vectors

    def at(self, i, j):
        return i * self.nv + j

    def point(self, i, j):
        return self.p[self.at(i, j)]

    def valid(self, i, j):
        return self.flags[self.at(i, j)] & 1 == 1

    def degenerate(self, i, j):
        return self.flags[self.at(i, j)] & 2 == 2

    def cell_valid(self, ci, cj):
        return all(self.valid(ci + a, cj + b) for a in (0, 1) for b in (0, 1))

    def cell_diagonal(self, ci, cj):
        return max(math.dist(self.point(ci + 1, cj + 1), self.point(ci, cj)),
                   math.dist(self.point(ci + 1, cj), self.point(ci, cj + 1)))

    def distance_to_cell_corners(self, x, ci, cj):
        return min(math.dist(x, self.point(ci + a, cj + b)) for a in (0, 1) for b in (0, 1))

    def cells_at_node(self, i, j):
        return [(ci, cj) for ci in (i - 1, i) for cj in (j - 1, j) if 0 <= ci < self.nu - 1 and 0 <= cj < self.nv - 1]

    def node_size(self, i, j):
        """The largest diagonal of the cells touching a node."""
        return max(self.cell_diagonal(ci, cj) for ci, cj in self.cells_at_node(i, j))

    def surrounded(self, i, j):
        """A valid, non-degenerate node inside the grid whose four cells are valid."""
        cells = self.cells_at_node(i, j)
        return len(cells) == 4 and not self.degenerate(i, j) and all(self.cell_valid(*c) for c in cells)

    def wrap(self, axis, x):
        h = self.h
        if h["periodic_" + axis] and h[axis + "_period"] > 0:
            x = h[axis + "0"] + math.fmod(x - h[axis + "0"], h[axis + "_period"])
            if x < h[axis + "0"]:
                x += h[axis + "_period"]
        return x

    def inside(self, u, v):
        """(u, v) in the closed parameter rectangle, periodic directions wrapped."""
        h = self.h
        return h["u0"] <= self.wrap("u", u) <= h["u1"] and h["v0"] <= self.wrap("v", v) <= h["v1"]

    def cells_at(self, u, v):
        """The cells whose closed rectangle holds (u, v), both cells of a grid line it lies on (to
        rounding); [] beyond the domain by more than rounding."""
        found = []
        for axis, x in (("u", u), ("v", v)):
            h = self.h
            x0, x1, dx, n = h[axis + "0"], h[axis + "1"], h["d" + axis], h[axis + "_points"]
            x = self.wrap(axis, x)
            if not x0 - 1e-9 * (x1 - x0) <= x <= x1 + 1e-9 * (x1 - x0):
                return []
            f = (x - x0) / dx
            k = min(max(math.floor(f), 0), n - 2)
            near = {k} | {c for c in (k - 1, k + 1) if 0 <= c <= n - 2 and min(abs(f - c), abs(f - c - 1)) < 1e-7}
            found.append(sorted(near))
        return [(ci, cj) for ci in found[0] for cj in found[1]]

    def nearest_valid_node(self, x):
        """(distance, i, j) of the valid node nearest to x, by brute force."""
        return min((math.dist(x, p), i, j) for p, i, j in self.valid_nodes)

    def centre_node(self):
        """The valid node nearest the middle of the grid, or None."""
        nodes = [(abs(i - (self.nu - 1) / 2) + abs(j - (self.nv - 1) / 2), i, j) for _, i, j in self.valid_nodes]
        return min(nodes)[1:] if nodes else None


# ---------------------------------------------------------------------------------------------------
# verify, info, export

def check_verify(rep, surfdb, table):
    if rep.checked(run([surfdb, "verify", table])):
        rep.count("verified")


def check_info(rep, surfdb, table, text):
    """`info --json` (and `info` when text is asked): the documented keys. Returns the header or None."""
    if text:
        rep.checked(run([surfdb, "info", table]))
    r = run([surfdb, "info", table, "--json"])
    if not rep.checked(r):
        return None
    try:
        header = json.loads(r.out)
    except ValueError as e:
        rep.fail(f"info --json is not JSON: {e}", r.command())
        return None
    missing = [k for k in ("u_points", "v_points", "u0", "u1", "v0", "v1", "du", "dv", "periodic_u", "periodic_v",
                           "u_period", "v_period", "invalid_points", "degenerate_points", "source") if k not in header]
    if missing:
        rep.fail(f"info --json lacks {missing}", r.command())
        return None
    return header


def grid_order_problem(header, rows):
    """Why the exported u, v columns are not u_i = u0 + i du (the last exactly u1), or None."""
    nv = header["v_points"]
    rounding = 1e-6 if header.get("scalar") == "f32" else 1e-12  # a float32 table stores u, v rounded too
    for axis, index in (("u", lambda k: k // nv), ("v", lambda k: k % nv)):
        x0, x1, dx, n = header[axis + "0"], header[axis + "1"], header["d" + axis], header[axis + "_points"]
        for k, row in enumerate(rows):
            i = index(k)
            want = x1 if i == n - 1 else x0 + i * dx
            if abs(float(row[axis]) - want) > rounding * max(abs(x1 - x0), abs(x0), abs(x1)):
                return f"export row {k + 1}: {axis} = {row[axis]}, the grid says {want!r}"
    return None


def check_export_csv(rep, surfdb, table, header, work):
    """CSV export: finite, one row per node in grid order, whole-number flags counting info's invalid
    and degenerate points. Returns the Grid or None."""
    out = os.path.join(work, "export.csv")
    r = run([surfdb, "export", table, "--format", "csv", "-o", out])
    if not rep.checked(r):
        return None
    rep.count("exports")
    text = open(out).read()
    m = NONFINITE.search(text)
    if m:
        rep.fail(f"'{m.group(0)}' in the exported CSV", r.command())
        return None
    lines = text.splitlines()
    rows = [dict(zip(lines[0].split(","), line.split(","))) for line in lines[1:]]
    if len(rows) != header["u_points"] * header["v_points"]:
        rep.fail(f"{len(rows)} rows exported for {header['u_points']} x {header['v_points']} nodes", r.command())
        return None
    problem = grid_order_problem(header, rows)
    bad_flags = [row["flags"] for row in rows if float(row["flags"]) != int(float(row["flags"]))
                 or not 0 <= float(row["flags"]) < 2 ** 32]
    if problem or bad_flags:
        rep.fail(problem or f"flags {bad_flags[0]} exported: not a whole number in [0, 2^32)", r.command())
        return None
    grid = Grid(header, rows)
    invalid = sum(1 for f in grid.flags if not f & 1)
    degenerate = sum(1 for f in grid.flags if f & 2)
    if (invalid, degenerate) != (header["invalid_points"], header["degenerate_points"]):
        rep.fail(f"export flags: {invalid} invalid, {degenerate} degenerate nodes; info: "
                 f"{header['invalid_points']}, {header['degenerate_points']}", r.command())
    return grid


def read_vtk(path):
    """(dimensions, {POINTS, NORMALS, SCALARS: values}) of a legacy binary structured grid."""
    data = open(path, "rb").read()
    pos, dims, arrays = 0, None, {}
    while pos < len(data):
        end = data.index(b"\n", pos)
        words = data[pos:end].decode("ascii", "replace").split()
        pos = end + 1
        if words[:1] == ["DIMENSIONS"]:
            dims = tuple(int(w) for w in words[1:4])
        elif words[:1] in (["POINTS"], ["NORMALS"], ["SCALARS"]):
            count = dims[0] * dims[1] * dims[2] * (1 if words[0] == "SCALARS" else 3)
            if words[0] == "SCALARS":
                pos = data.index(b"\n", pos) + 1  # the LOOKUP_TABLE line
            code, size = ("d", 8) if words[2] == "double" else ("f", 4)
            arrays[words[0]] = struct.unpack(">%d%s" % (count, code), data[pos:pos + count * size])
            pos += count * size
            if data[pos:pos + 1] == b"\n":
                pos += 1
    return dims, arrays


def check_export_vtk(rep, surfdb, table, grid, work):
    """VTK export: the grid's dimensions, the CSV's points, finite points, normals and flags."""
    out = os.path.join(work, "export.vtk")
    r = run([surfdb, "export", table, "--format", "vtk", "-o", out])
    if not rep.checked(r):
        return
    rep.count("exports")
    try:
        dims, arrays = read_vtk(out)
    except (ValueError, struct.error, TypeError) as e:
        rep.fail(f"the VTK file does not parse: {e}", r.command())
        return
    if dims[:2] != (grid.nu, grid.nv) or sorted(arrays) != ["NORMALS", "POINTS", "SCALARS"]:
        rep.fail(f"VTK dimensions {dims}, arrays {sorted(arrays)}; the table has {grid.nu} x {grid.nv}", r.command())
        return
    if not all(math.isfinite(v) for a in arrays.values() for v in a):
        rep.fail("non-finite value in the VTK file", r.command())
        return
    points = sorted(tuple(arrays["POINTS"][3 * k:3 * k + 3]) for k in range(len(grid.p)))
    if any(math.dist(a, b) > grid.exact for a, b in zip(points, sorted(tuple(p) for p in grid.p))):
        rep.fail("the VTK points are not the CSV's points", r.command())


# ---------------------------------------------------------------------------------------------------
# query

def json_rows(rep, r, want):
    """The JSON lines of a batch answer, one per input row, or None."""
    try:
        rows = [json.loads(line) for line in r.out.splitlines() if line.strip()]
    except ValueError as e:
        rep.fail(f"output is not JSON lines: {e}", r.command())
        return None
    if len(rows) != want:
        rep.fail(f"{len(rows)} answers for {want} input rows", r.command())
        return None
    return rows


def csv_row(rep, r):
    """The one answer of a single-point CSV command, or None."""
    lines = r.out.splitlines()
    if len(lines) != 2:
        rep.fail(f"{len(lines)} lines printed, expected a header and one answer", r.command())
        return None
    return dict(zip(lines[0].split(","), lines[1].split(",")))


def status_problem(row, kind):
    """Why a row's status and valid column disagree with the documented statuses, or None."""
    if row.get("status") not in STATUSES[kind]:
        return f"unknown status {row.get('status')!r}"
    if (row["valid"] == 1) != (row["status"] == "valid"):
        return f"valid = {row['valid']} with status {row['status']}"
    return None


def query_points(grid):
    """(u, v, node or None): the corners, the centre, three interior points, then every node at its
    exported (u, v)."""
    h = grid.h
    us = {0: h["u0"], 1: h["u1"]}
    vs = {0: h["v0"], 1: h["v1"]}
    points = [(us.get(a, h["u0"] + a * (h["u1"] - h["u0"])), vs.get(b, h["v0"] + b * (h["v1"] - h["v0"])), None)
              for a, b in ((0, 0), (1, 0), (0, 1), (1, 1), (0.5, 0.5), (0.25, 0.75), (0.7, 0.3), (0.123, 0.456))]
    return points + [(float(row["u"]), float(row["v"]), (k // grid.nv, k % grid.nv)) for k, row in enumerate(grid.rows)]


def check_query_row(rep, grid, u, v, node, row, command):
    """One query answer. Valid: an orthonormal frame, in a valid cell; at a node, the exported node and
    normal; elsewhere, within a cell diagonal of its cell's corners. Invalid: only if the point is
    outside the domain or some cell touching it is not valid."""
    where = f"query --uv {u!r} {v!r}"
    problem = status_problem(row, "query")
    if problem:
        rep.fail(f"{where}: {problem}", command)
        return
    cells = grid.cells_at(u, v)
    if row["valid"] != 1:
        if grid.inside(u, v) and cells and all(grid.cell_valid(*c) for c in cells):
            rep.fail(f"{where}: {row['status']}, but the point is inside the domain and every cell at it is valid",
                     command)
        return
    rep.count("queries valid")
    problem = frame_problem(row)
    if problem:
        rep.fail(f"{where}: valid answer with a {problem}", command)
    valid_cells = [c for c in cells if grid.cell_valid(*c)]
    if not valid_cells:
        rep.fail(f"{where}: answered valid, but no cell holding the point is valid (cells {cells})", command)
        return
    p = vec(row)
    if node is not None:
        k = grid.at(*node)
        if math.dist(p, grid.p[k]) > grid.exact or math.dist(vec(row, "n"), grid.n[k]) > grid.unit_exact:
            rep.fail(f"{where}: valid answer at node {node}: point {p}, normal {vec(row, 'n')}; export: point "
                     f"{grid.p[k]}, normal {grid.n[k]}", command)
    elif all(grid.distance_to_cell_corners(p, *c) > 1.01 * grid.cell_diagonal(*c) + grid.exact
             for c in valid_cells):
        rep.fail(f"{where}: valid answer {p} farther than a cell diagonal from every corner of its cell", command)


def check_queries(rep, surfdb, table, grid, work, single):
    """A JSON batch at the corners, interior points and every node; when single is asked, also
    `query --uv` at the centre, whose CSV answer must be the batch's."""
    points = query_points(grid)
    batch = os.path.join(work, "query.txt")
    with open(batch, "w") as f:
        f.writelines(f"{u!r} {v!r}\n" for u, v, _ in points)
    r = run([surfdb, "query", table, "--batch", batch, "--json"])
    if not rep.checked(r):
        return
    rows = json_rows(rep, r, len(points))
    if rows is None:
        return
    rep.count("queries", len(points))
    for (u, v, node), row in zip(points, rows):
        check_query_row(rep, grid, u, v, node, row, f"{r.command()}  # the row {u!r} {v!r}")
    if single:
        u, v, _ = points[4]
        s = run([surfdb, "query", table, "--uv", repr(u), repr(v)])
        answer = csv_row(rep, s) if rep.checked(s) else None
        rep.count("queries")
        rep.count("queries valid", int(bool(answer) and answer.get("valid") == "1"))
        if answer and any(float(answer[k]) != float(rows[4][k]) for k in ("x", "y", "z", "nx", "ny", "nz", "valid")):
            rep.fail(f"query --uv at the centre answers {answer}, the batch {rows[4]}", s.command())


# ---------------------------------------------------------------------------------------------------
# project

def projection_targets(grid):
    """(x, offset, node): every node, and every valid non-degenerate node moved by -offset and +offset
    along its normal, the offset 1% of the face size, at most a tenth of the radii of curvature there
    and a tenth of the cells around it."""
    targets = []
    for k, row in enumerate(grid.rows):
        i, j = k // grid.nv, k % grid.nv
        targets.append((grid.p[k], 0.0, (i, j)))
        if not grid.valid(i, j) or grid.degenerate(i, j):
            continue
        curvature = max(abs(float(row["k1"])), abs(float(row["k2"])))
        offset = min(0.01 * grid.size, 0.1 / curvature if curvature > 0 else math.inf, 0.1 * grid.node_size(i, j))
        for sign in (1, -1):
            targets.append(([a + sign * offset * b for a, b in zip(grid.p[k], grid.n[k])], sign * offset, (i, j)))
    return targets


def check_projection_row(rep, grid, x, offset, node, row, command):
    """One projection answer. Valid: an orthonormal frame; distance = (x - p).n with x - p along n; p
    near the corners of the valid cell (u, v) names; |distance| within a cell diagonal of the nearest
    valid exported node; ~0 for a node, ~offset for a moved node that comes back to it. A node whose
    four cells are valid, moved or not, must answer valid."""
    where = "project --xyz " + " ".join(repr(c) for c in x)
    problem = status_problem(row, "project")
    if problem:
        rep.fail(f"{where}: {problem}", command)
        return
    i, j = node
    if row["valid"] != 1:
        if grid.surrounded(i, j):
            rep.fail(f"{where}: {row['status']} for node ({i}, {j}) moved by {offset!r} along its normal; its four "
                     f"cells are valid", command)
        return
    rep.count("projections valid")
    problem = frame_problem(row)
    if problem:
        rep.fail(f"{where}: valid answer with a {problem}", command)
    p, n, d = vec(row), vec(row, "n"), float(row["distance"])
    tol = grid.converged
    if abs(dot(sub(x, p), n) - d) > tol or length(sub(sub(x, p), [d * c for c in n])) > tol + 1e-4 * abs(d):
        rep.fail(f"{where}: valid answer p = {p}, distance {d!r}, but x - p = {sub(x, p)} is not distance * n "
                 f"(n = {n})", command)
    cells = [c for c in grid.cells_at(float(row["u"]), float(row["v"])) if grid.cell_valid(*c)]
    if not cells:
        rep.fail(f"{where}: answered valid at (u, v) = ({row['u']}, {row['v']}), in no valid cell", command)
        return
    if all(grid.distance_to_cell_corners(p, *c) > 1.01 * grid.cell_diagonal(*c) + tol for c in cells):
        rep.fail(f"{where}: valid answer p = {p} is not in its cell at (u, v) = ({row['u']}, {row['v']})", command)
    nearest, ni, nj = grid.nearest_valid_node(x)
    slack = 1.01 * max(grid.node_size(ni, nj), max(grid.cell_diagonal(*c) for c in cells)) + tol
    if abs(abs(d) - nearest) > slack:
        rep.fail(f"{where}: valid answer at distance {d!r}, but the nearest valid exported node ({ni}, {nj}) is "
                 f"{nearest!r} away (a cell diagonal there: {slack:.6g})", command)
    if offset == 0 and abs(d) > tol:
        rep.fail(f"{where}: node ({i}, {j}) itself is at distance {d!r} from the surface (valid)", command)
    elif offset != 0 and math.dist(p, grid.point(i, j)) < 0.5 * grid.node_size(i, j) \
            and abs(d - offset) > 1e-6 * abs(offset) + tol:
        rep.fail(f"{where}: node ({i}, {j}) moved by {offset!r} along its normal comes back to it at distance {d!r}",
                 command)


def check_projections(rep, surfdb, table, grid, work, single):
    """A JSON batch of every target (each row starting from the previous answer); when single is asked,
    also `project --xyz` (a global search, CSV) of the centre node moved out along its normal."""
    targets = projection_targets(grid)
    batch = os.path.join(work, "project.txt")
    with open(batch, "w") as f:
        f.writelines(" ".join(repr(c) for c in x) + "\n" for x, _, _ in targets)
    r = run([surfdb, "project", table, "--batch", batch, "--json"])
    if rep.checked(r):
        rows = json_rows(rep, r, len(targets))
        for (x, offset, node), row in zip(targets, rows or []):
            check_projection_row(rep, grid, x, offset, node, row, f"{r.command()}  # the row " + " ".join(map(repr, x)))
        rep.count("projections", len(rows or []))
    centre = grid.centre_node()
    if single and centre is not None:
        x, offset, node = max((t for t in targets if t[2] == centre), key=lambda t: t[1])
        s = run([surfdb, "project", table, "--xyz"] + [repr(c) for c in x])
        row = csv_row(rep, s) if rep.checked(s) else None
        if row:
            row["valid"] = int(row["valid"])
            row["status"] = "valid" if row["valid"] == 1 else "not_converged"  # CSV has no status column
            check_projection_row(rep, grid, x, offset, node, row, s.command())
            rep.count("projections")


def trial_table(surfdb, table, work, single):
    """Every command on one table. Returns (Report, header or None)."""
    rep = Report(os.path.join(os.path.basename(os.path.dirname(table)), os.path.basename(table)))
    os.makedirs(work, exist_ok=True)
    check_verify(rep, surfdb, table)
    header = check_info(rep, surfdb, table, single)
    grid = check_export_csv(rep, surfdb, table, header, work) if header else None
    if grid:
        if single:  # the VTK writer's path is every table's; the CSV carries the node checks
            check_export_vtk(rep, surfdb, table, grid, work)
        check_queries(rep, surfdb, table, grid, work, single)
        check_projections(rep, surfdb, table, grid, work, single)
    return rep, header


# ---------------------------------------------------------------------------------------------------
# Parts: list, convert, match

def readme_faces(cad_dir):
    """{file name: face count} from the tables in the CAD directory's README.md: a row's second cell
    starts with the count ("160" or "160 (assembly: 18 solids)")."""
    path = os.path.join(cad_dir, "README.md")
    faces = {}
    for line in open(path) if os.path.exists(path) else []:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        count = re.match(r"(\d+)(\s|$)", cells[1]) if len(cells) >= 2 else None
        if count:
            faces[cells[0]] = int(count.group(1))
    return faces


def list_faces(rep, surfdb, part, expected):
    """`convert --list-faces`: CSV rows numbered 1..F, F the README's count when it has one."""
    r = run([surfdb, "convert", part, "--list-faces"])
    if not rep.checked(r):
        return []
    lines = r.out.splitlines()
    faces = [dict(zip(lines[0].split(","), line.split(","))) for line in lines[1:]]
    if [f.get("face") for f in faces] != [str(k) for k in range(1, len(faces) + 1)]:
        rep.fail("--list-faces does not number the faces 1..F", r.command())
    if expected is not None and len(faces) != expected:
        rep.fail(f"--list-faces lists {len(faces)} faces, the README {expected}", r.command())
    return faces


def refusal_lines(rep, r):
    """The error lines of a convert that refused something, each checked to be one clear line."""
    lines = [line for line in r.err.splitlines() if not line.startswith("info: ")]
    if not lines or not all(line.startswith(("surfdb: error: ", "surfdb: warning: ")) for line in lines):
        rep.fail(f"refused without a clear error line (exit {r.rc}): {r.err.strip()[:300]!r}", r.command())
    return lines


def convert_part(rep, surfdb, part, faces, out, skip_flag):
    """`convert --all-faces` once. When it refuses the whole part (no --skip-bad-faces), each face on
    its own, to learn which faces are refused and how. Returns (tables, refusals)."""
    args = [surfdb, "convert", part, "--all-faces", "-o", out] + CONVERT_OPTIONS + skip_flag
    r = run(args, expect=(0, 1))
    rep.checked(r)
    tables = sorted(glob.glob(os.path.join(out, "**", "face_*.sdb"), recursive=True))
    refusals = []
    if r.rc == 1 and not skip_flag:
        refusals.append(f"--all-faces: {' / '.join(refusal_lines(rep, r))}")
        tables, refusals_by_face = convert_faces_one_by_one(rep, surfdb, part, faces, out)
        refusals += refusals_by_face
    elif len(tables) < len(faces):
        refusals += refusal_lines(rep, r)
    return tables, refusals


def convert_faces_one_by_one(rep, surfdb, part, faces, out):
    tables, refusals = [], []
    os.makedirs(out, exist_ok=True)
    for face in faces:
        table = os.path.join(out, "face_%04d.sdb" % int(face["face"]))
        r = run([surfdb, "convert", part, "--face", face["face"], "-o", table] + CONVERT_OPTIONS,
                expect=(0, 1))
        rep.checked(r)
        if r.rc == 0:
            tables.append(table)
        elif r.rc == 1:
            refusals.append(f"face {face['face']}: {' / '.join(refusal_lines(rep, r))}")
    return tables, refusals


def check_tables_match_faces(rep, faces, headers):
    """Each table's source names a listed face, a different one, with its surface type and orientation."""
    seen = {}
    for table, h in headers.items():
        src = h["source"]
        index = src.get("face_index")
        if index in seen:
            rep.fail(f"{table} and {seen[index]} both say they are face {index}")
        seen[index] = table
        if not isinstance(index, int) or not 1 <= index <= len(faces):
            rep.fail(f"{table}: face_index {index} is not a listed face")
        elif (src.get("surface_type"), src.get("orientation")) != (faces[index - 1]["surface_type"],
                                                                   faces[index - 1]["orientation"]):
            rep.fail(f"{table}: {src.get('surface_type')} {src.get('orientation')}; --list-faces says face {index} is "
                     f"{faces[index - 1]['surface_type']} {faces[index - 1]['orientation']}")


# ---------------------------------------------------------------------------------------------------
# Driver

def find_parts(cad_dir, samples_dir):
    """(path, README face count or None): the CAD directory's parts, then the samples' CAD files."""
    expected = readme_faces(cad_dir)
    parts = [(os.path.join(cad_dir, f), expected.get(f, "unlisted")) for f in sorted(os.listdir(cad_dir))
             if f.lower().endswith(CAD_SUFFIXES)]
    for root, dirs, files in sorted(os.walk(samples_dir)) if samples_dir and os.path.isdir(samples_dir) else []:
        dirs[:] = [d for d in dirs if d != "tables"]  # prepare.sh's outputs, not parts
        parts += [(os.path.join(root, f), None) for f in sorted(files) if f.lower().endswith(CAD_SUFFIXES)]
    missing = sorted(set(expected) - {os.path.basename(p) for p, _ in parts})
    return parts, missing


def convert_all(surfdb, parts, work, skip_flag):
    """Lists and converts every part, one after another (convert uses every core). Returns the part
    Reports (with faces, tables and refusals) and [(part, table, whether it gets the single-point
    commands: the first table of its surface type in the part)]."""
    reports, tables = {}, []
    for n, (part, expected) in enumerate(parts):
        rep = Report(os.path.basename(part))
        if expected == "unlisted":
            rep.fail("not in the README's table")
            expected = None
        rep.faces = list_faces(rep, surfdb, part, expected)
        out = os.path.join(work, "%02d_%s" % (n, rep.name))
        rep.tables, rep.refusals = convert_part(rep, surfdb, part, rep.faces, out, skip_flag)
        rep.count("converted", len(rep.tables))
        reports[part] = rep
        types_seen = set()
        for table in rep.tables:
            index = re.search(r"face_(\d+)", os.path.basename(table))
            face = rep.faces[int(index.group(1)) - 1] if index and 0 < int(index.group(1)) <= len(rep.faces) else {}
            tables.append((part, table, face.get("surface_type") not in types_seen))
            types_seen.add(face.get("surface_type"))
    return reports, tables


def plural(n, noun):
    return f"{n} {noun}" + ("" if n == 1 else "s")


def part_line(rep, expected):
    c = rep.counts
    refused = len(rep.faces) - c["converted"]
    return (f"{rep.name}: {plural(len(rep.faces), 'face')} listed" + (f" (README {expected})" if expected else "")
            + f", {c['converted']} converted, {refused} refused, {c.get('verified', 0)} verified, "
            f"{c.get('queries', 0)} queries ({c.get('queries valid', 0)} valid), "
            f"{c.get('projections', 0)} projections ({c.get('projections valid', 0)} valid), "
            f"{c.get('exports', 0)} exports, {len(rep.failures)} failures")


def trial(surfdb, cad_dir, samples_dir, work, jobs):
    """The whole trial; prints a line per part and a summary. True when every check passed."""
    parts, missing = find_parts(cad_dir, samples_dir)
    skip_flag = ["--skip-bad-faces"] if "--skip-bad-faces" in run([surfdb, "convert", "--help"]).out else []
    print(f"cad_trial: {len(parts)} parts, convert {' '.join(CONVERT_OPTIONS)}"
          + (", --skip-bad-faces" if skip_flag else "") + f", {jobs} jobs")
    start = time.monotonic()
    reports, tables = convert_all(surfdb, parts, work, skip_flag)
    converted = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda t: trial_table(surfdb, t[1], t[1][:-len(".sdb")] + ".work", t[2]), tables))
    print(f"cad_trial: parts listed and converted in {converted - start:.1f} s, {len(tables)} tables checked in "
          f"{time.monotonic() - converted:.1f} s")

    failures, totals = len(missing), {}
    for name in missing:
        print(f"cad_trial: FAIL: the README lists {name}, which is not in the CAD directory")
    for part, expected in parts:
        rep = reports[part]
        headers = {}
        for (p, table, _), (table_rep, header) in zip(tables, results):
            if p == part:
                rep.merge(table_rep)
                if header:
                    headers[os.path.basename(table)] = header
        check_tables_match_faces(rep, rep.faces, headers)
        if len(rep.tables) < len(rep.faces) and not rep.refusals:
            rep.fail(f"{len(rep.faces) - len(rep.tables)} faces neither converted nor refused")
        print(part_line(rep, expected if isinstance(expected, int) else None))
        for message in rep.refusals:
            print(f"    refused: {message}")
        for failure in rep.failures[:SHOWN_FAILURES]:
            print(f"    FAIL {failure}")
        if len(rep.failures) > SHOWN_FAILURES:
            print(f"    ... and {len(rep.failures) - SHOWN_FAILURES} more failures")
        failures += len(rep.failures)
        totals["faces"] = totals.get("faces", 0) + len(rep.faces)
        for key in ("converted", "verified", "queries", "projections", "exports"):
            totals[key] = totals.get(key, 0) + rep.counts.get(key, 0)
    print(f"cad_trial: {len(parts)} parts, {totals['faces']} faces listed, {totals['converted']} converted, "
          f"{totals['faces'] - totals['converted']} refused, {totals['verified']} verified, "
          f"{totals['queries']} queries, {totals['projections']} projections, {totals['exports']} exports: "
          + ("every check passed" if failures == 0 else f"{failures} FAILURES"))
    if failures:
        print("cad_trial: to run a reproducing command, rerun with --keep DIR: the tables and batch files it names "
              "are then kept")
    return failures == 0


def main():
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("surfdb")
    ap.add_argument("cad_dir", nargs="?", default=os.path.join(repo, "..", "shared", "cad"))
    ap.add_argument("--samples", default=os.path.join(repo, "samples"), help="the project's own parts")
    ap.add_argument("--keep", help="work in this directory and keep it (default: a temporary directory)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="tables checked at once")
    ap.add_argument("--convert-options", help=f"instead of '{' '.join(CONVERT_OPTIONS)}', e.g. '--grid 17x17 "
                    "--record 8x8 --float32' (the checks take time in the number of nodes squared)")
    args = ap.parse_args()
    if args.convert_options is not None:
        CONVERT_OPTIONS[:] = shlex.split(args.convert_options)
    if not os.path.isdir(args.cad_dir):
        print(f"cad_trial: SKIP: no CAD directory at {os.path.normpath(args.cad_dir)}")
        return SKIP
    start = time.monotonic()
    work = args.keep or tempfile.mkdtemp(prefix="cad_trial.")
    os.makedirs(work, exist_ok=True)
    try:
        ok = trial(os.path.abspath(args.surfdb), os.path.normpath(args.cad_dir), args.samples, work, max(1, args.jobs))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"cad_trial: {time.monotonic() - start:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A surface database reader written from docs/format.md alone, checked against `surfdb query`.

Usage: independent_reader.py SURFDB FORMAT_MD [TABLE.sdb ...]

Without tables it converts two into a temporary directory: an octant in float64 (101 x 41 nodes in
records of 7 x 5, so edge records are padded; at 101 nodes u0 + 100 du misses u1 by rounding) and
a sphere in float32 (periodic along u, degenerate poles).

Nothing here comes from surfdb's code: the header field offsets and types and the column ids are
parsed from the tables of FORMAT_MD, the magic from its header table, and the rules (sizes,
record numbers, slots, the grid, flags) are the text's. So a wrong offset or column id in the
text, or a rule the code does not follow, makes this test fail: the values read here then differ
from what `surfdb query` prints at the same nodes.

Checksums are not verified: the text names XXH64, which Python's standard library does not have.
"""

import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HEADER_BYTES = 1024
SCALARS = {1: ("<f8", 8), 2: ("<f4", 4)}  # scalar_type: numpy type, scalar_bytes
FLAGS_LIMIT = 2.0**32
STRUCT = {"u16": "<u2", "u32": "<u4", "u64": "<u8", "f64": "<f8"}


class Refused(Exception):
    pass


# --- the text's tables ------------------------------------------------------------------------


def section(text, title):
    """Lines of the section '## title' up to the next '## '."""
    lines = text.splitlines()
    start = lines.index("## " + title) + 1
    end = next((k for k in range(start, len(lines)) if lines[k].startswith("## ")), len(lines))
    return lines[start:end]


def table_rows(lines):
    """Cells of each row of the first markdown table in lines, header and rule skipped."""
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines if line.startswith("|")]
    return rows[2:]


def header_fields(text):
    """{field: (offset, type)} from the 'Header record' table, and the magic bytes."""
    fields, magic = {}, None
    for offset, kind, name, meaning in table_rows(section(text, "Header record")):
        if name in ("—", "-"):
            continue
        fields[name] = (int(offset), kind)
        if name == "magic":
            magic = bytes(int(h, 16) for h in re.search(r"`((?:[0-9A-Fa-f]{2} ?)+)`", meaning).group(1).split())
    return fields, magic


def column_names(text):
    """{id: name} from the 'Columns' table; ids are written '1, 2', '3–5' or '15'."""
    names = {}
    for row in table_rows(section(text, "Columns")):
        ids_text, names_text = row[0], row[1]
        if "–" in ids_text:
            first, last = (int(x) for x in ids_text.split("–"))
            ids = list(range(first, last + 1))
        else:
            ids = [int(x) for x in ids_text.split(",")]
        row_names = re.findall(r"`([^`]+)`", names_text)
        assert len(ids) == len(row_names), row
        names.update(zip(ids, row_names))
    return names


# --- the header -------------------------------------------------------------------------------


def read_field(data, fields, name):
    offset, kind = fields[name]
    m = re.fullmatch(r"char\[(\d+)\]", kind)
    if m:
        raw = data[offset:offset + int(m.group(1))]
        if b"\0" not in raw:
            raise Refused(f"{name} is not terminated")
        return raw.split(b"\0", 1)[0].decode("utf-8")
    m = re.fullmatch(r"(u16|u32|u64|f64)(?:\[(\d+)\])?", kind)
    values = np.frombuffer(data, STRUCT[m.group(1)], int(m.group(2) or 1), offset)
    return values.tolist() if m.group(2) else values[0].item()


def ceil_div(a, b):
    return -(-a // b)


def read_header(data, fields, magic):
    """The header as a dict, refused as the text's steps 1-14 say (the hash of step 3 skipped)."""
    if len(data) < HEADER_BYTES or data[:8] != magic:
        raise Refused("step 1: short or wrong magic")
    if data[12:16] != bytes([4, 3, 2, 1]):
        raise Refused("step 2: byte-order mark")
    h = {name: read_field(data, fields, name) for name, (_, kind) in fields.items() if not kind.startswith("char")}
    if h["format_version"] != 1:
        raise Refused("step 3: version")
    if h["header_bytes"] != HEADER_BYTES:
        raise Refused("step 4: header_bytes")
    if h["scalar_type"] not in SCALARS or h["scalar_bytes"] != SCALARS[h["scalar_type"]][1]:
        raise Refused("step 5: scalar")
    ids = h["column_ids"][:h["column_count"]]
    if not 1 <= h["column_count"] <= 32 or len(set(ids)) != len(ids) or not set(range(1, 15)) <= set(ids) \
            or not set(ids) <= set(range(1, 20)):
        raise Refused("step 6: columns")
    if min(h["u_points"], h["v_points"]) < 2 or min(h["u_record_points"], h["v_record_points"]) < 1 \
            or h["u_record_points"] > h["u_points"] or h["v_record_points"] > h["v_points"]:
        raise Refused("step 7: grid or record points")
    expect = {"u_records": ceil_div(h["u_points"], h["u_record_points"]),
              "v_records": ceil_div(h["v_points"], h["v_record_points"])}
    expect["data_records"] = expect["u_records"] * expect["v_records"]
    expect["record_bytes"] = h["u_record_points"] * h["v_record_points"] * h["column_count"] * h["scalar_bytes"]
    expect["header_records"] = ceil_div(HEADER_BYTES, expect["record_bytes"])
    expect["checksum_records"] = ceil_div(8 * expect["data_records"], expect["record_bytes"])
    expect["file_bytes"] = (expect["header_records"] + expect["data_records"] + expect["checksum_records"]) \
        * expect["record_bytes"]
    for name, value in expect.items():  # Python integers do not overflow: compare with 2^64 instead
        if value >= 2**64 or h[name] != value:
            raise Refused(f"step 7: {name}")
    if len(data) != h["file_bytes"]:
        raise Refused("step 8: file length")
    for axis in "uv":
        a, step, last, n = h[axis + "0"], h["d" + axis], h[axis + "1"], h[axis + "_points"]
        end = a + (n - 1) * step
        if not all(math.isfinite(x) for x in (a, step, last, h[axis + "_period"])) or not step > 0 \
                or abs(end - last) > 1e-9 * (abs(last) + abs(end - a)):
            raise Refused(f"step 9: {axis} grid")
    bits = h["periodic"]
    if bits & ~3 or any(bool(bits & bit) != (h[axis + "_period"] > 0) or (h[axis + "_period"] < 0)
                        for axis, bit in (("u", 1), ("v", 2))):
        raise Refused("step 10: periodicity")
    if {1: 0.001, 2: 1.0}.get(h["length_unit"]) != h["meters_per_unit"]:
        raise Refused("step 11: unit")
    if max(h["invalid_points"], h["degenerate_points"]) > h["u_points"] * h["v_points"]:
        raise Refused("step 12: counts")
    if h["face_orientation"] not in (0, 1):
        raise Refused("step 13: orientation")
    for name in ("source_kind", "surface_type", "source_name"):  # step 14
        h[name] = read_field(data, fields, name)
    return h


# --- the nodes --------------------------------------------------------------------------------


def node_parameters(h, axis):
    """u_i = u0 + i du for all but the last node, which is u1."""
    n = h[axis + "_points"]
    values = h[axis + "0"] + np.arange(n, dtype=np.float64) * h["d" + axis]
    values[-1] = h[axis + "1"]
    return values


def read_grid(data, h, names):
    """{column name: array [u_points, v_points]} from the records, and the padding slots."""
    dtype, size = SCALARS[h["scalar_type"]]
    start = h["header_records"] * h["record_bytes"]
    records = np.frombuffer(data, dtype, h["data_records"] * h["record_bytes"] // size, start)
    records = records.reshape(h["data_records"], h["u_record_points"] * h["v_record_points"], h["column_count"])
    i = np.arange(h["u_records"] * h["u_record_points"])[:, None]
    j = np.arange(h["v_records"] * h["v_record_points"])[None, :]
    k = 1 + (i // h["u_record_points"]) * h["v_records"] + j // h["v_record_points"]  # record number
    s = (i % h["u_record_points"]) * h["v_record_points"] + j % h["v_record_points"]  # slot
    tiles = records[k - 1, s].astype(np.float64)  # every slot of every record, in grid order
    nu, nv = h["u_points"], h["v_points"]
    padding = np.concatenate([tiles[nu:].reshape(-1, h["column_count"]),
                              tiles[:nu, nv:].reshape(-1, h["column_count"])])
    ids = h["column_ids"][:h["column_count"]]
    return {names[c]: tiles[:nu, :nv, at] for at, c in enumerate(ids)}, padding, records


def check_records(h, grid, padding, records):
    """What the text says of the stored values, apart from checksums."""
    if not np.isfinite(records).all():
        raise Refused("a data record holds a non-finite value")
    if "flags" in grid:
        flags = grid["flags"]
        if not ((flags >= 0) & (flags < FLAGS_LIMIT) & (np.trunc(flags) == flags)).all():
            raise Refused("a flags value is not a whole number in [0, 2^32)")
        bits = flags.astype(np.uint32)
        assert np.count_nonzero((bits & 1) == 0) == h["invalid_points"], "invalid_points: not the nodes without bit 0"
        assert np.count_nonzero(bits & 2) == h["degenerate_points"], "degenerate_points: not the nodes with bit 1"
    assert not padding.any(), "padding slots are not zero"
    dtype = SCALARS[h["scalar_type"]][0]
    for axis in "uv":  # the u, v columns hold u_i, v_j (rounded to the scalar type)
        expected = node_parameters(h, axis).astype(dtype).astype(np.float64)
        stored = grid[axis] if axis == "u" else grid[axis].T
        assert (stored == expected[:, None]).all(), f"the {axis} column is not the grid's {axis}_i"


# --- against surfdb ---------------------------------------------------------------------------


def query(surfdb, path, u, v):
    lines = "".join(f"{a!r} {b!r}\n" for a, b in zip(u, v))
    out = subprocess.run([surfdb, "query", path, "--batch", "-"], input=lines, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    head = out[0].split(",")
    rows = np.array([[float(x) for x in line.split(",")] for line in out[1:]])
    return {name: rows[:, k] for k, name in enumerate(head)}


def compare(surfdb, path, h, grid):
    """Every node's point, normal, tangent and bitangent against `surfdb query` at the node."""
    u = np.repeat(node_parameters(h, "u"), h["v_points"])
    v = np.tile(node_parameters(h, "v"), h["u_points"])
    got = query(surfdb, path, u, v)
    assert len(got["u"]) == len(u), "one output row per node"
    # At a node the query's point is the stored one, to the last bit (printed to round-trip).
    # Its unit vectors are renormalised, t projected on the normal plane and b = n x t recomputed,
    # so they may differ by a few units in the last place: of binary64 (measured up to 4.4e-16),
    # or of the float32 values a float32 file holds (measured up to 4.7e-8).
    unit_tolerance = 1e-14 if h["scalar_type"] == 1 else 3e-7
    for names, tolerance in (("xyz", 0.0), (("nx", "ny", "nz", "tx", "ty", "tz", "bx", "by", "bz"),
                                            unit_tolerance)):
        for name in names:
            error = np.abs(got[name] - grid[name].reshape(-1))
            worst = int(error.argmax())
            assert error[worst] <= tolerance, (
                f"{path}: {name} at node {divmod(worst, h['v_points'])}: read {grid[name].reshape(-1)[worst]!r},"
                f" surfdb says {got[name][worst]!r}")
    if "flags" in grid:  # a node that is not valid is a corner of every cell it touches
        node_valid = grid["flags"].reshape(-1).astype(np.uint32) & 1
        assert not (got["valid"] > node_valid).any(), "surfdb calls a cell with an invalid node valid"
        if h["invalid_points"] == 0:
            assert (got["valid"] == 1).all(), "surfdb calls a cell of valid nodes invalid"


def check_table(surfdb, path, fields, magic, names):
    with open(path, "rb") as f:
        data = f.read()
    h = read_header(data, fields, magic)
    grid, padding, records = read_grid(data, h, names)
    check_records(h, grid, padding, records)
    compare(surfdb, path, h, grid)
    print(f"{os.path.basename(path)}: {h['u_points']} x {h['v_points']} nodes "
          f"({'float64' if h['scalar_type'] == 1 else 'float32'}) agree with surfdb query")


def main():
    surfdb, format_md, tables = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(format_md, encoding="utf-8") as f:
        text = f.read()
    fields, magic = header_fields(text)
    names = column_names(text)
    with tempfile.TemporaryDirectory() as tmp:
        if not tables:
            tables = [os.path.join(tmp, "octant.sdb"), os.path.join(tmp, "sphere_f32.sdb")]
            for path, args in ((tables[0], ["octant", "--grid", "101x41", "--record", "7x5"]),
                               (tables[1], ["sphere", "--grid", "33x17", "--record", "4x4", "--float32"])):
                subprocess.run([surfdb, "convert", "--analytic", *args, "-o", path], check=True,
                               capture_output=True)
        for path in tables:
            check_table(surfdb, path, fields, magic, names)


if __name__ == "__main__":
    try:
        main()
    except (Refused, AssertionError) as e:
        sys.exit(f"independent_reader: FAILED: {e}")

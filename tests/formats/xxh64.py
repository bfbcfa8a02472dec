"""XXH64 (seed 0 by default) in pure Python, from the xxHash specification (doc/xxhash_spec.md of
https://github.com/Cyan4973/xxHash), for the independent readers: docs/format.md names XXH64 as
the checksum of every format, and Python's standard library does not have it.

Checked against the specification's known values when imported (self_test), and by the readers
against the hashes surfdb writes. Fast enough for the small files the tests read (~1 MB/s).
"""

import struct

P1 = 0x9E3779B185EBCA87
P2 = 0xC2B2AE3D27D4EB4F
P3 = 0x165667B19E3779F9
P4 = 0x85EBCA77C2B2AE63
P5 = 0x27D4EB2F165667C5
M = (1 << 64) - 1


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def _round(acc, lane):
    acc = (acc + lane * P2) & M
    return (_rotl(acc, 31) * P1) & M


def _merge(acc, v):
    acc ^= _round(0, v)
    return (acc * P1 + P4) & M


def xxh64(data, seed=0):
    data = bytes(data)
    n = len(data)
    p = 0
    if n >= 32:
        v1 = (seed + P1 + P2) & M
        v2 = (seed + P2) & M
        v3 = seed & M
        v4 = (seed - P1) & M
        stripes = n // 32
        for a, b, c, d in struct.iter_unpack("<4Q", data[:stripes * 32]):
            v1 = (_rotl((v1 + a * P2) & M, 31) * P1) & M
            v2 = (_rotl((v2 + b * P2) & M, 31) * P1) & M
            v3 = (_rotl((v3 + c * P2) & M, 31) * P1) & M
            v4 = (_rotl((v4 + d * P2) & M, 31) * P1) & M
        p = stripes * 32
        h = (_rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)) & M
        for v in (v1, v2, v3, v4):
            h = _merge(h, v)
    else:
        h = (seed + P5) & M
    h = (h + n) & M
    while p + 8 <= n:
        (k,) = struct.unpack_from("<Q", data, p)
        h ^= _round(0, k)
        h = (_rotl(h, 27) * P1 + P4) & M
        p += 8
    if p + 4 <= n:
        (k,) = struct.unpack_from("<I", data, p)
        h ^= (k * P1) & M
        h = (_rotl(h, 23) * P2 + P3) & M
        p += 4
    while p < n:
        h ^= (data[p] * P5) & M
        h = (_rotl(h, 11) * P1) & M
        p += 1
    h ^= h >> 33
    h = (h * P2) & M
    h ^= h >> 29
    h = (h * P3) & M
    h ^= h >> 32
    return h


def self_test():
    """Known values of XXH64 with seed 0 (xxHash's own test vectors and its command-line tool)."""
    known = {b"": 0xEF46DB3751D8E999, b"a": 0xD24EC4F1A98C6E5B, b"abc": 0x44BC2CF5AD770999,
             b"Nobody inspects the spammish repetition": 0xFBCEA83C8A378BF1}
    for data, value in known.items():
        assert xxh64(data) == value, f"xxh64({data!r}) = {xxh64(data):016x}, expected {value:016x}"


self_test()

# SPDX-License-Identifier: Apache-2.0
"""SPLIT, TILE, BROADCAST_TO (int8, int16) and int32 STRIDED_SLICE kernels against NumPy, and the portable
kernels bit-identical to ns-cmsis-nn's (HELIA_NS_CMSIS_NN_DIR) on the same records."""

from __future__ import annotations

import numpy as np
import pytest

import kernel_build as kb

DRIVER = kb.DRIVER_DIR / "shaping_driver.c"


class ShapingDriver:
    def __init__(self, program):
        self.program = program

    def run(self, records: list[str]) -> list[tuple[int, np.ndarray]]:
        lines = kb.run_program(self.program, "\n".join(records) + "\n").splitlines()
        assert len(lines) == len(records)
        results = []
        for line in lines:
            values = [int(v) for v in line.split()]
            assert values[1] == len(values) - 2
            results.append((values[0], np.asarray(values[2:], dtype=np.int64)))
        return results


@pytest.fixture(scope="module")
def portable(build_root, portable_library):
    return ShapingDriver(kb.link_program([DRIVER], [portable_library], [kb.PORTABLE_INCLUDE],
                                         build_root / "shaping_driver_portable"))


@pytest.fixture(scope="module")
def ns(build_root, ns_dir, ns_library):
    return ShapingDriver(kb.link_program([DRIVER], [ns_library], [ns_dir / "Include"],
                                         build_root / "shaping_driver_ns"))


def _ints(values) -> str:
    return " ".join(str(int(v)) for v in np.asarray(values).reshape(-1))


def _data(rng, bits, shape):
    info = np.iinfo(f"int{bits}")
    return rng.integers(info.min, info.max, size=shape, endpoint=True)


def split_cases(seed=11, count=24):
    """(record, expected) pairs: random ranks 1..5, axes and piece sizes (some empty)."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        bits = (8, 16)[k % 2]
        rank = int(rng.integers(1, 6))
        shape = [int(v) for v in rng.integers(1, 5, size=rank)]
        axis = int(rng.integers(0, rank))
        num = int(rng.integers(1, 5))
        cuts = np.sort(rng.integers(0, shape[axis] + 1, size=num - 1))
        sizes = np.diff(np.concatenate([[0], cuts, [shape[axis]]])).astype(int)
        x = _data(rng, bits, shape)
        want = np.concatenate([p.reshape(-1) for p in np.split(x, np.cumsum(sizes)[:-1], axis=axis)])
        record = (f"split {bits} {rank} {_ints(shape)} {axis} {num} {_ints(sizes)} {x.size} {_ints(x)}")
        yield record, want


def tile_cases(seed=12, count=24):
    rng = np.random.default_rng(seed)
    for k in range(count):
        bits = (8, 16)[k % 2]
        rank = int(rng.integers(1, 7))
        shape = [int(v) for v in rng.integers(1, 4, size=rank)]
        multiples = [int(v) for v in rng.integers(1, 3, size=rank)]
        x = _data(rng, bits, shape)
        record = f"tile {bits} {rank} {_ints(shape)} {_ints(multiples)} {x.size} {_ints(x)}"
        yield record, np.tile(x, multiples).reshape(-1)


def broadcast_cases(seed=13, count=24):
    rng = np.random.default_rng(seed)
    for k in range(count):
        bits = (8, 16)[k % 2]
        rank = int(rng.integers(1, 9))
        out_shape = [int(v) for v in rng.integers(1, 4, size=rank)]
        in_shape = [d if rng.random() < 0.5 else 1 for d in out_shape]
        x = _data(rng, bits, in_shape)
        yield (f"bcast {bits} {rank} {_ints(in_shape)} {_ints(out_shape)} {x.size} {_ints(x)}",
               np.broadcast_to(x, out_shape).reshape(-1))


def slice32_cases(seed=14, count=20):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        in_dims = [int(v) for v in rng.integers(1, 6, size=4)]
        begin = [int(rng.integers(0, d)) for d in in_dims]
        out_dims = [int(rng.integers(1, d - b + 1)) for d, b in zip(in_dims, begin)]
        x = rng.integers(-2**31, 2**31 - 1, size=in_dims, endpoint=True)
        want = x[tuple(slice(b, b + o) for b, o in zip(begin, out_dims))].reshape(-1)
        yield (f"slice32 {_ints(in_dims)} {_ints(begin)} 1 1 1 1 {_ints(out_dims)} {x.size} {_ints(x)}", want)


ALL_CASES = {"split": split_cases, "tile": tile_cases, "broadcast_to": broadcast_cases,
             "strided_slice_s32": slice32_cases}


@pytest.mark.parametrize("kind", list(ALL_CASES))
def test_portable_matches_numpy(portable, kind):
    cases = list(ALL_CASES[kind]())
    for (status, got), (record, want) in zip(portable.run([r for r, _ in cases]), cases):
        assert status == 0, record
        np.testing.assert_array_equal(got, want, err_msg=record)


def test_split_hand_worked(portable):
    # [[1, 2, 3], [4, 5, 6]] along axis 1 into sizes 2 and 1: [[1, 2], [4, 5]] then [[3], [6]].
    (status, got), = portable.run(["split 8 2 2 3 1 2 2 1 6 1 2 3 4 5 6"])
    assert status == 0 and got.tolist() == [1, 2, 4, 5, 3, 6]


def test_argument_checks(portable):
    results = portable.run(["split 8 2 2 3 2 1 3 6 1 2 3 4 5 6",    # axis outside the rank
                            "bcast 8 0 1 5",                          # rank 0
                            "tile 16 1 0 3 0"])                       # zero dimension: nothing to do
    assert [r[0] for r in results] == [-1, -1, 0]


@pytest.mark.parametrize("kind", list(ALL_CASES))
def test_bit_identical_to_ns_cmsis_nn(portable, ns, kind):
    records = [r for r, _ in ALL_CASES[kind](seed=101)]
    mine, theirs = portable.run(records), ns.run(records)
    for record, (s1, a), (s2, b) in zip(records, mine, theirs):
        assert s1 == s2 == 0, record
        np.testing.assert_array_equal(a, b, err_msg=record)

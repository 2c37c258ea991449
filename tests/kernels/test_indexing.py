# SPDX-License-Identifier: Apache-2.0
"""GATHER, GATHER_ND, SCATTER_ND, MIRROR_PAD, REVERSE_SEQUENCE and DYNAMIC_UPDATE_SLICE (int8, int16 entries):
the portable kernels against NumPy, and bit-identical to ns-cmsis-nn (HELIA_NS_CMSIS_NN_DIR)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

import kernel_build as kb
from records import parse

BITS = (8, 16)
ERROR = -1  # ARM_CMSIS_NN_ARG_ERROR


class IndexingDriver:
    def __init__(self, program):
        self.program = program

    def run(self, records: list[str]):
        results = parse(kb.run_program(self.program, "\n".join(records) + "\n"))
        assert len(results) == len(records)
        return results

    def one(self, record: str):
        return self.run([record])[0]


@pytest.fixture(scope="session")
def indexing_driver(build_root, portable_library) -> IndexingDriver:
    return IndexingDriver(kb.link_program([kb.DRIVER_DIR / "indexing_driver.c"], [portable_library],
                                          [kb.PORTABLE_INCLUDE], build_root / "indexing_driver_portable"))


@pytest.fixture(scope="session")
def ns_indexing_driver(build_root, ns_dir, ns_library) -> IndexingDriver:
    return IndexingDriver(kb.link_program([kb.DRIVER_DIR / "indexing_driver.c"], [ns_library], [ns_dir / "Include"],
                                          build_root / "indexing_driver_ns"))


# ---- records (field order of indexing_driver.c) -----------------------------------------------------

def _arr(values) -> str:
    flat = [int(v) for v in np.asarray(values).reshape(-1)]
    return " ".join([str(len(flat)), *map(str, flat)])


def _dims4(shape) -> str:
    return " ".join(str(int(d)) for d in list(shape) + [1] * (4 - len(shape)))


def gather_record(bits, x, idx, axis, batch_dims, out_shape, idx_rank=None):
    idx = np.asarray(idx)
    rank = idx.ndim if idx_rank is None else idx_rank
    return (f"gather {bits} {axis} {batch_dims} {x.ndim} {rank} {_dims4(x.shape)} {_dims4(idx.shape)} "
            f"{_dims4(out_shape)} {int(np.prod(out_shape))} {_arr(x)} {_arr(idx)}")


def gather_nd_record(bits, x, idx, batch_dims, out_shape):
    idx = np.asarray(idx)
    return (f"gather_nd {bits} {x.ndim} {idx.ndim} {batch_dims} {_dims4(x.shape)} {_dims4(idx.shape)} "
            f"{_dims4(out_shape)} {int(np.prod(out_shape))} {_arr(x)} {_arr(idx)}")


def scatter_nd_record(bits, idx, updates, out_shape):
    idx = np.asarray(idx)
    depth = idx.shape[-1]
    strides = [int(np.prod(out_shape[d + 1:])) for d in range(depth)]
    slice_size = int(np.prod(out_shape[depth:]))
    return (f"scatter_nd {bits} {idx.size // depth} {depth} {slice_size} {int(np.prod(out_shape))} {_arr(strides)} "
            f"{_arr(idx)} {_arr(updates)}")


def mirror_pad_record(bits, x, before, after, mode):
    out = [d + b + a for d, b, a in zip(x.shape, before, after)]
    return f"mirror_pad {bits} {x.ndim} {mode} {_arr(x.shape)} {_arr(out)} {_arr(before)} {_arr(x)}"


def reverse_sequence_record(bits, x, lengths, seq_dim, batch_dim):
    return f"reverse_sequence {bits} {x.ndim} {seq_dim} {batch_dim} {_arr(x.shape)} {_arr(lengths)} {_arr(x)}"


def dus_record(bits, operand, update, start):
    strides = [int(np.prod(operand.shape[d + 1:])) for d in range(operand.ndim)]
    return (f"dynamic_update_slice {bits} {operand.ndim} {operand.size} {update.size} {_arr(operand.shape)} "
            f"{_arr(update.shape)} {_arr(strides)} {_arr(start)} {_arr(operand)} {_arr(update)}")


# ---- NumPy references ----------------------------------------------------------------------------------

def ref_gather(x, idx, axis, batch_dims):
    """TFLite GATHER: input[:axis] + indices[batch_dims:] + input[axis + 1:], the batch axes shared."""
    if batch_dims == 0:
        return np.take(x, idx, axis=axis)
    return np.stack([ref_gather(x[b], idx[b], axis - 1, batch_dims - 1) for b in range(x.shape[0])])


def ref_gather_nd(x, idx, batch_dims=0):
    if batch_dims:
        return np.stack([ref_gather_nd(x[b], idx[b], batch_dims - 1) for b in range(x.shape[0])])
    depth = idx.shape[-1]
    flat = idx.reshape(-1, depth)
    rows = [x[tuple(v)] for v in flat]
    return np.asarray(rows).reshape(idx.shape[:-1] + x.shape[depth:])


def ref_scatter_nd(idx, updates, shape, dtype):
    out = np.zeros(shape, dtype=np.int64)
    depth = idx.shape[-1]
    flat = idx.reshape(-1, depth)
    slices = updates.reshape((flat.shape[0],) + tuple(shape[depth:]))
    for v, u in zip(flat, slices):
        out[tuple(v)] += u
    return out.astype(dtype)  # wraps like the int8 / int16 additions


def ref_reverse_sequence(x, lengths, seq_dim, batch_dim):
    out = x.copy()
    for b, length in enumerate(lengths):
        if length <= 0:
            continue
        src = [slice(None)] * x.ndim
        src[batch_dim] = b
        dst = list(src)
        src[seq_dim] = slice(length - 1, None, -1) if length > 0 else slice(0, 0)
        dst[seq_dim] = slice(0, length)
        # x[b][:length] reversed: select with the two axes in place
        out[tuple(dst)] = x[tuple(src)]
    return out


def ref_dus(operand, update, start):
    out = operand.copy()
    clamped = [min(max(int(s), 0), o - u) for s, o, u in zip(start, operand.shape, update.shape)]
    out[tuple(slice(c, c + u) for c, u in zip(clamped, update.shape))] = update
    return out


def rand_data(rng, bits, shape):
    info = np.iinfo(f"int{bits}")
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(np.int64)


def rand_shape(rng, rank, lo=1, hi=4):
    return tuple(int(v) for v in rng.integers(lo, hi + 1, size=rank))


# ---- random valid calls ------------------------------------------------------------------------------

def gather_calls(rng, bits, count=40):
    calls = []
    while len(calls) < count:
        in_rank = int(rng.integers(1, 5))
        axis = int(rng.integers(0, in_rank))
        batch_dims = int(rng.integers(0, axis + 1))
        idx_rank = int(rng.integers(max(batch_dims, 1), 5))
        if in_rank - 1 + idx_rank - batch_dims > 4:
            continue
        x = rand_data(rng, bits, rand_shape(rng, in_rank))
        idx_shape = x.shape[:batch_dims] + rand_shape(rng, idx_rank - batch_dims)
        idx = rng.integers(0, x.shape[axis], size=idx_shape)
        want = ref_gather(x, idx, axis, batch_dims)
        # The entries also take negative axis and batch_dims (counted from the end).
        a = axis - in_rank if rng.integers(0, 2) else axis
        bd = batch_dims - idx_rank if (0 < batch_dims < idx_rank and rng.integers(0, 2)) else batch_dims
        calls.append((gather_record(bits, x, idx, a, bd, want.shape), want))
    return calls


def gather_nd_calls(rng, bits, count=40):
    calls = []
    while len(calls) < count:
        p_rank = int(rng.integers(1, 5))
        batch_dims = int(rng.integers(0, p_rank))
        depth = int(rng.integers(1, p_rank - batch_dims + 1))
        i_rank = int(rng.integers(batch_dims + 1, 5))
        out_rank = i_rank - 1 + p_rank - batch_dims - depth
        if out_rank > 4 or out_rank < 1:
            continue
        x = rand_data(rng, bits, rand_shape(rng, p_rank))
        lead = x.shape[:batch_dims] + rand_shape(rng, i_rank - 1 - batch_dims)
        idx = np.stack([rng.integers(0, x.shape[batch_dims + j], size=lead) for j in range(depth)], axis=-1)
        want = ref_gather_nd(x, idx, batch_dims)
        calls.append((gather_nd_record(bits, x, idx, batch_dims, want.shape), want))
    return calls


def scatter_nd_calls(rng, bits, count=40):
    calls = []
    for _ in range(count):
        shape = rand_shape(rng, int(rng.integers(1, 5)))
        depth = int(rng.integers(1, len(shape) + 1))
        n = int(rng.integers(1, 6))
        idx = np.stack([rng.integers(0, shape[j], size=n) for j in range(depth)], axis=-1)  # repeats add up
        updates = rand_data(rng, bits, (n,) + shape[depth:])
        want = ref_scatter_nd(idx, updates, shape, np.dtype(f"int{bits}"))
        calls.append((scatter_nd_record(bits, idx, updates, shape), want))
    return calls


def mirror_pad_calls(rng, bits, count=40):
    calls = []
    for _ in range(count):
        rank = int(rng.integers(1, 7))
        x = rand_data(rng, bits, rand_shape(rng, rank, 1, 4))
        mode = int(rng.integers(0, 2))
        limit = [d - 1 if mode == 0 else d for d in x.shape]
        before = [int(rng.integers(0, m + 1)) for m in limit]
        after = [int(rng.integers(0, m + 1)) for m in limit]
        want = np.pad(x, list(zip(before, after)), mode="reflect" if mode == 0 else "symmetric")
        calls.append((mirror_pad_record(bits, x, before, after, mode), want))
    return calls


def reverse_sequence_calls(rng, bits, count=40):
    calls = []
    for _ in range(count):
        rank = int(rng.integers(2, 7))
        x = rand_data(rng, bits, rand_shape(rng, rank, 1, 4))
        seq_dim, batch_dim = (int(v) for v in rng.permutation(rank)[:2])
        lengths = rng.integers(-2, x.shape[seq_dim] + 1, size=x.shape[batch_dim])
        want = ref_reverse_sequence(x, lengths, seq_dim, batch_dim)
        calls.append((reverse_sequence_record(bits, x, lengths, seq_dim, batch_dim), want))
    return calls


def dus_calls(rng, bits, count=40):
    calls = []
    for _ in range(count):
        rank = int(rng.integers(1, 7))
        operand = rand_data(rng, bits, rand_shape(rng, rank, 1, 4))
        update = rand_data(rng, bits, tuple(int(rng.integers(1, d + 1)) for d in operand.shape))
        start = rng.integers(-3, 6, size=rank)  # clamped into place
        calls.append((dus_record(bits, operand, update, start), ref_dus(operand, update, start)))
    return calls


CALLS = {"gather": gather_calls, "gather_nd": gather_nd_calls, "scatter_nd": scatter_nd_calls,
         "mirror_pad": mirror_pad_calls, "reverse_sequence": reverse_sequence_calls,
         "dynamic_update_slice": dus_calls}


@pytest.mark.parametrize("bits", BITS)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_matches_numpy(indexing_driver, name, bits):
    calls = CALLS[name](np.random.default_rng(zlib.crc32(f"{name}{bits}".encode())), bits)
    results = indexing_driver.run([record for record, _ in calls])
    for (record, want), got in zip(calls, results):
        assert got.status == 0, record[:200]
        np.testing.assert_array_equal(got.values, np.asarray(want).reshape(-1), err_msg=record[:200])


def test_gather_hand_worked(indexing_driver):
    x = np.arange(12).reshape(3, 4)
    got = indexing_driver.one(gather_record(8, x, [2, 0], -1, 0, (3, 2)))
    assert got.values.tolist() == [2, 0, 6, 4, 10, 8]
    # A scalar index is a rank-1 index of one element; the output keeps a 1 there.
    got = indexing_driver.one(gather_record(16, x, [1], 0, 0, (1, 4)))
    assert got.values.tolist() == [4, 5, 6, 7]


def test_scatter_nd_adds_repeats(indexing_driver):
    got = indexing_driver.one(scatter_nd_record(8, np.array([[1], [1], [3]]), np.array([100, 100, -5]), (4,)))
    assert got.values.tolist() == [0, -56, 0, -5]  # 200 wraps to -56 in int8


def test_reverse_sequence_hand_worked(indexing_driver):
    x = np.arange(12).reshape(3, 4)  # seq_dim 1, batch_dim 0
    got = indexing_driver.one(reverse_sequence_record(8, x, [4, 2, 0], 1, 0))
    assert got.values.tolist() == [3, 2, 1, 0, 5, 4, 6, 7, 8, 9, 10, 11]


def test_mirror_pad_hand_worked(indexing_driver):
    x = np.array([1, 2, 3])
    assert indexing_driver.one(mirror_pad_record(8, x, [2], [2], 0)).values.tolist() == [3, 2, 1, 2, 3, 2, 1]
    assert indexing_driver.one(mirror_pad_record(8, x, [2], [2], 1)).values.tolist() == [2, 1, 1, 2, 3, 3, 2]


def test_dynamic_update_slice_clamps(indexing_driver):
    got = indexing_driver.one(dus_record(8, np.zeros((3, 3), dtype=np.int64), np.ones((2, 2), dtype=np.int64), [5, -4]))
    assert got.values.reshape(3, 3).tolist() == [[0, 0, 0], [1, 1, 0], [1, 1, 0]]


# ---- argument checks (status only; what is written before an error is not part of the contract) -------

def error_records():
    x = np.arange(12).reshape(3, 4)
    return [
        gather_record(8, x, [3, 0], 0, 0, (2, 4)),                    # index past the axis
        gather_record(8, x, [-1, 0], 0, 0, (2, 4)),                   # negative index
        gather_record(8, x, [1, 0], 2, 0, (2, 4)),                    # axis outside the rank
        gather_record(8, x, [1, 0], 0, 0, (2, 5)),                    # output dims wrong
        gather_record(8, x, [[1, 0]], 1, 1, (1, 2)),                  # batch axes differ (3 vs 1)
        gather_nd_record(16, x, [[0, 4]], 0, (1,)),                   # index past its axis (flat in range)
        gather_nd_record(16, x, [[0, 1, 0]], 0, (1,)),                # deeper than the rank
        scatter_nd_record(8, np.array([[3]]), np.array([1, 2, 3, 4]), (3, 4)),   # slice outside
        scatter_nd_record(16, np.array([[-1]]), np.array([1, 2, 3, 4]), (3, 4)),
        f"reverse_sequence 8 9 1 0 {_arr([1] * 9)} {_arr([1])} {_arr([0])}",  # rank 9
        "mirror_pad 16 0 0 0 0 0 1 0",                                        # rank 0
        "dynamic_update_slice 8 0 1 1 0 0 0 0 1 5 1 6",                       # rank 0
    ]


def test_argument_checks(indexing_driver):
    for record, result in zip(error_records(), indexing_driver.run(error_records())):
        assert result.status == ERROR, record


def test_portable_only_checks(indexing_driver):
    # Inputs ns-cmsis-nn does not check (it would read outside the input): here an error, nothing read.
    x = np.arange(12).reshape(3, 4)
    assert indexing_driver.one(reverse_sequence_record(8, x, [5, 1, 1], 1, 0)).status == ERROR  # length > axis
    assert indexing_driver.one(mirror_pad_record(8, x, [3, 0], [0, 0], 0)).status == ERROR       # REFLECT pad = axis
    assert indexing_driver.one(mirror_pad_record(8, x, [0, 0], [0, 5], 1)).status == ERROR       # SYMMETRIC pad > axis
    assert indexing_driver.one(dus_record(8, x, np.zeros((4, 1), dtype=np.int64), [0, 0])).status == ERROR
    assert indexing_driver.one(gather_record(8, np.arange(16).reshape(2, 2, 2, 2), np.zeros((2, 2, 2), dtype=int), 0,
                                             0, (2, 2, 2, 2))).status == ERROR  # output of rank 6


# ---- parity with ns-cmsis-nn --------------------------------------------------------------------------

@pytest.mark.parametrize("bits", BITS)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_bit_identical_to_ns_cmsis_nn(indexing_driver, ns_indexing_driver, name, bits):
    records = [record for record, _ in CALLS[name](np.random.default_rng(zlib.crc32(f"{name}{bits}parity".encode())), bits)]
    portable = indexing_driver.run(records)
    reference = ns_indexing_driver.run(records)
    for record, a, b in zip(records, portable, reference):
        assert a.status == b.status, record[:200]
        np.testing.assert_array_equal(a.values, b.values, err_msg=record[:200])


def test_argument_checks_match_ns_cmsis_nn(indexing_driver, ns_indexing_driver):
    records = error_records()
    statuses = [r.status for r in ns_indexing_driver.run(records)]
    assert statuses == [r.status for r in indexing_driver.run(records)]

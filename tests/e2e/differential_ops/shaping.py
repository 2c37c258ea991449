# SPDX-License-Identifier: Apache-2.0
"""Differential case generators: the shaping / data-movement operators.

Each walk crosses its operator's declared rules (helia_aot/ops/<op>.py): quantization equal on both sides or not
(these operators move codes, and LiteRT compares scales only in BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND and PADV2's
value), int16 zero points, ranks around the kernel limits, negative and out-of-range axes, masks, paddings, block
sizes, the resize flags, and constant or run-time indices (run-time ones fixed in range, so the reference's invoke
does not fail on drawn values)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from tests.e2e.differential import Case, _grid
from tests.modelgen import ModelBuilder

GENERATORS: dict[str, Callable[[np.random.Generator, int], Iterator[Case]]] = {}
# Cases per operator in CI where fewer than tests/e2e/test_differential.py's default keep the suite in budget.
CI_CASES: dict[str, int] = {}

NP = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64, "float32": np.float32,
      "bool": np.bool_}


def _quant(rng: np.random.Generator, dtype: str, kind: str = "same") -> tuple[tuple, tuple]:
    """(input (scale, zero point), output (scale, zero point)) for dtype: the same on both sides, or the output's
    scale and zero point moved ("other"); "zp" gives int16 a nonzero zero point on both sides."""
    if dtype not in ("int8", "int16"):
        return (None, None), (None, None)
    scale = float(rng.uniform(0.01, 0.1)) / (256 if dtype == "int16" else 1)
    zp = int(rng.integers(-20, 20)) if dtype == "int8" else (3 if kind == "zp" else 0)
    if kind == "other":
        return (scale, zp), (scale * 1.5, zp + 2 if dtype == "int8" else 0)
    return (scale, zp), (scale, zp)


def _walk(rng: np.random.Generator, axes: dict[str, list], limit: int, boundary: Callable[[dict], bool]):
    """`limit` points of _grid's walk (every axis value early), reordered so points past a rule's boundary
    (`boundary`: a reference or helia-aot refuses it) come one after every two inside it: the few cases CI runs
    reach both sides."""
    points = list(_grid(rng, axes, 1 << 16))
    inside = [p for p in points if not boundary(p)]
    past = [p for p in points if boundary(p)]
    order = []
    while (inside or past) and len(order) < limit:
        for source in (inside, past, inside):
            if source and len(order) < limit:
                order.append(source.pop(0))
    return order


def _case(op: str, k: int, b: ModelBuilder, boundary: str, fixed: dict | None = None) -> Case:
    return Case(op, f"{op.lower()}_{k:03d}", b.build(), boundary, fixed or {})


def _register(op: str, ci: int):
    def wrap(fn):
        GENERATORS[op] = fn
        CI_CASES[op] = ci
        return fn
    return wrap


def _values(rng, dtype: str, shape) -> np.ndarray:
    if dtype == "float32":
        return rng.uniform(-1, 1, shape).astype(np.float32)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(NP[dtype])
    return rng.integers(max(info.min, -1000), min(info.max, 1000), shape).astype(NP[dtype])


# ---- RESHAPE / SQUEEZE / EXPAND_DIMS: aliases (no quantization rule)

def _alias_cases(op: str):
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        if op == "RESHAPE":
            forms = [((2, 3, 4), (6, 4)), ((2, 3, 4), (24,)), ((2, 3, 4), (5, 5)), ((1, 6), (2, 1, 3))]
        elif op == "SQUEEZE":
            forms = [[], [1], [-1], [0], [4]]
        else:
            forms = [0, -1, 3, 4, -5]
        axes = {"form": forms, "dtype": ["int8", "int16", "float32", "int32"], "quant": ["other", "same", "zp"]}
        def past(p: dict) -> bool:
            return p["form"] in (((2, 3, 4), (5, 5)), [0], [4], 4, -5)
        for k, p in enumerate(_walk(rng, axes, limit, past)):
            dtype, form = p["dtype"], p["form"]
            (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
            b = ModelBuilder()
            if op == "RESHAPE":
                shape, out = form
                x = b.input("x", shape, dtype, xs, xz)
                inputs = [x, b.const("shape", np.asarray(out, np.int32))]
                options = {}
            elif op == "SQUEEZE":
                shape = (2, 1, 3, 1)
                x = b.input("x", shape, dtype, xs, xz)
                dims = [d % 4 for d in form if -4 <= d < 4] or [1, 3]
                out = tuple(n for d, n in enumerate(shape) if d not in dims or n != 1)
                out = out if len(out) < len(shape) else (2, 3)
                inputs, options = [x], {"squeeze_dims": form}
            else:
                shape = (2, 3, 4)
                x = b.input("x", shape, dtype, xs, xz)
                at = form % 4 if -4 <= form <= 3 else 0
                out = shape[:at] + (1,) + shape[at:]
                inputs, options = [x, b.const("axis", np.asarray([form], np.int32))], None
            y = b.tensor("y", out, dtype, ys, yz)
            b.op(op, inputs, [y], options)
            b.output(y)
            yield _case(op, k, b, f"{dtype} {form}, quantization {p['quant']}")
    return cases


for _op in ("RESHAPE", "SQUEEZE", "EXPAND_DIMS"):
    _register(_op, 4)(_alias_cases(_op))


# ---- TRANSPOSE

@_register("TRANSPOSE", 4)
def transpose_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"rank": [3, 5, 4, 2], "perm": ["reverse", "duplicate", "rotate"], "dtype": ["int8", "int16", "float32"],
            "quant": ["other", "zp", "same"]}
    def past(p: dict) -> bool:
        return p["rank"] == 5 or p["perm"] == "duplicate"
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, rank = p["dtype"], p["rank"]
        shape = (2, 3, 4, 1, 2)[:rank]
        perm = {"reverse": list(range(rank))[::-1], "rotate": list(range(1, rank)) + [0],
                "duplicate": [0] * rank}[p["perm"]]
        out = tuple(shape[i] for i in perm)
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        y = b.tensor("y", out, dtype, ys, yz)
        b.op("TRANSPOSE", [x, b.const("perm", np.asarray(perm, np.int32))], [y])
        b.output(y)
        yield _case("TRANSPOSE", k, b, f"{dtype} rank {rank} perm {perm}, quantization {p['quant']}")


# ---- SLICE / STRIDED_SLICE

@_register("SLICE", 4)
def slice_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"size": ["fit", "overrun", "to_end", "negative_begin"], "rank": [4, 5, 2],
            "dtype": ["int8", "int16", "float32", "int32", "bool"], "quant": ["other", "same"]}
    def past(p: dict) -> bool:
        return p["size"] in ("overrun", "negative_begin")
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, rank = p["dtype"], p["rank"]
        shape = (3, 4, 2, 3, 2)[:rank]
        begin = [1] * rank
        size = {"fit": [n - 1 for n in shape], "overrun": [n for n in shape], "to_end": [-1] * rank,
                "negative_begin": [1] * rank}[p["size"]]
        if p["size"] == "negative_begin":
            begin[0] = -1
        out = [n - b if s == -1 else s for n, b, s in zip(shape, begin, size)]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        y = b.tensor("y", [max(o, 1) for o in out], dtype, ys, yz)
        b.op("SLICE", [x, b.const("begin", np.asarray(begin, np.int32)), b.const("size", np.asarray(size, np.int32))],
             [y])
        b.output(y)
        yield _case("SLICE", k, b, f"{dtype} rank {rank} begin {begin} size {size}, quantization {p['quant']}")


def _strided_operands(spec: list) -> tuple[list[int], list[int], list[int], dict]:
    """begin, end, strides and masks of a Python index (slices, ints, None, Ellipsis), as TensorFlow's
    strided_slice encodes `x[spec]`."""
    begin, end, strides, masks = [], [], [], dict(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                                                  shrink_axis_mask=0)
    for i, item in enumerate(spec):
        b, e, s = 0, 0, 1
        if item is Ellipsis:
            masks["ellipsis_mask"] |= 1 << i
        elif item is None:
            masks["new_axis_mask"] |= 1 << i
        elif isinstance(item, int):
            b, e = item, item + 1
            masks["shrink_axis_mask"] |= 1 << i
        else:
            b, e, s = item.start or 0, item.stop or 0, item.step or 1
            masks["begin_mask"] |= (item.start is None) << i
            masks["end_mask"] |= (item.stop is None) << i
        begin.append(b)
        end.append(e)
        strides.append(s)
    return begin, end, strides, masks


@_register("STRIDED_SLICE", 6)
def strided_slice_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"stride": [2, -1, 0, 1], "masks": ["none", "begin_end", "shrink", "ellipsis", "new_axis", "short", "offset",
                                               "shrink_past"],
            "dtype": ["int8", "int16", "float32", "int32"], "quant": ["other", "zp", "same"], "rank": [3, 5]}
    def past(p: dict) -> bool:
        return p["rank"] == 5 or p["stride"] <= 0 or p["masks"] == "shrink_past"
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, s, rank = p["dtype"], p["stride"], p["rank"]
        shape = (4, 5, 3, 2, 2)[:rank]
        first = slice(3, 0, s) if s < 0 else slice(1, 4, s or None)
        rest = [slice(0, n) for n in shape[1:]]
        spec = {"none": [first, *rest], "begin_end": [first, slice(None, None)] + rest[1:],
                "shrink": [first, 2] + rest[1:], "ellipsis": [first, Ellipsis, slice(0, 1)],
                "new_axis": [first, None, *rest], "short": [first], "offset": [first, *rest],
                "shrink_past": [first, shape[1]] + rest[1:]}[p["masks"]]
        begin, end, strides, options = _strided_operands(spec)
        if s == 0:
            strides[0] = 0
            out = shape
        elif p["masks"] == "offset":
            # offset: end holds each axis's length from begin (x[1:1 + 3], x[0:0 + n], ...)
            end = [e - b for b, e in zip(begin, end)]
            options["offset"] = True
            out = np.empty(shape)[tuple(spec)].shape
        elif p["masks"] == "shrink_past":
            out = np.empty(shape)[tuple(spec[:1])].shape[:1] + shape[2:]
        else:
            out = np.empty(shape)[tuple(spec)].shape
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        y = b.tensor("y", out, dtype, ys, yz)
        b.op("STRIDED_SLICE", [x, b.const("begin", np.asarray(begin, np.int32)),
                               b.const("end", np.asarray(end, np.int32)),
                               b.const("strides", np.asarray(strides, np.int32))], [y], options)
        b.output(y)
        yield _case("STRIDED_SLICE", k, b, f"{dtype} rank {rank} stride {s} masks {p['masks']}, quantization "
                                           f"{p['quant']}")


# ---- PAD / PADV2 / MIRROR_PAD

def _pad_cases(op: str):
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        axes = {"quant": ["other", "same", "zp"], "pads": ["positive", "negative", "zero"], "rank": [4, 2, 5],
                "dtype": ["int8", "int16", "float32"], "value": ["output", "other"]}
        def past(p: dict) -> bool:
            return (p["pads"] == "negative" or p["rank"] == 5
                or (op == "PADV2" and p["value"] == "other" and p["dtype"] != "float32"))
        for k, p in enumerate(_walk(rng, axes, limit, past)):
            dtype, rank = p["dtype"], p["rank"]
            shape = (1, 3, 4, 2, 2)[:rank]
            pads = {"positive": [[1, 2]] + [[0, 1]] * (rank - 1), "zero": [[0, 0]] * rank,
                    "negative": [[0, -1]] + [[1, 0]] * (rank - 1)}[p["pads"]]
            out = [n + a + c for n, (a, c) in zip(shape, pads)]
            (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
            b = ModelBuilder()
            x = b.input("x", shape, dtype, xs, xz)
            inputs = [x, b.const("paddings", np.asarray(pads, np.int32))]
            boundary = f"{dtype} rank {rank} paddings {pads}, quantization {p['quant']}"
            if op == "PADV2":
                vs, vz = (ys, yz) if p["value"] == "output" or dtype == "float32" else (ys * 2, yz)
                value = np.asarray([5], NP[dtype]) if dtype != "float32" else np.asarray([0.25], np.float32)
                inputs.append(b.const("value", value, dtype, vs, vz))
                boundary += f", value quantized as the {p['value']}"
            y = b.tensor("y", [max(o, 1) for o in out], dtype, ys, yz)
            b.op(op, inputs, [y])
            b.output(y)
            yield _case(op, k, b, boundary)
    return cases


_register("PAD", 4)(_pad_cases("PAD"))
_register("PADV2", 4)(_pad_cases("PADV2"))


@_register("MIRROR_PAD", 4)
def mirror_pad_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"width": ["inside", "edge", "wide"], "mode": [0, 1], "dtype": ["int8", "int16", "float32", "int32"],
            "quant": ["other", "same", "zp"], "rank": [3, 1]}
    def past(p: dict) -> bool:
        return p["width"] == "wide" or (p["dtype"] == "int16" and p["quant"] != "same")
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, rank = p["dtype"], p["rank"]
        shape = (4, 3, 2)[:rank]
        edge = shape[0] - (1 if p["mode"] == 0 else 0)
        first = {"inside": 1, "edge": edge, "wide": edge + 1}[p["width"]]
        pads = [[first, 1]] + [[1, 0]] * (rank - 1)
        out = [n + a + c for n, (a, c) in zip(shape, pads)]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        y = b.tensor("y", out, dtype, ys, yz)
        b.op("MIRROR_PAD", [x, b.const("paddings", np.asarray(pads, np.int32))], [y], {"mode": p["mode"]})
        b.output(y)
        yield _case("MIRROR_PAD", k, b, f"{dtype} {('REFLECT', 'SYMMETRIC')[p['mode']]} paddings {pads} of {shape}, "
                                        f"quantization {p['quant']}")


# ---- PACK / UNPACK / SPLIT / SPLIT_V

@_register("PACK", 4)
def pack_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"axis": [0, -1, 4, 1], "dtype": ["int8", "int16", "float32", "int32"], "count": [2, 3],
            "quant": ["same", "other"]}
    def past(p: dict) -> bool:
        return p["axis"] == 4
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, axis = p["dtype"], p["axis"]
        shape = (2, 3, 2)
        at = axis % 4 if -4 <= axis < 4 else 0
        out = list(shape)
        out.insert(at, p["count"])
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        xs_ = [b.input(f"x{i}", shape, dtype, xs, xz) for i in range(p["count"])]
        y = b.tensor("y", out, dtype, ys, yz)
        b.op("PACK", xs_, [y], {"values_count": p["count"], "axis": axis})
        b.output(y)
        yield _case("PACK", k, b, f"{dtype} {p['count']} inputs on axis {axis}, quantization {p['quant']}")


@_register("UNPACK", 4)
def unpack_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"axis": [1, -1, 3, 0], "dtype": ["int8", "int16", "float32", "int32"], "num": ["axis", "zero", "wrong"],
            "quant": ["other", "same"]}
    def past(p: dict) -> bool:
        return p["axis"] == 3 or p["num"] != "axis"
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, axis = p["dtype"], p["axis"]
        shape = (2, 3, 2)
        at = axis % 3 if -3 <= axis < 3 else 0
        n = shape[at]
        out = [d for i, d in enumerate(shape) if i != at]
        num = {"axis": n, "zero": 0, "wrong": n + 1}[p["num"]]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        ys_ = [b.tensor(f"y{i}", out, dtype, ys, yz) for i in range(n)]
        b.op("UNPACK", [x], ys_, {"num": num, "axis": axis})
        for y in ys_:
            b.output(y)
        yield _case("UNPACK", k, b, f"{dtype} axis {axis} num {num}, quantization {p['quant']}")


@_register("SPLIT", 4)
def split_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"axis": [1, -1, 3, 0], "dtype": ["int8", "int16", "float32", "int32"], "splits": [2, 3, 4],
            "quant": ["other", "same"]}
    def past(p: dict) -> bool:
        return p["axis"] == 3 or (6 if p["axis"] == 1 else 4 if p["axis"] == -1 else 2) % p["splits"] != 0
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, axis, count = p["dtype"], p["axis"], p["splits"]
        shape = (2, 6, 4)
        at = axis % 3 if -3 <= axis < 3 else 1
        out = list(shape)
        out[at] = max(shape[at] // count, 1)
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        ax = b.const("axis", np.asarray([axis], np.int32))
        x = b.input("x", shape, dtype, xs, xz)
        ys_ = [b.tensor(f"y{i}", out, dtype, ys, yz) for i in range(count)]
        b.op("SPLIT", [ax, x], ys_, {"num_splits": count})
        for y in ys_:
            b.output(y)
        yield _case("SPLIT", k, b, f"{dtype} {shape} axis {axis} into {count}, quantization {p['quant']}")


@_register("SPLIT_V", 4)
def split_v_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"sizes": [[1, 2, 3], [2, -1, 1], [-1, -1, 2], [1, 1, 1]], "axis": [1, -2, 3],
            "dtype": ["int8", "int16", "float32", "int32"], "quant": ["other", "same"]}
    def past(p: dict) -> bool:
        return p["axis"] == 3 or p["sizes"] in ([-1, -1, 2], [1, 1, 1])
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, axis, sizes = p["dtype"], p["axis"], p["sizes"]
        shape = (2, 6, 4)
        at = axis % 3 if -3 <= axis < 3 else 1
        rest = shape[at] - sum(s for s in sizes if s >= 0)
        pieces = [s if s >= 0 else max(rest, 1) for s in sizes]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        ys_ = []
        for i, n in enumerate(pieces):
            out = list(shape)
            out[at] = n
            ys_.append(b.tensor(f"y{i}", out, dtype, ys, yz))
        b.op("SPLIT_V", [x, b.const("size_splits", np.asarray(sizes, np.int32)),
                         b.const("axis", np.asarray([axis], np.int32))], ys_, {"num_splits": len(sizes)})
        for y in ys_:
            b.output(y)
        yield _case("SPLIT_V", k, b, f"{dtype} {shape} axis {axis} sizes {sizes}, quantization {p['quant']}")


# ---- TILE / BROADCAST_TO

@_register("TILE", 4)
def tile_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # No zero multiple: its empty output is refused by helia-aot's model loader (empty model outputs) before any rule.
    axes = {"multiples": ["mixed", "negative", "ones", "leading"], "rank": [3, 1, 4],
            "dtype": ["int8", "int16", "float32", "int32", "bool"], "quant": ["other", "same"]}
    def past(p: dict) -> bool:
        return p["multiples"] == "negative"
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, rank = p["dtype"], p["rank"]
        shape = (2, 3, 1, 2)[:rank]
        multiples = {"mixed": [2, 1, 3, 1], "negative": [-1, 1, 1, 1], "ones": [1] * 4,
                     "leading": [3, 1, 1, 2]}[p["multiples"]][:rank]
        out = [n * m if m >= 0 else 1 for n, m in zip(shape, multiples)]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        y = b.tensor("y", out, dtype, ys, yz)
        b.op("TILE", [x, b.const("multiples", np.asarray(multiples, np.int32))], [y])
        b.output(y)
        yield _case("TILE", k, b, f"{dtype} {shape} multiples {multiples}, quantization {p['quant']}")


@_register("BROADCAST_TO", 4)
def broadcast_to_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # No rank-9 shape: LiteRT runs it, helia-aot's model loader refuses ranks above 8 before any operator rule.
    axes = {"form": [((3, 1), (2, 3, 4)), ((2, 3), (2, 4)), ((1, 3), (1, 3)), ((2, 3), (3,)),
                     ((2, 1, 3), (2, 2, 3))],
            "dtype": ["int8", "int16", "float32", "int32", "bool"], "quant": ["other", "same"]}
    def past(p: dict) -> bool:
        return p["form"] in (((2, 3), (2, 4)), ((2, 3), (3,)))
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, (shape, out) = p["dtype"], p["form"]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        y = b.tensor("y", out, dtype, ys, yz)
        b.op("BROADCAST_TO", [x, b.const("shape", np.asarray(out, np.int32))], [y])
        b.output(y)
        yield _case("BROADCAST_TO", k, b, f"{dtype} {shape} to {out}, quantization {p['quant']}")


# ---- GATHER / GATHER_ND / SCATTER_ND

def _index_tensor(b: ModelBuilder, kind: str, values: np.ndarray, dtype: str = "int32"):
    """The index operand: constant, or a run-time input whose values the case fixes."""
    if kind == "input":
        return b.input("indices", values.shape, dtype), {"indices": values.astype(NP[dtype])}
    return b.const("indices", values.astype(NP[dtype]), dtype), {}


@_register("GATHER", 4)
def gather_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"axis": [1, -1, 2, 0], "indices": ["const", "input", "out_of_range"], "batch_dims": [0, 1, 2],
            "dtype": ["int8", "int16", "float32", "int32"], "quant": ["other", "zp", "same"],
            "index_dtype": ["int32", "int64"]}
    def past(p: dict) -> bool:
        return p["axis"] == 2 or p["indices"] == "out_of_range" or p["batch_dims"] > (p["axis"] % 2)
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, axis, bd = p["dtype"], p["axis"], p["batch_dims"]
        shape = (2, 3)
        at = axis % 2 if -2 <= axis < 2 else 1
        idx = np.asarray([[0, 2], [1, 1]]) % shape[at]
        if p["indices"] == "out_of_range":
            idx[0, 0] = shape[at]
        out = shape[:at] + idx.shape[bd:] + shape[at + 1:]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        ix, fixed = _index_tensor(b, "input" if p["indices"] == "input" else "const", idx, p["index_dtype"])
        y = b.tensor("y", out, dtype, ys, yz)
        b.op("GATHER", [x, ix], [y], {"axis": axis, "batch_dims": bd})
        b.output(y)
        yield _case("GATHER", k, b, f"{dtype} axis {axis} batch_dims {bd}, {p['indices']} {p['index_dtype']} "
                                    f"indices, quantization {p['quant']}", fixed)


@_register("GATHER_ND", 4)
def gather_nd_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"depth": [2, 1, 4, 3], "indices": ["const", "input", "out_of_range"],
            "dtype": ["int8", "int16", "float32", "int32"], "quant": ["other", "zp", "same"]}
    def past(p: dict) -> bool:
        return p["depth"] == 4 or p["indices"] == "out_of_range"
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, depth = p["dtype"], p["depth"]
        shape = (3, 2, 4)
        idx = np.asarray([[2, 1, 3, 0], [0, 0, 1, 0]])[:, :depth] % np.asarray((shape + (1,))[:depth])
        if p["indices"] == "out_of_range":
            idx[1, 0] = shape[0]
        out = idx.shape[:-1] + shape[depth:]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        ix, fixed = _index_tensor(b, "input" if p["indices"] == "input" else "const", idx)
        y = b.tensor("y", out, dtype, ys, yz)
        b.op("GATHER_ND", [x, ix], [y])
        b.output(y)
        yield _case("GATHER_ND", k, b, f"{dtype} depth {depth}, {p['indices']} indices, quantization {p['quant']}",
                    fixed)


@_register("SCATTER_ND", 4)
def scatter_nd_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"depth": [1, 2, 4], "indices": ["const", "input", "out_of_range"],
            "dtype": ["int8", "float32", "int32"], "quant": ["other", "same"]}
    def past(p: dict) -> bool:
        return p["depth"] == 4 or p["indices"] == "out_of_range"
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, depth = p["dtype"], p["depth"]
        shape = (4, 3, 2)
        idx = np.asarray([[1, 2, 1, 0], [3, 0, 0, 0], [1, 2, 1, 0]])[:, :depth] % np.asarray((shape + (1,))[:depth])
        if p["indices"] == "out_of_range":
            idx[0, 0] = shape[0]
        upd_shape = idx.shape[:-1] + shape[depth:]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        ix, fixed = _index_tensor(b, "input" if p["indices"] == "input" else "const", idx)
        u = b.input("updates", upd_shape, dtype, xs, xz)
        y = b.tensor("y", shape, dtype, ys, yz)
        b.op("SCATTER_ND", [ix, u, b.const("shape", np.asarray(shape, np.int32))], [y])
        b.output(y)
        yield _case("SCATTER_ND", k, b, f"{dtype} depth {depth}, {p['indices']} indices (a repeated position), "
                                        f"quantization {p['quant']}", fixed)


# ---- DEPTH_TO_SPACE / SPACE_TO_DEPTH / BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND

def _block_cases(op: str):
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        axes = {"block": [2, 3, 1, 0], "dtype": ["int8", "float32", "int16", "int32"], "quant": ["other", "same"],
                "rank": [4, 3]}
        def past(p: dict) -> bool:
            return p["block"] in (0, 3) or p["rank"] == 3 or p["dtype"] == "int16"
        for k, p in enumerate(_walk(rng, axes, limit, past)):
            dtype, bs = p["dtype"], p["block"]
            if op == "DEPTH_TO_SPACE":
                shape = (1, 2, 3, 8)
                out = (1, 2 * bs, 3 * bs, 8 // max(bs * bs, 1)) if bs else shape
            else:
                shape = (1, 4, 6, 2)
                out = (1, 4 // max(bs, 1), 6 // max(bs, 1), 2 * bs * bs) if bs else shape
            if p["rank"] == 3:
                shape, out = shape[1:], out[1:]
            (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
            b = ModelBuilder()
            x = b.input("x", shape, dtype, xs, xz)
            y = b.tensor("y", [max(o, 1) for o in out], dtype, ys, yz)
            b.op(op, [x], [y], {"block_size": bs})
            b.output(y)
            yield _case(op, k, b, f"{dtype} {shape} block {bs}, quantization {p['quant']}")
    return cases


_register("DEPTH_TO_SPACE", 4)(_block_cases("DEPTH_TO_SPACE"))
_register("SPACE_TO_DEPTH", 4)(_block_cases("SPACE_TO_DEPTH"))


def _nd_cases(op: str):
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        axes = {"quant": ["other", "same", "zp"], "pairs": ["none", "some", "bad"], "rank": [4, 3],
                "dtype": ["int8", "int16", "float32"]}
        def past(p: dict) -> bool:
            return p["pairs"] == "bad" or (p["dtype"] != "float32" and p["quant"] != "same")
        for k, p in enumerate(_walk(rng, axes, limit, past)):
            dtype, rank = p["dtype"], p["rank"]
            block = [2, 2] if rank == 4 else [2]
            if op == "BATCH_TO_SPACE_ND":
                shape = (4, 2, 3, 2) if rank == 4 else (4, 3, 2)
                pairs = {"none": [[0, 0], [0, 0]], "some": [[1, 0], [0, 1]], "bad": [[3, 2], [0, 0]]}[p["pairs"]]
                pairs = pairs[:rank - 2]
                n, h = shape[0] // (2 ** (rank - 2)), shape[1] * 2 - sum(pairs[0])
                out = (n, h, shape[2] * 2 - sum(pairs[1]), shape[3]) if rank == 4 else (n, h, shape[2])
            else:
                shape = (1, 4, 3, 2) if rank == 4 else (1, 4, 2)
                pairs = {"none": [[0, 0], [1, 0]], "some": [[1, 1], [0, 1]], "bad": [[0, 1], [0, 1]]}[p["pairs"]]
                pairs = pairs[:rank - 2]
                h = (shape[1] + sum(pairs[0])) // 2
                out = ((shape[0] * 4, h, (shape[2] + sum(pairs[1])) // 2, shape[3]) if rank == 4
                       else (shape[0] * 2, h, shape[2]))
            (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
            b = ModelBuilder()
            x = b.input("x", shape, dtype, xs, xz)
            y = b.tensor("y", [max(o, 1) for o in out], dtype, ys, yz)
            b.op(op, [x, b.const("block_shape", np.asarray(block, np.int32)),
                      b.const("pairs", np.asarray(pairs, np.int32))], [y])
            b.output(y)
            yield _case(op, k, b, f"{dtype} {shape} block {block} {pairs}, quantization {p['quant']}")
    return cases


_register("BATCH_TO_SPACE_ND", 4)(_nd_cases("BATCH_TO_SPACE_ND"))
_register("SPACE_TO_BATCH_ND", 4)(_nd_cases("SPACE_TO_BATCH_ND"))


# ---- REVERSE_V2 / REVERSE_SEQUENCE

@_register("REVERSE_V2", 4)
def reverse_v2_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"axes": [[1], [1, 2], [0, 2], [-1], [3]], "dtype": ["int8", "int16", "float32", "int32", "bool"],
            "quant": ["other", "zp", "same"]}
    def past(p: dict) -> bool:
        return p["axes"] in ([0, 2], [3])
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype = p["dtype"]
        shape = (2, 3, 4)
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        y = b.tensor("y", shape, dtype, ys, yz)
        b.op("REVERSE_V2", [x, b.const("axis", np.asarray(p["axes"], np.int32))], [y])
        b.output(y)
        yield _case("REVERSE_V2", k, b, f"{dtype} axes {p['axes']}, quantization {p['quant']}")


@_register("REVERSE_SEQUENCE", 4)
def reverse_sequence_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"dims": [(1, 0), (0, 2), (1, 1), (2, 0)], "lengths": ["const", "input", "too_long"],
            "dtype": ["int16", "float32", "int32"], "quant": ["other", "zp", "same"]}
    def past(p: dict) -> bool:
        return p["dims"] == (1, 1) or p["lengths"] == "too_long"
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, (seq, batch) = p["dtype"], p["dims"]
        shape = (3, 4, 2)
        lengths = (np.asarray([3, 0, 1, 2, 4])[:shape[batch]] % (shape[seq] + 1))
        if p["lengths"] == "too_long":
            lengths[0] = shape[seq] + 1
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        if p["lengths"] == "input":
            ln, fixed = b.input("seq_lengths", lengths.shape, "int32"), {"seq_lengths": lengths.astype(np.int32)}
        else:
            ln, fixed = b.const("seq_lengths", lengths.astype(np.int32)), {}
        y = b.tensor("y", shape, dtype, ys, yz)
        b.op("REVERSE_SEQUENCE", [x, ln], [y], {"seq_dim": seq, "batch_dim": batch})
        b.output(y)
        yield _case("REVERSE_SEQUENCE", k, b, f"{dtype} seq_dim {seq} batch_dim {batch}, {p['lengths']} lengths "
                                              f"{lengths.tolist()}, quantization {p['quant']}", fixed)


# ---- RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR

def _resize_cases(op: str):
    def cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
        axes = {"flags": [(False, True), (True, True), (True, False), (False, False)],
                "size": [(5, 7), (2, 3), (3, 3)], "dtype": ["int8", "int16", "float32"],
                "quant": ["other", "zp", "same"], "rank": [4, 3]}
        def past(p: dict) -> bool:
            return p["rank"] == 3 or (op == "RESIZE_BILINEAR" and p["flags"] == (True, True))
        for k, p in enumerate(_walk(rng, axes, limit, past)):
            dtype, (oh, ow), (align, half) = p["dtype"], p["size"], p["flags"]
            shape, out = ((1, 3, 4, 2), (1, oh, ow, 2)) if p["rank"] == 4 else ((3, 4, 2), (oh, ow, 2))
            (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
            b = ModelBuilder()
            x = b.input("x", shape, dtype, xs, xz)
            y = b.tensor("y", out, dtype, ys, yz)
            b.op(op, [x, b.const("size", np.asarray([oh, ow], np.int32))], [y],
                 {"align_corners": align, "half_pixel_centers": half})
            b.output(y)
            yield _case(op, k, b, f"{dtype} {shape} to {(oh, ow)}, align_corners {align}, half_pixel_centers "
                                  f"{half}, quantization {p['quant']}")
    return cases


_register("RESIZE_BILINEAR", 4)(_resize_cases("RESIZE_BILINEAR"))
_register("RESIZE_NEAREST_NEIGHBOR", 4)(_resize_cases("RESIZE_NEAREST_NEIGHBOR"))


# ---- SHAPE / DILATE / DYNAMIC_UPDATE_SLICE

@_register("SHAPE", 4)
def shape_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    # out_type naming the other dtype than the output tensor's: TFLM writes the tensor's, as the module does
    # (LiteRT retypes it); an output declared one element longer than the rank: OUTPUT_SHAPE_RULE.
    axes = {"out": [("int32", 2), ("int64", 4), ("int32", 4)], "dtype": ["int8", "float32", "int32", "bool"],
            "shape": [(2, 3), (1, 2, 3, 4, 5), (7,)], "length": ["rank", "rank + 1"]}
    def past(p: dict) -> bool:
        return p["length"] != "rank"
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, (out_dtype, out_type) = p["dtype"], p["out"]
        b = ModelBuilder()
        x = b.input("x", p["shape"], dtype, *((0.05, 1) if dtype == "int8" else (None, None)))
        y = b.tensor("y", (len(p["shape"]) + (p["length"] != "rank"),), out_dtype)
        b.op("SHAPE", [x], [y], {"out_type": out_type})
        b.output(y)
        yield _case("SHAPE", k, b, f"{dtype} {p['shape']}, out_type {out_type} into {out_dtype} [{p['length']}]")


@_register("DILATE", 4)
def dilate_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"dilations": ["mixed", "zero", "ones"], "dtype": ["int8", "int16", "float32"], "rank": [3, 1],
            "quant": ["other", "same"]}
    def past(p: dict) -> bool:
        return p["dilations"] == "zero"
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype, rank = p["dtype"], p["rank"]
        shape = (2, 3, 2)[:rank]
        dil = {"mixed": [2, 1, 3], "zero": [1, 0, 1], "ones": [1, 1, 1]}[p["dilations"]][:rank]
        if p["dilations"] == "zero" and rank == 1:
            dil = [0]
        out = [max((n - 1) * d + 1, 1) for n, d in zip(shape, dil)]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        pad = b.input("padding_value", (), dtype, xs, xz)
        y = b.tensor("y", out, dtype, ys, yz)
        b.op("DILATE", [x, b.const("dilations", np.asarray(dil, np.int32)), pad], [y])
        b.output(y)
        yield _case("DILATE", k, b, f"{dtype} {shape} dilations {dil}, quantization {p['quant']}")


@_register("DYNAMIC_UPDATE_SLICE", 4)
def dynamic_update_slice_cases(rng: np.random.Generator, limit: int) -> Iterator[Case]:
    axes = {"start": ["clamped", "input", "const"], "update": [(2, 2), (4, 1), (1, 3), (3, 1)],
            "dtype": ["int8", "int16", "float32", "int32"], "quant": ["other", "zp", "same"],
            "index_dtype": ["int32", "int64"]}
    def past(p: dict) -> bool:
        return p["update"] in ((4, 1), (1, 3))
    for k, p in enumerate(_walk(rng, axes, limit, past)):
        dtype = p["dtype"]
        shape = (3, 2)
        start = {"clamped": [5, -2], "input": [1, 0], "const": [1, 0]}[p["start"]]
        (xs, xz), (ys, yz) = _quant(rng, dtype, p["quant"])
        b = ModelBuilder()
        x = b.input("x", shape, dtype, xs, xz)
        u = b.input("update", p["update"], dtype, xs * 2 if xs else None, xz)
        if p["start"] == "input":
            s = b.input("start", (2,), p["index_dtype"])
            fixed = {"start": np.asarray(start, NP[p["index_dtype"]])}
        else:
            s, fixed = b.const("start", np.asarray(start, NP[p["index_dtype"]])), {}
        y = b.tensor("y", shape, dtype, ys, yz)
        b.op("DYNAMIC_UPDATE_SLICE", [x, u, s], [y])
        b.output(y)
        yield _case("DYNAMIC_UPDATE_SLICE", k, b, f"{dtype} update {p['update']} at {p['start']} "
                                                  f"{p['index_dtype']} {start}, quantization {p['quant']}", fixed)

# SPDX-License-Identifier: Apache-2.0
"""Seeded model mutations for the fuzz campaign: byte-level damage, and structural edits made
through LiteRT's schema object API (so the flatbuffer stays readable and the damage reaches the
compiler's structure checks, not only the flatbuffer decoder).

`mutate(data, mutation, rng)` returns the damaged model's bytes; the same arguments give the same
bytes. Every structural class edits subgraph 0, the one helia_aot converts by default."""

from __future__ import annotations

import math
import random

import json

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema
from flatbuffers import flexbuffers

from tests.fuzz import hostile

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def _enum_values(enum_cls) -> list[int]:
    return sorted({v for k, v in vars(enum_cls).items() if not k.startswith("_") and isinstance(v, int)})


_TENSOR_TYPES = _enum_values(schema.TensorType)
_OPERATORS = _enum_values(schema.BuiltinOperator)
_OPTION_TYPES = [v for v in _enum_values(schema.BuiltinOptions) if v != 0]
_OPTION_CLASSES = {v: getattr(schema, f"{k}T", None) for k, v in vars(schema.BuiltinOptions).items()
                   if not k.startswith("_") and isinstance(v, int)}


class NotApplicable(Exception):
    """The model has nothing this mutation edits (e.g. no quantized tensor); pick another model."""


def _pack(model) -> bytes:
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def _index(rng: random.Random, count: int) -> int:
    """An index that is out of range, -1, or another valid one."""
    choices = [-1, -2, count, count + 1, INT32_MAX, INT32_MIN]
    if count:
        choices += [rng.randrange(count)] * 3
    return rng.choice(choices)


def _odd_int(rng: random.Random, value: int, low: int = INT32_MIN, high: int = INT32_MAX) -> int:
    candidates = [0, -1, 1, 2, 3, 255, 256, 1 << 15, low, high, value + 1, value - 1, value * 2, -value]
    return max(low, min(high, rng.choice(candidates)))


def _tensors(sg, rng: random.Random, predicate=lambda t: True):
    found = [t for t in (sg.tensors or []) if predicate(t)]
    if not found:
        raise NotApplicable("no tensor fits")
    return rng.choice(found)


def _operator(sg, rng: random.Random, predicate=lambda op: True):
    found = [op for op in (sg.operators or []) if predicate(op)]
    if not found:
        raise NotApplicable("no operator fits")
    return rng.choice(found)


# --------------------------------------------------------------------------- byte level


def byte_flip(data: bytes, rng: random.Random) -> bytes:
    damaged = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        damaged[rng.randrange(len(damaged))] = rng.randrange(256)
    return bytes(damaged)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(len(data))]


# --------------------------------------------------------------------------- structural (object API)


def index(model, rng: random.Random) -> None:
    """An operator input/output/intermediate, an opcode index or a buffer index out of range or moved."""
    sg = model.subgraphs[0]
    ntensors = len(sg.tensors or [])
    where = rng.choice(["input", "input", "output", "output", "intermediate", "opcode", "buffer"])
    if where in ("input", "output"):
        op = _operator(sg, rng, lambda o: len(getattr(o, f"{where}s") if getattr(o, f"{where}s") is not None
                                              else []) > 0)
        slots = list(getattr(op, f"{where}s"))
        slots[rng.randrange(len(slots))] = _index(rng, ntensors)
        setattr(op, f"{where}s", slots)
    elif where == "intermediate":
        op = _operator(sg, rng)
        op.intermediates = list(op.intermediates if op.intermediates is not None else []) + [_index(rng, ntensors)]
    elif where == "opcode":
        op = _operator(sg, rng)
        count = len(model.operatorCodes or [])
        op.opcodeIndex = rng.choice([count, count + 1, (1 << 32) - 1, rng.randrange(max(count, 1))])
    else:
        tensor = _tensors(sg, rng)
        count = len(model.buffers or [])
        tensor.buffer = rng.choice([count, count + 7, (1 << 32) - 1, 0, rng.randrange(max(count, 1))])


def shape(model, rng: random.Random) -> None:
    """A dimension changed (0, negative, huge, off by one), one added or dropped, or the rank emptied."""
    tensor = _tensors(model.subgraphs[0], rng)
    dims = [int(d) for d in (tensor.shape if tensor.shape is not None else [])]
    edit = rng.choice(["dim", "dim", "dim", "append", "drop", "empty", "swap", "rank9"])
    if edit == "dim" and dims:
        k = rng.randrange(len(dims))
        dims[k] = rng.choice([0, -1, 1, dims[k] + 1, max(dims[k] - 1, 0), dims[k] * 2, 1 << 16, INT32_MAX])
    elif edit == "append" or (edit == "dim" and not dims):
        dims.insert(rng.randrange(len(dims) + 1), rng.choice([1, 2, 0, 3]))
    elif edit == "drop" and dims:
        dims.pop(rng.randrange(len(dims)))
    elif edit == "empty":
        dims = []
    elif edit == "swap" and len(dims) >= 2:
        a, b = rng.sample(range(len(dims)), 2)
        dims[a], dims[b] = dims[b], dims[a]
    else:
        dims = [1] * 9
    tensor.shape = dims


def dtype(model, rng: random.Random) -> None:
    """A tensor's type set to another schema type or to a code the schema does not define."""
    tensor = _tensors(model.subgraphs[0], rng)
    tensor.type = rng.choice(_TENSOR_TYPES + [len(_TENSOR_TYPES), 77, 127, -1])


def _quantized(t) -> bool:
    q = t.quantization
    return q is not None and q.scale is not None and len(q.scale) > 0


def quant_array(model, rng: random.Random) -> None:
    """Quantization arrays made inconsistent: counts, missing zero points, quantized_dimension."""
    sg = model.subgraphs[0]
    edit = rng.choice(["drop_scale", "add_scale", "no_zero_point", "zp_count", "dimension", "dimension",
                       "per_channel", "remove", "add_to_unquantized"])
    if edit == "add_to_unquantized":
        tensor = _tensors(sg, rng, lambda t: not _quantized(t))
        q = schema.QuantizationParametersT()
        q.scale = [rng.choice([0.5, 1e-3, 1.0])] * rng.choice([1, 2])
        q.zeroPoint = [0] * rng.choice([1, 2])
        tensor.quantization = q
        return
    tensor = _tensors(sg, rng, _quantized)
    q = tensor.quantization
    scales = [float(s) for s in q.scale]
    zps = [int(z) for z in (q.zeroPoint if q.zeroPoint is not None else [])]
    rank = len(tensor.shape if tensor.shape is not None else [])
    if edit == "drop_scale":
        scales = scales[:-1] if len(scales) > 1 else []
    elif edit == "add_scale":
        scales.append(scales[-1])
    elif edit == "no_zero_point":
        zps = None
    elif edit == "zp_count":
        zps = zps + [0] if rng.random() < 0.5 or not zps else zps[:-1]
    elif edit == "dimension":
        q.quantizedDimension = rng.choice([-1, rank, rank + 2, rng.randrange(max(rank, 1)), INT32_MAX])
    elif edit == "per_channel":
        n = rng.choice([2, 3, max(rank, 2), 1000])
        scales, zps = [scales[0]] * n, [zps[0] if zps else 0] * n
    else:
        tensor.quantization = None
        return
    q.scale = scales
    q.zeroPoint = zps


def quant_value(model, rng: random.Random) -> None:
    """A scale set to 0, NaN, +-inf, negative, subnormal or extreme; a zero point outside its type."""
    tensor = _tensors(model.subgraphs[0], rng, _quantized)
    q = tensor.quantization
    if rng.random() < 0.6:
        scales = [float(s) for s in q.scale]
        k = rng.randrange(len(scales))
        scales[k] = rng.choice([0.0, math.nan, math.inf, -math.inf, -scales[k], 1e-45, 3e38,
                                scales[k] * 1e6, scales[k] * 1e-6])
        q.scale = scales
    else:
        zps = [int(z) for z in (q.zeroPoint if q.zeroPoint is not None else [0] * len(q.scale))]
        k = rng.randrange(len(zps))
        zps[k] = rng.choice([-129, 128, 255, 256, -32769, 32768, 1 << 31, -(1 << 63), (1 << 63) - 1,
                             zps[k] + 1, zps[k] - 1])
        q.zeroPoint = zps


def opcode(model, rng: random.Random) -> None:
    """An operator code changed: another builtin, an undefined one, a custom one, or codes swapped."""
    codes = model.operatorCodes or []
    if not codes:
        raise NotApplicable("no operator codes")
    code = rng.choice(codes)
    edit = rng.choice(["builtin", "builtin", "undefined", "deprecated", "custom", "version", "swap"])
    if edit == "builtin":
        value = rng.choice(_OPERATORS)
        code.builtinCode, code.deprecatedBuiltinCode = value, min(value, 127)
    elif edit == "undefined":
        code.builtinCode = rng.choice([max(_OPERATORS) + 1, 1000, INT32_MAX, -1])
    elif edit == "deprecated":
        code.deprecatedBuiltinCode = rng.choice([-1, 126, 127, rng.randrange(128)])
    elif edit == "custom":
        code.builtinCode, code.deprecatedBuiltinCode = 32, 32
        code.customCode = rng.choice([b"", b"helia_fuzz", b"\xff\xfe"])
    elif edit == "version":
        code.version = rng.choice([0, -1, 99, INT32_MAX])
    elif len(model.subgraphs[0].operators or []) >= 2:
        a, b = rng.sample(model.subgraphs[0].operators, 2)
        a.opcodeIndex, b.opcodeIndex = b.opcodeIndex, a.opcodeIndex
    else:
        raise NotApplicable("one operator")


def _odd_value(rng: random.Random, value):
    if isinstance(value, (bool, np.bool_)):
        return not value
    if isinstance(value, (int, np.integer)):
        return _odd_int(rng, int(value))
    if isinstance(value, (float, np.floating)):
        return rng.choice([math.nan, math.inf, -math.inf, 0.0, -1.0, 1e30, -float(value)])
    if isinstance(value, (list, np.ndarray)):
        items = [int(v) for v in value]
        if items and rng.random() < 0.6:
            items[rng.randrange(len(items))] = _odd_int(rng, items[0])
        else:
            items = items[:-1] if items and rng.random() < 0.5 else items + [rng.choice([0, -1, 7])]
        return items
    return value


def options(model, rng: random.Random) -> None:
    """An operator's options: a field set to an odd value, the table removed, replaced by another
    type's, or relabelled as another type (the bytes of one table read as another)."""
    op = _operator(model.subgraphs[0], rng)
    edit = rng.choice(["field", "field", "field", "remove", "replace", "relabel"])
    fields = {} if op.builtinOptions is None else {k: v for k, v in vars(op.builtinOptions).items()
                                                    if isinstance(v, (bool, int, float, list, np.ndarray, np.number))}
    if edit == "field" and fields:
        key = rng.choice(sorted(fields))
        setattr(op.builtinOptions, key, _odd_value(rng, fields[key]))
    elif edit == "remove":
        op.builtinOptionsType, op.builtinOptions = 0, None
    elif edit == "relabel" and op.builtinOptions is not None:
        op.builtinOptionsType = rng.choice(_OPTION_TYPES)
    else:
        kind = rng.choice([t for t in _OPTION_TYPES if _OPTION_CLASSES.get(t) is not None])
        table = _OPTION_CLASSES[kind]()
        for key, value in vars(table).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool) and rng.random() < 0.5:
                setattr(table, key, _odd_value(rng, value))
        op.builtinOptionsType, op.builtinOptions = kind, table


def subgraph_io(model, rng: random.Random) -> None:
    """Subgraph inputs/outputs: one removed, duplicated, added, out of range, or the lists swapped."""
    sg = model.subgraphs[0]
    ntensors = len(sg.tensors or [])
    side = rng.choice(["inputs", "outputs"])
    items = [int(t) for t in (getattr(sg, side) if getattr(sg, side) is not None else [])]
    edit = rng.choice(["remove", "duplicate", "add", "invalid", "swap", "empty"])
    if edit == "remove" and items:
        items.pop(rng.randrange(len(items)))
    elif edit == "duplicate" and items:
        items.append(rng.choice(items))
    elif edit == "add" and ntensors:
        items.append(rng.randrange(ntensors))
    elif edit == "invalid" and items:
        items[rng.randrange(len(items))] = _index(rng, ntensors)
    elif edit == "swap":
        sg.inputs, sg.outputs = sg.outputs, sg.inputs
        return
    else:
        items = []
    setattr(sg, side, items)


def buffer(model, rng: random.Random) -> None:
    """Buffer contents (random bytes) and lengths (cut, extended, emptied), a buffer given to an
    activation or to the sentinel, or two tensors sharing one."""
    sg = model.subgraphs[0]
    buffers = model.buffers or []

    def has_data(t) -> bool:
        return 0 < t.buffer < len(buffers) and buffers[t.buffer].data is not None and len(buffers[t.buffer].data) > 0

    edit = rng.choice(["contents", "contents", "cut", "extend", "empty", "activation", "sentinel", "share"])
    if edit == "activation":
        tensor = _tensors(sg, rng, lambda t: not has_data(t))
        new = schema.BufferT()
        size = rng.choice([1, 4, 16, 1000])
        new.data = np.asarray([rng.randrange(256) for _ in range(size)], dtype=np.uint8)
        model.buffers = list(buffers) + [new]
        tensor.buffer = len(model.buffers) - 1
        return
    if edit == "sentinel" and buffers:
        buffers[0].data = np.asarray([rng.randrange(256) for _ in range(rng.choice([1, 4, 64]))], dtype=np.uint8)
        return
    tensor = _tensors(sg, rng, has_data)
    data = np.asarray(buffers[tensor.buffer].data, dtype=np.uint8).copy()
    if edit == "contents":
        for _ in range(rng.randint(1, 16)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        # Extreme values where it matters most: a whole element set to all-ones or the sign bit.
        if rng.random() < 0.5 and len(data) >= 4:
            k = rng.randrange(len(data) // 4) * 4
            data[k:k + 4] = rng.choice([[255, 255, 255, 127], [0, 0, 0, 128], [255, 255, 255, 255]])
    elif edit == "cut":
        data = data[:rng.randrange(len(data))]
    elif edit == "extend":
        data = np.concatenate([data, np.zeros(rng.choice([1, 3, 4, 64]), dtype=np.uint8)])
    elif edit == "empty":
        data = None
    else:
        other = _tensors(sg, rng, lambda t: t is not tensor)
        other.buffer = tensor.buffer
        return
    buffers[tensor.buffer].data = data


# --------------------------------------------------------------------------- hostile structures
# What a small input can make a careless compiler do in time and memory (issue #25): tables shared by
# thousands of tensors, FlexBuffers nested or wide, CALL_ONCE by the thousand, pooling windows of 2^31,
# and, beside an undamaged model, configurations heavy with aliases and plans of the wrong types.


def shared_tables(data: bytes, rng: random.Random) -> bytes:
    """A model made anew: thousands of tensors that are one table whose buffer, name, shape or
    scales are large (the model given only picks the seed)."""
    field = rng.choice(hostile.SHARED_FIELDS)
    size = rng.choice({"buffer": [1 << 10, 1 << 16, 1 << 20], "name": [64, 1 << 12, 1 << 16],
                       "shape": [2, 64, 4096], "quantization": [2, 256, 4096]}[field])
    return hostile.shared_tables(rng.choice([2, 300, 3000, 20_000]), field, size)


def many_call_once(data: bytes, rng: random.Random) -> bytes:
    """A model made anew: a resource variable's CALL_ONCE repeated up to thousands of times."""
    init_index = rng.choice([None, None, None, 0, 2, -1, INT32_MAX])  # the subgraph itself, none, past the end
    return hostile.many_call_once(rng.choice([2, 100, 1000, 3000]), init_index)


def _nested(depth: int, width: int):
    value = 1
    for _ in range(depth):
        value = [value] * width
    return value


def deep_custom_options(model, rng: random.Random) -> None:
    """An operator turned custom (a TFLM Signal code or an unknown one) with custom options that are
    a FlexBuffer nested deep, wide or expanding (vectors that repeat one child)."""
    op = _operator(model.subgraphs[0], rng)
    shape = rng.choice(["deep", "wide", "expanding", "map"])
    if shape == "deep":
        value = _nested(rng.choice([17, 60, 200]), 1)  # deeper: flexbuffers.Dumps recurses past the limit
    elif shape == "wide":
        value = list(range(rng.choice([10_001, 100_000])))
    elif shape == "expanding":
        value = _nested(rng.choice([4, 5]), 10)  # Dumps writes every repeat: 30^6 leaves never finished
    else:
        value = {f"k{i}": _nested(2, 3) for i in range(rng.choice([100, 5000]))}
    code = schema.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
    code.customCode = rng.choice(["SignalWindow", "SignalFilterBank", "SignalEnergy", "NotAnOperator"]).encode()
    code.version = 1
    model.operatorCodes = list(model.operatorCodes or []) + [code]
    op.opcodeIndex = len(model.operatorCodes) - 1
    op.builtinOptionsType, op.builtinOptions = 0, None
    op.customOptions = np.frombuffer(bytes(flexbuffers.Dumps(value)), dtype=np.uint8).copy()


_POOLS = (schema.BuiltinOperator.AVERAGE_POOL_2D, schema.BuiltinOperator.MAX_POOL_2D)


def huge_pooling_window(model, rng: random.Random) -> None:
    """A pooling operator's window, stride or both set huge (up to 2^31 - 1), SAME or VALID padding."""
    codes = model.operatorCodes or []

    def is_pool(op) -> bool:
        return 0 <= op.opcodeIndex < len(codes) and max(codes[op.opcodeIndex].builtinCode,
                                                        codes[op.opcodeIndex].deprecatedBuiltinCode) in _POOLS
    if not any(is_pool(o) and o.builtinOptions is not None for o in model.subgraphs[0].operators or []):
        # Most models have no pooling: graft one (most of the corpus would otherwise be skipped).
        vars(model).update(vars(schema.ModelT.InitFromPackedBuf(hostile.pooling(rng.choice(_POOLS)), 0)))
        codes = model.operatorCodes
    op = _operator(model.subgraphs[0], rng, lambda o: is_pool(o) and o.builtinOptions is not None)
    opts = op.builtinOptions
    huge = [1 << 15, 1 << 20, INT32_MAX, 65_535]
    for field in rng.sample(["filterWidth", "filterHeight", "strideW", "strideH"], rng.randint(1, 4)):
        setattr(opts, field, rng.choice(huge))
    opts.padding = rng.choice([schema.Padding.SAME, schema.Padding.VALID])
    tensors = model.subgraphs[0].tensors
    x, y = (tensors[t] for t in (op.inputs[0], op.outputs[0]))
    if opts.padding == schema.Padding.SAME and len(x.shape) == 4 and len(y.shape) == 4 and rng.random() < 0.7:
        # The output LiteRT computes for SAME padding, so the window reaches the operator's own rules.
        y.shape = np.array([x.shape[0], -(-x.shape[1] // max(opts.strideH, 1)), -(-x.shape[2] // max(opts.strideW, 1)),
                            x.shape[3]], dtype=np.int32)


BYTE_LEVEL = {"byte_flip": byte_flip, "truncate": truncate}
STRUCTURAL = {"index": index, "shape": shape, "dtype": dtype, "quant_array": quant_array,
              "quant_value": quant_value, "opcode": opcode, "options": options, "subgraph_io": subgraph_io,
              "buffer": buffer, "deep_custom_options": deep_custom_options,
              "huge_pooling_window": huge_pooling_window}
CRAFTED = {"shared_tables": shared_tables, "many_call_once": many_call_once}
# Classes that leave the model as it is and hand convert a hostile file beside it (side_file).
SIDE_FILES = ("hostile_yaml", "hostile_plan")
CLASSES = tuple(BYTE_LEVEL) + tuple(STRUCTURAL) + tuple(CRAFTED) + SIDE_FILES
HOSTILE = ("deep_custom_options", "huge_pooling_window", *CRAFTED, *SIDE_FILES)  # bounds, not damage


def mutate(data: bytes, mutation: str, rng: random.Random) -> bytes:
    """The model damaged by one mutation of class `mutation`; NotApplicable if it has no target."""
    if mutation in BYTE_LEVEL:
        return BYTE_LEVEL[mutation](data, rng)
    if mutation in CRAFTED:
        return CRAFTED[mutation](data, rng)
    if mutation in SIDE_FILES:
        return data
    model = schema.ModelT.InitFromPackedBuf(data, 0)
    STRUCTURAL[mutation](model, rng)
    try:
        damaged = _pack(model)
    except (TypeError, OverflowError) as exc:  # a value the field's type cannot hold (e.g. int8 options)
        raise NotApplicable(str(exc)) from None
    if damaged == data:  # e.g. options written back as they were: nothing was damaged
        raise NotApplicable(f"{mutation} left the model unchanged")
    return damaged


# --------------------------------------------------------------------------- hostile side files


def hostile_yaml(rng: random.Random) -> str:
    """A configuration file: aliases expanding a billion-fold, nesting deep or wide, a value of the
    wrong type at a real key, a huge value, a merge key, a Python tag."""
    kind = rng.choice(["laughs", "deep", "wide", "types", "huge", "merge", "tag"])
    if kind == "laughs":
        lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
        levels = rng.randint(2, 9)
        lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, levels + 1)]
        lines.append(f"{rng.choice(['target', 'module', 'operators', 'memory'])}: *a{levels}")
        return "\n".join(lines) + "\n"
    if kind == "deep":
        depth = rng.choice([100, 10_000, 200_000])
        flow = "[" * depth + "]" * depth if rng.random() < 0.5 else "{a: " * depth + "1" + "}" * depth
        return f"{rng.choice(['target', 'operators', 'memory'])}: {flow}\n"
    if kind == "wide":
        count = rng.choice([1000, 50_000])
        return "operators:\n" + "".join(f"  - {{type: ADD, attributes: {{k{i}: {i}}}}}\n" for i in range(count))
    if kind == "types":
        section, key = rng.choice([("module", "prefix"), ("target", "name"), ("memory", "arena_alignment"),
                                   ("memory", "scratch_memory"), ("optimization", "plan"), ("test", "num_samples"),
                                   ("test", "tolerance"), ("model", "subgraph"), ("optimization", "goal")])
        value = rng.choice(["[1, 2]", "{a: 1}", "-1", str(1 << 70), "1e400", ".nan", "null", "true", "''",
                            "2026-12-02", "0x7fffffff"])
        return f"{section}:\n  {key}: {value}\n"
    if kind == "huge":
        return f"module:\n  prefix: {'a' * rng.choice([1000, 900_000])}\n"
    if kind == "merge":
        return "base: &base {name: host}\ntarget:\n  <<: *base\n"
    return "target: !!python/object/apply:os.system ['true']\n"


def _json_paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _json_paths(item, path + (key,))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _json_paths(item, path + (k,))


def hostile_plan(plan_text: str, rng: random.Random) -> str:
    """The plan written for this model, one value replaced by another type, a huge or negative number,
    a deep or long list; or text that is hardly JSON (deep nesting, NaN, a truncated document)."""
    kind = rng.choice(["value", "value", "value", "deep", "long", "text"])
    if kind == "deep":
        depth = rng.choice([1000, 100_000])
        return "[" * depth + "]" * depth
    if kind == "text":
        return rng.choice([plan_text[:rng.randrange(max(len(plan_text), 1))], '{"schema_version": NaN}',
                           '{"schema_version": 1e999}', "\ufeff" + plan_text, plan_text.replace('"', "'", 3)])
    doc = json.loads(plan_text)
    paths = [p for p in _json_paths(doc) if p]
    if not paths:
        return plan_text
    path = rng.choice(paths)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if kind == "long":
        replacement = [rng.choice([0, 1 << 62, "x"])] * rng.choice([10_000, 1_000_000])
    else:
        replacement = rng.choice(["a string", [1, 2], {"a": 1}, None, True, 1.5, -1, 1 << 63, -(1 << 63), 10 ** 100,
                                  "\u0000", "x" * 100_000, 0])
    parent[path[-1]] = replacement
    return json.dumps(doc)

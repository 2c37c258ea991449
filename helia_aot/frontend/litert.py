# SPDX-License-Identifier: Apache-2.0
"""LiteRT (.tflite) front end: flatbuffer -> IR, through the LiteRT schema object API."""

from __future__ import annotations

import re

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from flatbuffers import flexbuffers

from helia_aot.errors import InvalidModelError
from helia_aot.ir.graph import Graph, Operator, Quantization, Tensor


def _enum_names(enum_cls) -> dict[int, str]:
    return {v: k for k, v in vars(enum_cls).items() if not k.startswith("_") and isinstance(v, int)}


_OPERATOR_NAMES = _enum_names(schema.BuiltinOperator)
_TENSOR_TYPES = {
    schema.TensorType.INT8: "int8",
    schema.TensorType.UINT8: "uint8",
    schema.TensorType.INT16: "int16",
    schema.TensorType.INT32: "int32",
    schema.TensorType.INT64: "int64",
    schema.TensorType.UINT16: "uint16",
    schema.TensorType.UINT32: "uint32",
    schema.TensorType.UINT64: "uint64",
    schema.TensorType.FLOAT16: "float16",
    schema.TensorType.FLOAT32: "float32",
    schema.TensorType.BOOL: "bool",
}
_TENSOR_TYPE_NAMES = _enum_names(schema.TensorType)
_ARRAY_DTYPES = ("int8", "uint8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16", "float32", "bool")
_OPTIONS_TABLE_NAMES = _enum_names(schema.BuiltinOptions)
# Option fields whose integers are schema enums; the IR carries their names.
_OPTION_ENUMS = {
    "padding": _enum_names(schema.Padding),
    "fused_activation_function": _enum_names(schema.ActivationFunctionType),
    "weights_format": _enum_names(schema.FullyConnectedOptionsWeightsFormat),
    "mode": _enum_names(schema.MirrorPadMode),
    "quantized_bias_type": _enum_names(schema.TensorType),
}
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _snake(name: str) -> str:
    return _CAMEL.sub("_", name).lower()


def _decode(name) -> str:
    if name is None:
        return ""
    if isinstance(name, bytes):
        return name.decode("utf-8", errors="replace")
    return str(name)


def _options(op) -> dict:
    opts = op.builtinOptions
    if opts is None:
        return {}
    result = {}
    for key, value in vars(opts).items():
        key = _snake(key)
        if key in _OPTION_ENUMS and isinstance(value, (int, np.integer)):
            value = _OPTION_ENUMS[key].get(int(value), int(value))
        elif isinstance(value, np.ndarray):
            value = value.tolist()  # Python ints, floats or bools, as the array holds
        elif isinstance(value, (list, tuple)):
            value = [int(v) if isinstance(v, (int, np.integer)) else v for v in value]
        elif isinstance(value, (np.integer,)):
            value = int(value)
        elif isinstance(value, (np.floating,)):
            value = float(value)
        elif isinstance(value, (np.bool_,)):
            value = bool(value)
        elif isinstance(value, bytes):
            value = _decode(value)  # names (VAR_HANDLE's container and shared_name)
        elif value is not None and not isinstance(value, (int, float, bool, str)):
            continue  # nested tables (quant specs) carry nothing we lower
        result[key] = value
    return result


# A FlexBuffer's vectors may share children, so a few hundred bytes can stand for 2^30 values when
# expanded: decoding stops past these (TFLM's kernels read a handful of scalars and short vectors).
FLEX_DEPTH = 16
FLEX_VALUES = 10_000


class _FlexTooLarge(Exception):
    pass


def _flex_value(ref, budget: list[int], depth: int):
    """The value `ref` stands for, counting every value against `budget` and refusing depth past FLEX_DEPTH."""
    if depth > FLEX_DEPTH:
        raise _FlexTooLarge(f"nest deeper than {FLEX_DEPTH} levels")
    budget[0] -= 1
    if ref.IsMap:
        m = ref.AsMap
        keys = [k.AsKey for k in m.Keys]
        budget[0] -= len(keys)
        if budget[0] < 0:
            raise _FlexTooLarge(f"expand to more than {FLEX_VALUES} values")
        return {k: _flex_value(v, budget, depth + 1) for k, v in zip(keys, m.Values)}
    if ref.IsVector:
        items = ref.AsVector
        budget[0] -= len(items)
        if budget[0] < 0:
            raise _FlexTooLarge(f"expand to more than {FLEX_VALUES} values")
        return [_flex_value(e, budget, depth + 1) for e in items]
    if budget[0] < 0:
        raise _FlexTooLarge(f"expand to more than {FLEX_VALUES} values")
    return ref.Value  # a scalar, string, blob or typed vector: as large as its bytes, no more


def _custom_options(op) -> tuple[bytes | None, dict, str | None]:
    """(raw custom options, the FlexBuffer map they hold, why they are not one). TFLM's kernels read
    their attributes from a FlexBuffer map; no bytes at all is an empty map."""
    if op.customOptions is None or len(op.customOptions) == 0:
        return (None if op.customOptions is None else b""), {}, None
    raw = bytes(np.asarray(op.customOptions, dtype=np.uint8))
    try:
        decoded = _flex_value(flexbuffers.GetRoot(raw), [FLEX_VALUES], 0)
    except _FlexTooLarge as exc:
        return raw, {}, f"its {len(raw)} bytes of custom options {exc}"
    except Exception as exc:  # the FlexBuffer reader raises many types on bytes that are not one
        return raw, {}, f"its {len(raw)} bytes of custom options are not a FlexBuffer ({type(exc).__name__})"
    if not isinstance(decoded, dict):
        return raw, {}, (f"its {len(raw)} bytes of custom options hold a FlexBuffer {type(decoded).__name__}, "
                         "not the map of attributes its kernel reads")
    return raw, decoded, None


def _unpack(data: bytes, source: str):
    if len(data) == 0:
        raise InvalidModelError(f"model {source} is empty (0 bytes)",
                                "Pass a .tflite file exported by the LiteRT/TFLite converter")
    if len(data) < 8 or not schema.Model.ModelBufferHasIdentifier(data, 0):
        raise InvalidModelError(
            f"model {source} is not a LiteRT flatbuffer (file identifier 'TFL3' missing in the first 8 bytes)",
            "Pass a .tflite file exported by the LiteRT/TFLite converter")
    try:
        model = schema.ModelT.InitFromPackedBuf(data, 0)
    except Exception as exc:  # the flatbuffer runtime raises many types on corrupt input
        raise InvalidModelError(
            f"model {source} is malformed or truncated ({len(data)} bytes; flatbuffer decode failed: "
            f"{type(exc).__name__})",
            "Re-export the model or check that the file was copied completely") from None
    if not model.subgraphs:
        raise InvalidModelError(f"model {source} has no subgraphs", "Re-export the model")
    return model


def _buffer_bytes(model, buffer_index: int, raw: bytes, source: str, tensor_name: str) -> bytes | None:
    """The bytes of a tensor's buffer, or None when it has none (or the index is out of range: the
    verifier reports that)."""
    if buffer_index <= 0 or model.buffers is None or buffer_index >= len(model.buffers):
        return None
    buf = model.buffers[buffer_index]
    if buf.data is not None and len(buf.data) > 0:
        return bytes(np.asarray(buf.data, dtype=np.uint8))
    if getattr(buf, "offset", 0) and buf.offset > 1:
        end = buf.offset + buf.size
        if end > len(raw):
            raise InvalidModelError(
                f"model {source}: tensor '{tensor_name}' points past the end of the file (buffer {buffer_index})",
                "The file is truncated; copy it again")
        return raw[buf.offset:end]
    return None


def _constant(raw: bytes, shape: tuple[int, ...], dtype: str) -> np.ndarray | None:
    """The buffer as an array of the tensor's shape, when its size is exactly shape x element size
    (anything else is left for the verifier to report)."""
    if dtype not in _ARRAY_DTYPES or any(d < 0 for d in shape):
        return None
    np_dtype = np.dtype(dtype if dtype != "bool" else "uint8").newbyteorder("<")
    count = 1
    for d in shape:
        count *= d
    if len(raw) != count * np_dtype.itemsize:
        return None
    array = np.frombuffer(raw, dtype=np_dtype).astype(np_dtype.newbyteorder("="))
    return array.reshape(shape)


def _quantization(q) -> Quantization | None:
    """Scales and zero points exactly as stored (no broadcasting: the verifier checks the counts)."""
    if q is None or q.scale is None or len(q.scale) == 0:
        return None
    scales = tuple(float(s) for s in np.asarray(q.scale, dtype=np.float32).tolist())
    zps = tuple(int(z) for z in (q.zeroPoint if q.zeroPoint is not None else []))
    return Quantization(scales, zps, int(q.quantizedDimension))


def _select_subgraph(model, subgraph, source: str) -> int:
    if subgraph is None:
        return 0
    names = [_decode(sg.name) for sg in model.subgraphs]
    if isinstance(subgraph, int):
        if 0 <= subgraph < len(model.subgraphs):
            return subgraph
    elif subgraph in names:
        return names.index(subgraph)
    raise InvalidModelError(
        f"model {source} has no subgraph {subgraph!r} (it has {len(names)}: {names})",
        "Set model.subgraph to one of those names or indices")


def load(data: bytes, source: str = "<bytes>", subgraph=None) -> Graph:
    """Parse a .tflite flatbuffer into a Graph for one subgraph, as the file states it: structural
    checks (indices, sizes, quantization counts) are the verifier's, which runs next."""
    model = _unpack(data, source)
    sg_index = _select_subgraph(model, subgraph, source)
    sg = model.subgraphs[sg_index]
    sg_name = _decode(sg.name) or str(sg_index)

    tensors: list[Tensor] = []
    for i, t in enumerate(sg.tensors or []):
        name = _decode(t.name) or f"tensor_{i}"
        if t.type in _TENSOR_TYPES:
            dtype = _TENSOR_TYPES[t.type]
        elif t.type in _TENSOR_TYPE_NAMES:
            dtype = _TENSOR_TYPE_NAMES[t.type].lower()
        else:
            dtype = f"unknown({int(t.type)})"
        shape = tuple(int(d) for d in (t.shape if t.shape is not None else []))
        raw = _buffer_bytes(model, int(t.buffer), data, source, name)
        array = _constant(raw, shape, dtype) if raw is not None else None
        tensors.append(Tensor(i, name, shape, dtype, _quantization(t.quantization), array, bool(t.isVariable),
                              buffer=int(t.buffer), buffer_bytes=len(raw) if raw is not None else None))

    operators: list[Operator] = []
    codes = model.operatorCodes or []
    for i, op in enumerate(sg.operators or []):
        op_type = "?"  # an opcode index out of range: the verifier refuses the operator
        version = 1
        if 0 <= op.opcodeIndex < len(codes):
            oc = codes[op.opcodeIndex]
            code = max(int(oc.builtinCode), int(oc.deprecatedBuiltinCode))
            op_type = _OPERATOR_NAMES.get(code, f"BUILTIN_{code}")
            if op_type == "CUSTOM":
                op_type = f"CUSTOM:{_decode(oc.customCode)}"
            version = int(oc.version)
        inputs = [int(x) for x in (op.inputs if op.inputs is not None else [])]
        outputs = [int(x) for x in (op.outputs if op.outputs is not None else [])]
        table = None
        if op.builtinOptions is not None:
            table = _OPTIONS_TABLE_NAMES.get(int(op.builtinOptionsType), f"#{int(op.builtinOptionsType)}")
        intermediates = [int(x) for x in (op.intermediates if op.intermediates is not None else [])]
        options, custom, custom_error = _options(op), None, None
        if op_type.startswith("CUSTOM:"):
            custom, options, custom_error = _custom_options(op)
        operators.append(Operator(i, op_type, inputs, outputs, options, version, opcode_index=int(op.opcodeIndex),
                                  options_table=table, intermediates=intermediates, custom_options=custom,
                                  custom_options_error=custom_error))

    return Graph(
        name=sg_name,
        subgraph_index=sg_index,
        tensors=tensors,
        operators=operators,
        inputs=[int(x) for x in (sg.inputs if sg.inputs is not None else [])],
        outputs=[int(x) for x in (sg.outputs if sg.outputs is not None else [])],
        description=_decode(model.description),
        buffer_count=len(model.buffers or []),
        operator_code_count=len(codes),
        subgraph_count=len(model.subgraphs),
    )

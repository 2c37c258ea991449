# SPDX-License-Identifier: Apache-2.0
"""LiteRT (.tflite) front end: flatbuffer -> IR, read in place through the LiteRT schema's generated reader."""

from __future__ import annotations

import contextlib
import functools
import re

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from flatbuffers import flexbuffers

from helia_aot.errors import HeliaError, InvalidModelError, UnsupportedModelError, brief
from helia_aot.ir.graph import Graph, LazyOptions, Operator, Quantization, Tensor


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


def _options(op, spend) -> dict:
    opts = schema.BuiltinOptionsCreator(op.BuiltinOptionsType(), op.BuiltinOptions())
    if opts is None:
        return {}
    result = {}
    for key, value in vars(opts).items():
        key = _snake(key)
        if isinstance(value, (np.ndarray, list, tuple, bytes)):
            spend(len(value))
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


def _custom_options(op, spend) -> tuple[bytes | None, LazyOptions]:
    """(raw custom options, the FlexBuffer map they hold, decoded on first use). Only the bytes are
    read here (counted against the data budget): a custom operator no module lowers is refused by
    name without its options ever being expanded."""
    if op.CustomOptionsIsNone() or op.CustomOptionsLength() == 0:
        raw = None if op.CustomOptionsIsNone() else b""
    else:
        spend(op.CustomOptionsLength())
        raw = op.CustomOptionsAsNumpy().tobytes()
    return raw, LazyOptions(functools.partial(_decode_custom_options, raw))


def _decode_custom_options(raw: bytes | None) -> tuple[dict, str | None]:
    """(the FlexBuffer map `raw` holds, why it is not one within FLEX_DEPTH / FLEX_VALUES or None).
    TFLM's kernels read their attributes from a FlexBuffer map; no bytes at all is an empty map."""
    if not raw:
        return {}, None
    try:
        decoded = _flex_value(flexbuffers.GetRoot(raw), [FLEX_VALUES], 0)
    except _FlexTooLarge as exc:
        return {}, f"its {len(raw)} bytes of custom options {exc}"
    except MemoryError:
        raise
    except Exception as exc:  # the FlexBuffer reader raises many types on bytes that are not one
        return {}, f"its {len(raw)} bytes of custom options are not a FlexBuffer ({type(exc).__name__})"
    if not isinstance(decoded, dict):
        return {}, (f"its {len(raw)} bytes of custom options hold a FlexBuffer {type(decoded).__name__}, "
                    "not the map of attributes its kernel reads")
    return decoded, None


# What the front end hands to later stages, counted once per tensor or operator that references it:
# a flatbuffer may point any number of tensors at one table, so a small file could otherwise stand
# for gigabytes. Constant data is shared (read-only views of the file, one per buffer), but every
# later stage walks it per tensor. Far above any model a microcontroller runs.
DATA_BUDGET = 64 << 20  # bytes: constant data and custom options
STRUCTURE_BUDGET = 1 << 21  # values: name characters, dimensions, scales and zero points, operand indices, options
_PER_ENTRY = 8  # each tensor and operator counts this much structure before its contents


class _Budget:
    """Counts what the model's decoding hands on (every subgraph decoded, the converted one and the
    initialisations CALL_ONCE names), refusing the model past either budget."""

    def __init__(self, source: str):
        self.source = source
        self.data = DATA_BUDGET
        self.structure = STRUCTURE_BUDGET
        self.where = "the model"

    def spend_data(self, count: int) -> None:
        self.data -= count
        if self.data < 0:
            self._refuse(f"{DATA_BUDGET >> 20} MiB of constant data and custom options")

    def spend_structure(self, count: int) -> None:
        self.structure -= count
        if self.structure < 0:
            self._refuse(f"{STRUCTURE_BUDGET} values of names, dimensions, quantization, operand indices and options")

    def _refuse(self, budget: str) -> None:
        raise InvalidModelError(
            f"model {self.source}: {self.where} takes the front end past its budget of {budget}, counted "
            "once per tensor or operator that references them (tables shared by many tensors count each time)",
            "A model for a microcontroller holds far less: check that the file is not damaged or crafted")


class LiteRTModel:
    """A .tflite flatbuffer read in place through the schema's generated reader: nothing is copied
    up front, each subgraph is decoded once when asked for, and each buffer's bytes become one
    read-only view that every tensor naming it shares."""

    def __init__(self, data: bytes, source: str = "<bytes>"):
        if len(data) == 0:
            raise InvalidModelError(f"model {source} is empty (0 bytes)",
                                    "Pass a .tflite file exported by the LiteRT/TFLite converter")
        if len(data) < 8 or not schema.Model.ModelBufferHasIdentifier(data, 0):
            raise InvalidModelError(
                f"model {source} is not a LiteRT flatbuffer (file identifier 'TFL3' missing in the first 8 bytes)",
                "Pass a .tflite file exported by the LiteRT/TFLite converter")
        self.data = bytes(data)
        self.source = source
        self._graphs: dict[int, Graph] = {}
        self._buffers: dict[int, np.ndarray | None] = {}
        self._budget = _Budget(source)
        with self._decoding():
            self._model = schema.Model.GetRootAs(self.data, 0)
            self.subgraph_count = self._model.SubgraphsLength()
            self.buffer_count = self._model.BuffersLength()
            self.operator_code_count = self._model.OperatorCodesLength()
            self._check_vector(self.subgraph_count, "subgraphs")
            self._check_vector(self.buffer_count, "buffers")
            self._check_vector(self.operator_code_count, "operator codes")
        if self.subgraph_count == 0:
            raise InvalidModelError(f"model {source} has no subgraphs", "Re-export the model")

    @contextlib.contextmanager
    def _decoding(self):
        try:
            yield
        except (HeliaError, MemoryError):
            raise
        except Exception as exc:  # the flatbuffer reader raises many types on corrupt input
            raise InvalidModelError(
                f"model {self.source} is malformed or truncated ({len(self.data)} bytes; flatbuffer decode failed: "
                f"{type(exc).__name__})",
                "Re-export the model or check that the file was copied completely") from None

    def _check_vector(self, length: int, what: str) -> None:
        """A vector of offsets cannot hold more entries than the file has 4-byte words."""
        if length * 4 > len(self.data):
            raise InvalidModelError(f"model {self.source} is malformed: it claims {length} {what} in "
                                    f"{len(self.data)} bytes", "Re-export the model or check that the file was "
                                    "copied completely")

    def select(self, subgraph) -> int:
        """The index of `subgraph` (None: the first, an index or a name)."""
        if subgraph is None:
            return 0
        if isinstance(subgraph, int) and 0 <= subgraph < self.subgraph_count:
            return subgraph
        names = []
        with self._decoding():
            self._budget.where = "the subgraphs' names"
            for i in range(self.subgraph_count):
                raw = self._model.Subgraphs(i).Name() or b""
                self._budget.spend_structure(_PER_ENTRY + len(raw))
                names.append(_decode(raw))
        if not isinstance(subgraph, int) and subgraph in names:
            return names.index(subgraph)
        raise InvalidModelError(
            f"model {self.source} has no subgraph {subgraph!r} (it has {len(names)}: {brief(names)})",
            "Set model.subgraph to one of those names or indices")

    def graph(self, subgraph=None) -> Graph:
        """One subgraph as IR, as the file states it (decoded once; later calls return the same Graph)."""
        index = self.select(subgraph)
        if index not in self._graphs:
            with self._decoding():
                self._graphs[index] = self._decode_graph(index)
        return self._graphs[index]

    def _buffer(self, index: int, tensor_name: str) -> np.ndarray | None:
        """Buffer `index` as a read-only uint8 view of the file, or None when it holds nothing (or
        the index is out of range: the verifier reports that)."""
        if index <= 0 or index >= self.buffer_count:
            return None
        if index not in self._buffers:
            buf = self._model.Buffers(index)
            view = None
            if not buf.DataIsNone() and buf.DataLength() > 0:
                view = buf.DataAsNumpy()
            elif buf.Offset() > 1:
                end = buf.Offset() + buf.Size()
                if end > len(self.data):
                    raise InvalidModelError(
                        f"model {self.source}: tensor '{tensor_name}' points past the end of the file "
                        f"(buffer {index})", "The file is truncated; copy it again")
                view = np.frombuffer(self.data, np.uint8, buf.Size(), buf.Offset())
            if view is not None:
                view.flags.writeable = False
            self._buffers[index] = view
        return self._buffers[index]

    def _decode_graph(self, sg_index: int) -> Graph:
        budget = self._budget
        sg = self._model.Subgraphs(sg_index)
        sg_name = _decode(sg.Name()) or str(sg_index)
        tensor_count, operator_count = sg.TensorsLength(), sg.OperatorsLength()
        self._check_vector(tensor_count, "tensors")
        self._check_vector(operator_count, "operators")

        tensors: list[Tensor] = []
        for i in range(tensor_count):
            t = sg.Tensors(i)
            budget.where = f"tensor {i}"
            budget.spend_structure(_PER_ENTRY + t.ShapeLength())
            raw_name = t.Name()
            budget.spend_structure(len(raw_name or b""))
            name = _decode(raw_name) or f"tensor_{i}"
            budget.where = f"tensor {brief(name)} (index {i})"
            if t.Sparsity() is not None:
                raise UnsupportedModelError(
                    f"model {self.source}: {budget.where} is stored sparse (it has sparsity parameters); "
                    "helia_aot reads dense tensors only", "Export the model without sparsity (no sparse weights "
                    "optimisation)")
            code = t.Type()
            if code in _TENSOR_TYPES:
                dtype = _TENSOR_TYPES[code]
            elif code in _TENSOR_TYPE_NAMES:
                dtype = _TENSOR_TYPE_NAMES[code].lower()
            else:
                dtype = f"unknown({int(code)})"
            shape = tuple(int(d) for d in t.ShapeAsNumpy()) if t.ShapeLength() else ()
            quant = _quantization(t.Quantization(), budget)
            raw = self._buffer(int(t.Buffer()), name)
            if raw is not None:
                budget.spend_data(len(raw))
            array = _constant(raw, shape, dtype) if raw is not None else None
            tensors.append(Tensor(i, name, shape, dtype, quant, array, bool(t.IsVariable()),
                                  buffer=int(t.Buffer()), buffer_bytes=len(raw) if raw is not None else None))

        operators: list[Operator] = []
        codes = self.operator_code_count
        for i in range(operator_count):
            op = sg.Operators(i)
            budget.where = f"operator {i}"
            budget.spend_structure(_PER_ENTRY + op.InputsLength() + op.OutputsLength() + op.IntermediatesLength())
            op_type = "?"  # an opcode index out of range: the verifier refuses the operator
            version = 1
            opcode_index = int(op.OpcodeIndex())
            if 0 <= opcode_index < codes:
                oc = self._model.OperatorCodes(opcode_index)
                code = max(int(oc.BuiltinCode()), int(oc.DeprecatedBuiltinCode()))
                op_type = _OPERATOR_NAMES.get(code, f"BUILTIN_{code}")
                if op_type == "CUSTOM":
                    custom_code = oc.CustomCode()
                    budget.spend_structure(len(custom_code or b""))
                    op_type = f"CUSTOM:{_decode(custom_code)}"
                version = int(oc.Version())
            budget.where = f"operator {i} ({brief(op_type)})"
            inputs = _ints(op.InputsAsNumpy()) if op.InputsLength() else []
            outputs = _ints(op.OutputsAsNumpy()) if op.OutputsLength() else []
            table = None
            if op.BuiltinOptions() is not None:
                table = _OPTIONS_TABLE_NAMES.get(int(op.BuiltinOptionsType()), f"#{int(op.BuiltinOptionsType())}")
            intermediates = _ints(op.IntermediatesAsNumpy()) if op.IntermediatesLength() else []
            options, custom = _options(op, budget.spend_structure), None
            if op_type.startswith("CUSTOM:"):
                custom, options = _custom_options(op, budget.spend_data)
            operators.append(Operator(i, op_type, inputs, outputs, options, version, opcode_index=opcode_index,
                                      options_table=table, intermediates=intermediates, custom_options=custom))

        budget.where = f"subgraph {brief(sg_name)}"
        budget.spend_structure(sg.InputsLength() + sg.OutputsLength())
        return Graph(
            name=sg_name,
            subgraph_index=sg_index,
            tensors=tensors,
            operators=operators,
            inputs=_ints(sg.InputsAsNumpy()) if sg.InputsLength() else [],
            outputs=_ints(sg.OutputsAsNumpy()) if sg.OutputsLength() else [],
            description=_decode(self._model.Description()),
            buffer_count=self.buffer_count,
            operator_code_count=codes,
            subgraph_count=self.subgraph_count,
        )


def _ints(vector: np.ndarray) -> list[int]:
    return [int(x) for x in vector.tolist()]


_NUMPY_MAX_RANK = 64  # numpy's limit; the verifier refuses any rank past 8 by name


def _constant(raw: np.ndarray, shape: tuple[int, ...], dtype: str) -> np.ndarray | None:
    """The buffer as a read-only array of the tensor's shape (a view, no copy), when its size is exactly
    shape x element size (anything else is left for the verifier to report)."""
    if dtype not in _ARRAY_DTYPES or any(d < 0 for d in shape) or len(shape) > _NUMPY_MAX_RANK:
        return None
    np_dtype = np.dtype(dtype if dtype != "bool" else "uint8").newbyteorder("<")
    count = 1
    for d in shape:
        count *= d
    if len(raw) != count * np_dtype.itemsize:
        return None
    array = raw.view(np_dtype)
    if np_dtype != np_dtype.newbyteorder("="):  # a big-endian host: the one copy, in native order
        array = array.astype(np_dtype.newbyteorder("="))
        array.flags.writeable = False
    return array.reshape(shape)


def _quantization(q, budget: _Budget) -> Quantization | None:
    """Scales and zero points exactly as stored (no broadcasting: the verifier checks the counts)."""
    if q is None or q.ScaleIsNone() or q.ScaleLength() == 0:
        return None
    budget.spend_structure(q.ScaleLength() + q.ZeroPointLength())
    scales = tuple(float(s) for s in q.ScaleAsNumpy().astype(np.float32).tolist())
    zps = tuple(int(z) for z in q.ZeroPointAsNumpy().tolist()) if q.ZeroPointLength() else ()
    return Quantization(scales, zps, int(q.QuantizedDimension()))


def parse(data: bytes, source: str = "<bytes>") -> LiteRTModel:
    """The model, read in place (see LiteRTModel); its subgraphs are decoded when asked for."""
    return LiteRTModel(data, source)


def load(data: bytes, source: str = "<bytes>", subgraph=None) -> Graph:
    """Parse a .tflite flatbuffer into a Graph for one subgraph, as the file states it: structural
    checks (indices, sizes, quantization counts) are the verifier's, which runs next."""
    return LiteRTModel(data, source).graph(subgraph)

# SPDX-License-Identifier: Apache-2.0
"""ModelBuilder: writes small LiteRT flatbuffers through the schema object API."""

from __future__ import annotations

import dataclasses
from typing import Any, Sequence

import flatbuffers
import numpy as np
from flatbuffers import flexbuffers
from ai_edge_litert import schema_py_generated as schema

from tests.modelgen.errors import BuilderError

# Our dtype names -> (schema TensorType member, numpy dtype).
DTYPES: dict[str, tuple[int, np.dtype]] = {
    "float32": (schema.TensorType.FLOAT32, np.dtype("<f4")),
    "float16": (schema.TensorType.FLOAT16, np.dtype("<f2")),
    "int8": (schema.TensorType.INT8, np.dtype("i1")),
    "uint8": (schema.TensorType.UINT8, np.dtype("u1")),
    "int16": (schema.TensorType.INT16, np.dtype("<i2")),
    "int32": (schema.TensorType.INT32, np.dtype("<i4")),
    "int64": (schema.TensorType.INT64, np.dtype("<i8")),
    "uint16": (schema.TensorType.UINT16, np.dtype("<u2")),
    "uint32": (schema.TensorType.UINT32, np.dtype("<u4")),
    "uint64": (schema.TensorType.UINT64, np.dtype("<u8")),
    "bool": (schema.TensorType.BOOL, np.dtype("?")),
}

# Operator name -> name of its BuiltinOptions union member (None: the converter writes no
# options table for it). This is schema data: which table goes with which operator. An operator
# not listed takes the member named like it (case-insensitively: GATHER_ND -> GatherNdOptions,
# BATCH_TO_SPACE_ND -> BatchToSpaceNDOptions), or none when the schema has no such member.
OPTIONS_TABLE: dict[str, str | None] = {
    "ADD": "AddOptions",
    "AVERAGE_POOL_2D": "Pool2DOptions",
    "CONCATENATION": "ConcatenationOptions",
    "CONV_2D": "Conv2DOptions",
    "DEPTHWISE_CONV_2D": "DepthwiseConv2DOptions",
    "DEQUANTIZE": None,
    "EXPAND_DIMS": "ExpandDimsOptions",
    "FULLY_CONNECTED": "FullyConnectedOptions",
    "GELU": "GeluOptions",
    "HARD_SWISH": "HardSwishOptions",
    "LEAKY_RELU": "LeakyReluOptions",
    "LOGISTIC": None,
    "MAX_POOL_2D": "Pool2DOptions",
    "MEAN": "ReducerOptions",
    "MUL": "MulOptions",
    "PAD": "PadOptions",
    "PADV2": "PadV2Options",
    "QUANTIZE": None,
    "REDUCE_ANY": "ReducerOptions",
    "REDUCE_MAX": "ReducerOptions",
    "REDUCE_MIN": "ReducerOptions",
    "REDUCE_PROD": "ReducerOptions",
    "RELU": None,
    "RELU6": None,
    "RESHAPE": "ReshapeOptions",
    "SOFTMAX": "SoftmaxOptions",
    "SQUEEZE": "SqueezeOptions",
    "STRIDED_SLICE": "StridedSliceOptions",
    "SUB": "SubOptions",
    "SUM": "ReducerOptions",
    "TANH": None,
    "TRANSPOSE": "TransposeOptions",
    "TRANSPOSE_CONV": "TransposeConvOptions",
}

# Options fields that are strings (VAR_HANDLE's resource names).
STRING_FIELDS = {"container", "sharedName"}

# Options fields whose values are schema enums; a string value names the member.
ENUM_FIELDS: dict[str, type] = {
    "padding": schema.Padding,
    "fusedActivationFunction": schema.ActivationFunctionType,
    "weightsFormat": schema.FullyConnectedOptionsWeightsFormat,
    "quantizedBiasType": schema.TensorType,
}

# Operator-code versions the TFLite converter writes for int8 data (its op-version
# rules); operators not listed get version 1. LiteRT refuses a version its resolver
# does not register, so the modelgen tests catch a wrong entry here.
INT8_OP_VERSIONS: dict[str, int] = {
    "ADD": 2, "AVERAGE_POOL_2D": 2, "CONCATENATION": 2, "CONV_2D": 3,
    "DEPTHWISE_CONV_2D": 3, "DEQUANTIZE": 2, "FULLY_CONNECTED": 4, "LOGISTIC": 2,
    "MAX_POOL_2D": 2, "MEAN": 2, "MUL": 2, "PAD": 2, "RELU": 2, "RELU6": 2,
    "SOFTMAX": 2, "STRIDED_SLICE": 2, "SUB": 2, "TANH": 2, "TRANSPOSE": 2,
    "LEAKY_RELU": 2, "QUANTIZE": 2,
}


# Versions the converter writes when the operator's data input is int16 (A16W8), from
# its op-version rules (tflite/converter/tools/versioning/op_version.cc). Several int16
# forms stay at version 1 there (CONV_2D and DEPTHWISE_CONV_2D 16x8, STRIDED_SLICE,
# RESHAPE, ...); the option-dependent ones are in converter_op_version().
INT16_OP_VERSIONS: dict[str, int] = {
    "AVERAGE_POOL_2D": 3, "CONCATENATION": 3, "DEQUANTIZE": 3, "LEAKY_RELU": 2,
    "LOGISTIC": 3, "MAX_POOL_2D": 3, "MEAN": 3, "MUL": 4, "PAD": 3, "PADV2": 3, "RELU": 3,
    "RELU6": 3, "SOFTMAX": 3, "TANH": 3, "TRANSPOSE": 5,
}


# SLICE ... CAST (issue 12, data movement A1): versions LiteRT registers no version 1 of, for every dtype.
# BROADCAST_TO starts at version 2 (3: int4), whatever the data type.
for _name, _version in (("BROADCAST_TO", 2),):
    INT8_OP_VERSIONS.setdefault(_name, _version)
    INT16_OP_VERSIONS.setdefault(_name, _version)


def _option_set(options: dict[str, Any], key: str, unset: tuple = (None, 0)) -> bool:
    value = options.get(key)
    return value not in unset and not (isinstance(value, str) and
                                       value in ("NONE", "FLOAT32"))


def converter_op_version(op_name: str, inputs: Sequence["TensorRef | None"],
                         outputs: Sequence["TensorRef"], options: dict[str, Any] | None) -> int:
    """The operator-code version the LiteRT converter writes for these tensor types and
    options: INT8_OP_VERSIONS for int8 (unchanged), the op-version rules for int16 data,
    TRANSPOSE_CONV and the int16 QUANTIZE/DEQUANTIZE boundaries."""
    options = options or {}
    data = inputs[2] if op_name == "TRANSPOSE_CONV" and len(inputs) > 2 else \
        (inputs[0] if inputs else None)
    in_type = data.dtype if data is not None else None
    out_type = outputs[0].dtype if outputs else None
    if op_name == "TRANSPOSE_CONV":
        if in_type == "int16" and _option_set(options, "quantized_bias_type"):
            return 5  # quantized_bias_type (int32 or int64 bias named explicitly)
        if _option_set(options, "fused_activation_function"):
            return 4
        if len(inputs) > 3 and inputs[3] is not None:
            return 3
        return 2 if len(inputs) > 1 and inputs[1] is not None and \
            inputs[1].dtype == "int8" else 1
    if op_name == "QUANTIZE" and "int16" in (in_type, out_type):
        return 2 if out_type == "int16" else 1
    if op_name == "DEQUANTIZE" and in_type == "float16":
        return 3  # LiteRT's FP16-weight models: DEQUANTIZE float16 -> float32
    weights = inputs[1] if len(inputs) > 1 else None
    if in_type == "float32" and out_type == "float32" and weights is not None and weights.dtype == "int8" \
            and op_name in ("CONV_2D", "FULLY_CONNECTED"):
        return _hybrid_op_version(op_name, inputs, weights, options)
    if in_type != "int16":
        return INT8_OP_VERSIONS.get(op_name, 1)
    if op_name == "CONV_2D":
        return 8 if _option_set(options, "quantized_bias_type") else 1
    if op_name == "FULLY_CONNECTED":
        if _option_set(options, "quantized_bias_type"):
            return 11
        if len(inputs) < 3 or inputs[2] is None:
            return 6
        return 5 if options.get("keep_num_dims") else 1
    if op_name in ("ADD", "SUB"):
        # pot_scale_int16 defaults to true in the schema; the converter writes false
        # (general scales), which is version 3 (ADD) / 5 (SUB).
        if options.get("pot_scale_int16", True) is False:
            return 3 if op_name == "ADD" else 5
        return 1
    return INT16_OP_VERSIONS.get(op_name, 1)


def _hybrid_op_version(op_name: str, inputs, weights: "TensorRef", options: dict[str, Any]) -> int:
    """The converter's versions for dynamic-range (hybrid) operators: float32 data, int8 weights."""
    per_channel = isinstance(weights.scale, list) and len(weights.scale) > 1
    if op_name == "CONV_2D":
        return 5 if per_channel else 2
    if per_channel:
        return 12
    if len(inputs) < 3 or inputs[2] is None:
        return 6
    if options.get("keep_num_dims"):
        return 5
    return 9 if options.get("asymmetric_quantize_inputs") else 3


# Operators whose int16 form reads an int32 bias only when the options say
# quantized_bias_type INT32; otherwise the kernel reads the bias as int64.
_QUANTIZED_BIAS_TYPE_OPS = {"CONV_2D": 2, "FULLY_CONNECTED": 2, "TRANSPOSE_CONV": 3}


def _check_int16_bias(op_name: str, inputs: Sequence["TensorRef | None"],
                      options: dict[str, Any]) -> None:
    if op_name == "DEPTHWISE_CONV_2D" and len(inputs) > 2 and inputs[0] is not None and \
            inputs[2] is not None and inputs[0].dtype == "int16" and inputs[2].dtype != "int64":
        raise BuilderError(f"operator {op_name}: LiteRT's int16 depthwise convolution takes "
                           f"an int64 bias only, '{inputs[2].name}' is {inputs[2].dtype}")
    if op_name not in _QUANTIZED_BIAS_TYPE_OPS:
        return
    bias_index = _QUANTIZED_BIAS_TYPE_OPS[op_name]
    data = inputs[2 if op_name == "TRANSPOSE_CONV" else 0] if len(inputs) > 2 else None
    bias = inputs[bias_index] if len(inputs) > bias_index else None
    if data is None or bias is None or data.dtype != "int16":
        return
    declared = options.get("quantized_bias_type")
    declared = _enum_members(schema.TensorType).get(declared, declared) \
        if isinstance(declared, str) else declared
    if bias.dtype == "int32" and declared != schema.TensorType.INT32:
        raise BuilderError(
            f"operator {op_name}: int16 input with int32 bias '{bias.name}' needs option "
            "quantized_bias_type: INT32 (LiteRT reads the bias as int64 otherwise)")
    if declared not in (None, 0) and declared != DTYPES[bias.dtype][0]:
        raise BuilderError(f"operator {op_name}: quantized_bias_type does not match the "
                           f"{bias.dtype} bias '{bias.name}'")


def _enum_members(enum_cls: type) -> dict[str, int]:
    return {k: v for k, v in vars(enum_cls).items() if not k.startswith("_")}


BUILTIN_OPERATORS = _enum_members(schema.BuiltinOperator)
# An operator name "CUSTOM:<code>" (helia_aot's IR name) builds a custom operator with that custom code.
CUSTOM_PREFIX = "CUSTOM:"
BUILTIN_OPTIONS = _enum_members(schema.BuiltinOptions)


def options_table(op_name: str) -> str | None:
    """The BuiltinOptions member an operator's options go in (see OPTIONS_TABLE)."""
    if op_name in OPTIONS_TABLE:
        return OPTIONS_TABLE[op_name]
    by_folded_name = {member.lower(): member for member in BUILTIN_OPTIONS if member.endswith("Options")}
    return by_folded_name.get(op_name.replace("_", "").lower() + "options")


def snake_to_camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


@dataclasses.dataclass(frozen=True)
class TensorRef:
    """Handle to a tensor added to a ModelBuilder."""

    index: int
    name: str
    shape: tuple[int, ...]
    dtype: str
    scale: float | list[float] | None = None
    zero_point: int | list[int] | None = None
    quantized_dimension: int = 0


def _as_list(value: Any) -> list | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple, np.ndarray)):
        return list(np.asarray(value).reshape(-1).tolist())
    return [value]


class ModelBuilder:
    """Collects tensors, buffers and operators of one subgraph and serialises them."""

    def __init__(self, description: str = "helia-aot modelgen", subgraph_name: str = "main",
                 parent: "ModelBuilder | None" = None):
        self._description = description
        self._subgraph_name = subgraph_name
        self._tensors: list[schema.TensorT] = []
        self._refs: list[TensorRef] = []
        self._operators: list[schema.OperatorT] = []
        self._inputs: list[int] = []
        self._outputs: list[int] = []
        self._subgraphs: list[ModelBuilder] = []  # further subgraphs (main's only), in index order
        if parent is None:
            # Buffer 0 is the empty sentinel every LiteRT model starts with.
            self._buffers: list[schema.BufferT] = [schema.BufferT()]
            self._opcodes: list[schema.OperatorCodeT] = []
            self._opcode_index: dict[tuple[int, int, str | None], int] = {}
            self.index = 0
        else:
            # Buffers and operator codes are the model's, shared by every subgraph.
            self._buffers, self._opcodes, self._opcode_index = parent._buffers, parent._opcodes, parent._opcode_index
            self.index = len(parent._subgraphs) + 1

    # -- subgraphs -------------------------------------------------------------
    def subgraph(self, name: str) -> "ModelBuilder":
        """A further subgraph of this model (index 1, 2, ... in call order, `.index`), built with the
        same calls; it may have no inputs or outputs (CALL_ONCE's initialisation subgraph has none)."""
        if self.index != 0:
            raise BuilderError("subgraphs are added to the main subgraph's builder")
        child = ModelBuilder(self._description, name, parent=self)
        self._subgraphs.append(child)
        return child

    def resource(self, name: str) -> TensorRef:
        """A resource handle tensor (VAR_HANDLE's output: dtype RESOURCE, shape [])."""
        t = schema.TensorT()
        t.name = name.encode()
        t.shape = np.array([], dtype=np.int32)
        t.type = schema.TensorType.RESOURCE
        t.buffer = 0
        self._tensors.append(t)
        ref = TensorRef(len(self._tensors) - 1, name, (), "resource", None, None, 0)
        self._refs.append(ref)
        return ref

    # -- tensors ---------------------------------------------------------------
    def input(self, name: str, shape: Sequence[int], dtype: str = "int8",
              scale: float | Sequence[float] | None = None,
              zero_point: int | Sequence[int] | None = None, quantized_dimension: int = 0) -> TensorRef:
        ref = self.tensor(name, shape, dtype, scale, zero_point, quantized_dimension)
        self._inputs.append(ref.index)
        return ref

    def tensor(self, name: str, shape: Sequence[int], dtype: str = "int8",
               scale: float | Sequence[float] | None = None,
               zero_point: int | Sequence[int] | None = None,
               quantized_dimension: int = 0, variable: bool = False) -> TensorRef:
        """An activation; `variable` makes it a variable tensor (state an operator such as
        UNIDIRECTIONAL_SEQUENCE_LSTM or SVDF keeps across invocations; LiteRT zeroes it at start)."""
        ref = self._add_tensor(name, shape, dtype, scale, zero_point, quantized_dimension,
                               buffer_index=0)
        self._tensors[ref.index].isVariable = bool(variable)
        return ref

    def const(self, name: str, array: Any, dtype: str | None = None,
              scale: float | Sequence[float] | None = None,
              zero_point: int | Sequence[int] | None = None,
              quantized_dimension: int = 0) -> TensorRef:
        values = np.asarray(array)
        if dtype is None:
            dtype = _dtype_name_of(values.dtype, name)
        _, np_dtype = self._lookup_dtype(dtype, name)
        if values.dtype.kind == "f" and np_dtype.kind in "iub":
            if not np.all(np.round(values) == values):
                raise BuilderError(
                    f"constant '{name}': float values given for {dtype} data; "
                    "quantize them first (tests.modelgen.quant.quantize)")
        if np_dtype.kind in "iu":
            info = np.iinfo(np_dtype)
            if values.size and (values.min() < info.min or values.max() > info.max):
                raise BuilderError(
                    f"constant '{name}': values span [{values.min()}, {values.max()}], "
                    f"outside {dtype} [{info.min}, {info.max}]; clip or pick a wider dtype")
        data = np.ascontiguousarray(values.astype(np_dtype)).view(np.uint8).reshape(-1)
        self._buffers.append(schema.BufferT())
        self._buffers[-1].data = data
        return self._add_tensor(name, values.shape, dtype, scale, zero_point,
                                quantized_dimension, buffer_index=len(self._buffers) - 1)

    def output(self, ref: TensorRef) -> None:
        self._outputs.append(ref.index)

    def _lookup_dtype(self, dtype: str, name: str) -> tuple[int, np.dtype]:
        if dtype not in DTYPES:
            raise BuilderError(f"tensor '{name}': unknown dtype '{dtype}'; "
                               f"use one of {sorted(DTYPES)}")
        return DTYPES[dtype]

    def _add_tensor(self, name, shape, dtype, scale, zero_point, quantized_dimension,
                    buffer_index) -> TensorRef:
        tensor_type, _ = self._lookup_dtype(dtype, name)
        shape = tuple(int(d) for d in shape)
        if any(d < 0 for d in shape):
            raise BuilderError(f"tensor '{name}': negative dimension in shape {shape}")
        t = schema.TensorT()
        t.name = name.encode()
        t.shape = np.array(shape, dtype=np.int32)
        t.type = tensor_type
        t.buffer = buffer_index
        scales = _as_list(scale)
        zero_points = _as_list(zero_point)
        if scales is not None:
            if zero_points is None:
                zero_points = [0]
            if len(zero_points) == 1 and len(scales) > 1:
                zero_points = zero_points * len(scales)
            if len(zero_points) != len(scales):
                raise BuilderError(f"tensor '{name}': {len(scales)} scales but "
                                   f"{len(zero_points)} zero points; give one zero point "
                                   "or one per scale")
            if len(scales) > 1:
                if not 0 <= quantized_dimension < len(shape) or \
                        shape[quantized_dimension] != len(scales):
                    raise BuilderError(
                        f"tensor '{name}': {len(scales)} per-channel scales do not match "
                        f"dimension {quantized_dimension} of shape {shape}")
            if any(not (s > 0) for s in scales):
                raise BuilderError(f"tensor '{name}': scales must be positive, got {scales}")
            q = schema.QuantizationParametersT()
            q.scale = np.array(scales, dtype=np.float32)
            q.zeroPoint = np.array(zero_points, dtype=np.int64)
            q.quantizedDimension = int(quantized_dimension)
            t.quantization = q
            # Keep what the flatbuffer stores (float32) so callers compute with it.
            stored = [float(s) for s in q.scale]
            scale_out = stored if len(stored) > 1 else stored[0]
            zp_out = [int(z) for z in zero_points] if len(stored) > 1 else int(zero_points[0])
        elif zero_points is not None:
            raise BuilderError(f"tensor '{name}': zero_point given without scale")
        else:
            scale_out, zp_out = None, None
        self._tensors.append(t)
        ref = TensorRef(len(self._tensors) - 1, name, shape, dtype, scale_out, zp_out,
                        int(quantized_dimension))
        self._refs.append(ref)
        return ref

    # -- operators -------------------------------------------------------------
    def op(self, op_name: str, inputs: Sequence[TensorRef | None],
           outputs: Sequence[TensorRef], options: dict[str, Any] | None = None,
           version: int | None = None, intermediates: Sequence[TensorRef] | None = None) -> None:
        if op_name.startswith(CUSTOM_PREFIX):
            self.custom_op(op_name[len(CUSTOM_PREFIX):], inputs, outputs, options, version=version or 1)
            return
        if op_name not in BUILTIN_OPERATORS:
            raise BuilderError(f"operator '{op_name}' is not a LiteRT BuiltinOperator name")
        code = BUILTIN_OPERATORS[op_name]
        _check_int16_bias(op_name, inputs, options or {})
        if version is None:
            version = converter_op_version(op_name, inputs, outputs, options)
        op = schema.OperatorT()
        op.opcodeIndex = self._opcode(code, version)
        op.inputs = np.array([-1 if r is None else r.index for r in inputs], dtype=np.int32)
        op.outputs = np.array([r.index for r in outputs], dtype=np.int32)
        if intermediates:  # operator internals a kernel reads scales from (LiteRT's integer LSTM)
            op.intermediates = np.array([r.index for r in intermediates], dtype=np.int32)
        table = options_table(op_name)
        if table is None:
            if options:
                raise BuilderError(f"operator {op_name} takes no options, got {sorted(options)}")
        else:
            op.builtinOptionsType = BUILTIN_OPTIONS[table]
            op.builtinOptions = _make_options(op_name, table, options or {})
        self._operators.append(op)

    def custom_op(self, custom_code: str, inputs: Sequence[TensorRef | None], outputs: Sequence[TensorRef],
                  options: dict[str, Any] | None = None, raw_options: bytes | None = None,
                  version: int = 1) -> None:
        """A custom operator (e.g. TFLM's "SignalWindow"): its attributes go in the custom options as the
        FlexBuffer map TFLM's kernels read (`options`, encoded with flexbuffers.Dumps), or as `raw_options`
        bytes exactly (for malformed-options tests)."""
        if not custom_code:
            raise BuilderError("a custom operator needs a custom code (e.g. 'CUSTOM:SignalWindow')")
        if options is not None and raw_options is not None:
            raise BuilderError(f"custom operator {custom_code}: give options or raw_options, not both")
        op = schema.OperatorT()
        op.opcodeIndex = self._opcode(schema.BuiltinOperator.CUSTOM, version, custom_code)
        op.inputs = np.array([-1 if r is None else r.index for r in inputs], dtype=np.int32)
        op.outputs = np.array([r.index for r in outputs], dtype=np.int32)
        data = bytes(flexbuffers.Dumps(dict(options or {}))) if raw_options is None else bytes(raw_options)
        op.customOptions = np.frombuffer(data, dtype=np.uint8).copy()
        op.customOptionsFormat = schema.CustomOptionsFormat.FLEXBUFFERS
        self._operators.append(op)

    def _opcode(self, code: int, version: int, custom_code: str | None = None) -> int:
        key = (code, version, custom_code)
        if key not in self._opcode_index:
            oc = schema.OperatorCodeT()
            # Codes above 127 live only in builtin_code; the deprecated int8 field
            # carries 127 (PLACEHOLDER_FOR_GREATER_OP_CODES) for them.
            oc.deprecatedBuiltinCode = min(code, 127)
            oc.builtinCode = code
            oc.version = int(version)
            if custom_code is not None:
                oc.customCode = custom_code
            self._opcodes.append(oc)
            self._opcode_index[key] = len(self._opcodes) - 1
        return self._opcode_index[key]

    # -- serialisation ---------------------------------------------------------
    def _subgraph_t(self) -> schema.SubGraphT:
        sg = schema.SubGraphT()
        sg.name = self._subgraph_name.encode()
        sg.tensors = self._tensors
        sg.inputs = np.array(self._inputs, dtype=np.int32)
        sg.outputs = np.array(self._outputs, dtype=np.int32)
        sg.operators = self._operators
        return sg

    def build(self) -> bytes:
        if self.index != 0:
            raise BuilderError("build the model from the main subgraph's builder")
        if not self._inputs or not self._outputs:
            raise BuilderError("model has no inputs or no outputs; call input() and output()")
        if not self._operators:
            raise BuilderError("model has no operators; call op()")
        model = schema.ModelT()
        model.version = 3
        model.description = self._description.encode()
        model.operatorCodes = self._opcodes
        model.subgraphs = [self._subgraph_t()] + [child._subgraph_t() for child in self._subgraphs]
        model.buffers = self._buffers
        fbb = flatbuffers.Builder(1024)
        fbb.Finish(model.Pack(fbb), file_identifier=b"TFL3")
        return bytes(fbb.Output())

    @property
    def tensors(self) -> list[TensorRef]:
        return list(self._refs)


def _dtype_name_of(np_dtype: np.dtype, name: str) -> str:
    for key, (_, candidate) in DTYPES.items():
        if candidate == np_dtype.newbyteorder("<") or candidate == np_dtype:
            return key
    raise BuilderError(f"constant '{name}': numpy dtype {np_dtype} has no LiteRT type; "
                       f"pass dtype= one of {sorted(DTYPES)}")


def _make_options(op_name: str, table: str, options: dict[str, Any]) -> Any:
    cls = getattr(schema, table + "T")
    obj = cls()
    fields = {k for k in vars(obj)}
    for key, value in options.items():
        attr = snake_to_camel(key)
        if attr not in fields:
            allowed = sorted(_camel_to_snake(f) for f in fields)
            raise BuilderError(f"operator {op_name}: unknown option '{key}' for {table}; "
                               f"allowed: {allowed}")
        setattr(obj, attr, _option_value(op_name, key, attr, value))
    return obj


def _option_value(op_name: str, key: str, attr: str, value: Any) -> Any:
    if attr in ENUM_FIELDS:
        members = _enum_members(ENUM_FIELDS[attr])
        if isinstance(value, str):
            if value not in members:
                raise BuilderError(f"operator {op_name}: option '{key}' = '{value}' is not "
                                   f"one of {sorted(members)}")
            return members[value]
        if int(value) not in members.values():
            raise BuilderError(f"operator {op_name}: option '{key}' = {value} is not a "
                               f"valid {ENUM_FIELDS[attr].__name__} value")
        return int(value)
    if isinstance(value, (list, tuple)):
        return np.array([int(v) for v in value], dtype=np.int32)
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        if attr in STRING_FIELDS:
            return value
        raise BuilderError(f"operator {op_name}: option '{key}' takes a number, got '{value}'")
    return value


def _camel_to_snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)

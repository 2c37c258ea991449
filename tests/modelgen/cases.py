# SPDX-License-Identifier: Apache-2.0
"""Single-operator test cases: YAML case files -> Case -> quantized LiteRT model bytes.

A case file `tests/e2e/cases/<op>_<variant>.yaml` (op lower-cased) has these keys:

  op: CONV_2D                  # LiteRT BuiltinOperator name
  variant: 3x3_stride2_same    # must match the file name
  description: "..."           # optional, one line
  seed: 101                    # seeds weights, bias and calibration inputs
  options: {padding: SAME, stride_h: 2, ...}   # the operator's options, snake_case
  inputs:                      # operator inputs, in operator order
    - {name: input, kind: activation, shape: [1, 9, 9, 8], dtype: int8, range: [-2, 2]}
    - {name: filter, kind: weights, shape: [16, 3, 3, 8], per_channel_axis: 0}
    - {name: bias, kind: bias, input: input, weights: filter}
    - {name: axis, kind: const, dtype: int32, value: [1, 2]}
  outputs:
    - {name: output, shape: [1, 5, 5, 16], dtype: int8, calibrate: true}
  tolerance: 1                 # max |diff| against LiteRT, in output codes
                               # (absolute units for float32 outputs)
  relative_tolerance: 1.0e-5   # float outputs: max |diff| as a fraction of the output's range
                               # (max - min of LiteRT's outputs over all samples); replaces
                               # `tolerance` for them. At least one of the two; without
                               # `tolerance` integer outputs must match exactly.
  tolerance_reason: "..."      # required: why this tolerance (YAML comments are lost)
  reference: tflm              # optional: golden outputs from TensorFlow Lite Micro instead of LiteRT,
                               # for an operator whose LiteRT reference kernel is wrong (say why), or
                               # one LiteRT does not have (TFLM's Signal custom operators)

Custom operators (TFLM's Signal front end): `op: CUSTOM:SignalWindow` builds a custom operator with
that custom code; the file is named after the code in snake case (`signal_window_<variant>.yaml`,
`CUSTOM:SignalPCAN` -> `signal_pcan_...`). Its attributes go in `custom_options: {shift: 12}`, encoded
as the FlexBuffer map TFLM's kernels read (flatbuffers.flexbuffers.Dumps: Python ints, bools, lists);
`options` is for builtin operators only. LiteRT cannot run them: such a case needs `reference: tflm`.

Input kinds:
  activation  a model input of `dtype` int8 (default), int16, int32, int64, uint16, uint32,
              uint64, bool, float32 or float16 (a float one may give `range: [lo, hi]`, the
              interval the tests draw its values from; default [-1, 1)). An unquantized integer
              input (indices, shapes, int32 arithmetic, the Signal operators' int16 samples and
              uint32 / uint64 energies) gives `values: [lo, hi]`, the inclusive interval its
              values are drawn from, and no range, scale or zero point; a bool input needs neither. A quantized int8 or int16
              input may also give `values: [lo, hi]`: the codes tests draw (and calibration
              dequantizes), e.g. none below the zero point where LiteRT stops on negative
              inputs (SQRT, RSQRT).
              Quantized ones need `range: [lo, hi]` (parameters derived as the
              converter does: asymmetric for int8; symmetric, zero point 0 and scale
              max(|lo|, |hi|) / 32767 for int16 (A16W8), likewise for int32) or
              `scale` + `zero_point`; float32 and float16 none.
  weights     seeded He-normal float weights, quantized symmetric int8 (A16W8 and the
              hybrid float32-with-int8-weights operators keep int8 weights; `dtype: int16`
              quantizes them symmetric int16 per tensor, as SVDF's time weights); per channel
              along `per_channel_axis`, per tensor when it is absent. `fan_in` defaults to
              the element count divided by the channel dimension (`per_channel_axis`, else
              dimension 0). `dtype: float32` keeps them float, `dtype: float16` rounds them
              to half precision (no quantization; `per_channel_axis` then only names the
              channel dimension).
  bias        seeded float bias (`std`, default 0.1) with scale
              input_scale * weight_scale per channel; `input` and `weights` name them.
              `dtype`: int32 (default for int8 inputs) or int64 (default for int16
              inputs, the converter's choice); float32 (float32 and hybrid operators) or
              float16 give an unquantized bias of that type (no input scale needed). An
              int32 bias on an int16 CONV_2D, FULLY_CONNECTED or TRANSPOSE_CONV also needs
              the option `quantized_bias_type: INT32`. Its length is the weights' channel
              dimension, or `size` when the weights are per tensor along another axis.
  variable    a variable tensor (`shape`, `dtype`, and for a quantized one `range` or `scale` +
              `zero_point`): operator state LiteRT keeps across invocations, zero at start
              (an LSTM's output and cell state, an SVDF's activation state).
  omitted     an optional operator input left out (-1 in the model), e.g. an LSTM's peephole
              weights; only `name`.
  const       literal `value` (nested list) of `dtype`; optional `shape` reshapes it
              (`shape: []` for a scalar). `same_as: <input name>` gives it that
              input's quantization (`value` is then in codes), e.g. PADV2's pad value.

Float16 cases (float16 outputs) describe a native FP16 operator. The model is built the way
LiteRT's FP16-weight conversion stores one (float16 constants behind DEQUANTIZE, float32
activations) and then rewritten to FP16 (tests/modelgen/fp16.py); `build_reference_model` gives the
FP32 model, which LiteRT runs as the reference.

`intermediates:` (optional) lists tensors the operator carries as intermediates, like outputs:
`name`, `shape`, `dtype` and, for a quantized one, `scale` + `zero_point` or `same_as: <input
name>` (LiteRT's integer LSTM reads its hidden scale from the fifth); they are left out of the
float twin.

Outputs have `dtype` int8 (default), int16, int32, int64, uint16, uint32, uint64, bool, float32 or
float16. bool outputs, int32/int64/uint16/uint32/uint64 outputs given none of the keys below, and a
custom operator's int8/int16 outputs given none of them are unquantized. Quantization, exactly one of:
  calibrate: true   run a float32 twin of the model (same dequantized weights) in
                    LiteRT over seeded inputs spanning the input ranges and quantize
                    the observed output range (symmetric for int16/int32);
  range: [lo, hi]   quantize this float range (likewise);
  scale + zero_point  fixed values (e.g. LOGISTIC's 1/256, -128; int16 LOGISTIC, TANH
                    and SOFTMAX 1/32768, 0; int8 -> int16 SOFTMAX 1/65536, -32768);
  same_as: <input name>  copy that input's quantization (operators that require it);
  nothing, for float32 and float16 outputs.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
from typing import Any

import numpy as np
import yaml

from tests.modelgen import fp16, quant
from tests.modelgen.builder import ModelBuilder, TensorRef
from tests.modelgen.errors import BuilderError, CaseFileError
from tests.modelgen.litert import run_reference

CASES_DIR = pathlib.Path(__file__).resolve().parents[1] / "e2e" / "cases"
CALIBRATION_SAMPLES = 64
FLOATS = ("float32", "float16")
# Integer inputs and outputs that may be plain integers (indices, shapes, the Signal operators' energies).
UNQUANTIZED_INTS = ("int32", "int64", "uint16", "uint32", "uint64")
QUANTIZED_CODES = ("int8", "int16")  # quantized inputs that may limit the codes tests draw (`values`)
# ...or plain integers too, with `values` and no quantization keys (inputs), or as a custom operator's
# output with none (TFLM's Signal operators compute on plain int16 samples).
PLAIN_OR_QUANTIZED = ("int8", "int16")
_QUANT_KEYS = {"range", "scale", "zero_point"}
CUSTOM_PREFIX = "CUSTOM:"

_CASE_KEYS = {"op", "variant", "description", "seed", "options", "inputs", "outputs",
              "tolerance", "relative_tolerance", "tolerance_reason", "reference", "intermediates",
              "custom_options"}
_REQUIRED_CASE_KEYS = {"op", "variant", "seed", "inputs", "outputs", "tolerance_reason"}
_INPUT_KEYS = {
    "activation": {"name", "kind", "shape", "dtype", "range", "scale", "zero_point", "values"},
    "weights": {"name", "kind", "shape", "dtype", "per_channel_axis", "fan_in"},
    "bias": {"name", "kind", "input", "weights", "std", "size", "dtype"},
    "const": {"name", "kind", "dtype", "value", "shape", "same_as"},
    "variable": {"name", "kind", "shape", "dtype", "range", "scale", "zero_point"},
    "omitted": {"name", "kind"},
}
_INTERMEDIATE_KEYS = {"name", "shape", "dtype", "scale", "zero_point", "same_as"}
_OUTPUT_KEYS = {"name", "shape", "dtype", "calibrate", "range", "scale", "zero_point",
                "same_as"}


@dataclasses.dataclass(frozen=True)
class Case:
    """One parsed case file; `inputs`/`outputs` keep the YAML dicts (validated)."""

    path: pathlib.Path
    op: str
    variant: str
    seed: int
    options: dict[str, Any]
    inputs: list[dict[str, Any]]
    outputs: list[dict[str, Any]]
    tolerance: float
    tolerance_reason: str
    description: str = ""
    relative_tolerance: float | None = None  # float outputs: fraction of the output's range
    reference: str = "litert"  # the golden reference: LiteRT, or TFLM where LiteRT's kernel is wrong
    intermediates: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    custom_options: dict[str, Any] | None = None  # a custom operator's FlexBuffer attributes

    @property
    def name(self) -> str:
        return f"{op_file_stem(self.op)}_{self.variant}"

    @property
    def is_custom(self) -> bool:
        return is_custom_op(self.op)


def is_custom_op(op: str) -> bool:
    return op.startswith(CUSTOM_PREFIX)


def op_file_stem(op: str) -> str:
    """How case files of `op` are named: the builtin name in lower case, a custom operator's code in
    snake case (CUSTOM:SignalFftAutoScale -> signal_fft_auto_scale, CUSTOM:SignalPCAN -> signal_pcan)."""
    if not is_custom_op(op):
        return op.lower()
    code = op[len(CUSTOM_PREFIX):]
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", code).lower()


def all_case_paths(cases_dir: pathlib.Path = CASES_DIR) -> list[pathlib.Path]:
    return sorted(pathlib.Path(cases_dir).glob("*.yaml"))


def load_case(path: str | pathlib.Path) -> Case:
    path = pathlib.Path(path)
    try:
        doc = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise CaseFileError(f"{path}: cannot read case file ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        raise CaseFileError(f"{path}: not valid YAML ({exc}); fix the syntax") from None
    if not isinstance(doc, dict):
        raise CaseFileError(f"{path}: a case file is a mapping with keys "
                            f"{sorted(_REQUIRED_CASE_KEYS)}")
    _check_keys(path, "case", doc, _CASE_KEYS, _REQUIRED_CASE_KEYS)
    op, variant = str(doc["op"]), str(doc["variant"])
    if is_custom_op(op) and not op[len(CUSTOM_PREFIX):].isidentifier():
        raise CaseFileError(f"{path}: custom operator '{op}' needs a custom code after 'CUSTOM:' "
                            "(e.g. CUSTOM:SignalWindow)")
    if path.stem != f"{op_file_stem(op)}_{variant}":
        raise CaseFileError(f"{path}: file name must be '{op_file_stem(op)}_{variant}.yaml' "
                            f"(op '{op}', variant '{variant}'); rename the file or fix them")
    reason = doc["tolerance_reason"]
    if not isinstance(reason, str) or len(reason.strip()) < 10:
        raise CaseFileError(f"{path}: 'tolerance_reason' must say in a sentence why the "
                            "tolerance is what it is")
    if "tolerance" not in doc and "relative_tolerance" not in doc:
        raise CaseFileError(f"{path}: missing key 'tolerance' (or 'relative_tolerance' for float "
                            "outputs) in case")
    tolerance = doc.get("tolerance", 0)
    relative = doc.get("relative_tolerance")
    for key, value in (("tolerance", tolerance), ("relative_tolerance", relative)):
        if key in doc and (not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0):
            raise CaseFileError(f"{path}: '{key}' must be a non-negative number, got {value!r}")
    seed = doc["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise CaseFileError(f"{path}: 'seed' must be an integer, got {seed!r}")
    options = doc.get("options") or {}
    if not isinstance(options, dict):
        raise CaseFileError(f"{path}: 'options' must be a mapping of option names to values")
    custom_options = doc.get("custom_options")
    if is_custom_op(op):
        if "options" in doc:
            raise CaseFileError(f"{path}: custom operator {op} takes 'custom_options' (its FlexBuffer "
                                "attributes), not 'options'")
        custom_options = custom_options or {}
        if not isinstance(custom_options, dict):
            raise CaseFileError(f"{path}: 'custom_options' must be a mapping of attribute names to values")
        if doc.get("reference", "litert") != "tflm":
            raise CaseFileError(f"{path}: custom operator {op}: LiteRT cannot run it; set 'reference: tflm'")
    elif custom_options is not None:
        raise CaseFileError(f"{path}: 'custom_options' belongs to a custom operator (op: CUSTOM:<code>); "
                            f"{op} takes 'options'")
    inputs = _check_list(path, "inputs", doc["inputs"])
    outputs = _check_list(path, "outputs", doc["outputs"])
    names: set[str] = set()
    for spec in inputs:
        _check_input(path, spec, names)
    for spec in outputs:
        _check_output(path, spec, names, custom=is_custom_op(op))
    intermediates = _check_list(path, "intermediates", doc["intermediates"]) if "intermediates" in doc else []
    for spec in intermediates:
        _check_keys(path, f"intermediate '{spec.get('name')}'", spec, _INTERMEDIATE_KEYS, {"name", "shape", "dtype"})
        if "same_as" in spec and spec["same_as"] not in names:
            raise CaseFileError(f"{path}: intermediate '{spec['name']}' same_as '{spec['same_as']}' names no input")
    reference = doc.get("reference", "litert")
    if reference not in ("litert", "tflm"):
        raise CaseFileError(f"{path}: 'reference' must be litert or tflm, got {reference!r}")
    return Case(path=path, op=op, variant=variant, seed=seed, options=dict(options), reference=reference,
                inputs=inputs, outputs=outputs, tolerance=float(tolerance),
                tolerance_reason=reason.strip(), description=str(doc.get("description", "")),
                relative_tolerance=None if relative is None else float(relative),
                intermediates=intermediates, custom_options=custom_options)


def _check_keys(path, where, mapping, allowed, required) -> None:
    unknown = sorted(set(mapping) - allowed)
    if unknown:
        raise CaseFileError(f"{path}: unknown key '{unknown[0]}' in {where}; "
                            f"allowed: {sorted(allowed)}")
    missing = sorted(required - set(mapping))
    if missing:
        raise CaseFileError(f"{path}: missing key '{missing[0]}' in {where}")


def _check_list(path, key, value) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not value or \
            not all(isinstance(v, dict) for v in value):
        raise CaseFileError(f"{path}: '{key}' must be a non-empty list of mappings")
    return value


def _check_input(path, spec, names) -> None:
    kind = spec.get("kind", "activation")
    if kind not in _INPUT_KEYS:
        raise CaseFileError(f"{path}: input '{spec.get('name')}' has unknown kind '{kind}'; "
                            f"use one of {sorted(_INPUT_KEYS)}")
    required = {"activation": {"name", "shape"}, "weights": {"name", "shape"},
                "bias": {"name", "input", "weights"}, "const": {"name", "dtype", "value"},
                "variable": {"name", "shape", "dtype"}, "omitted": {"name"}}[kind]
    _check_keys(path, f"input '{spec.get('name')}' ({kind})", spec, _INPUT_KEYS[kind], required)
    if spec["name"] in names:
        raise CaseFileError(f"{path}: tensor name '{spec['name']}' used twice")
    # A quantized int8 / int16 input may give `values` too: the codes tests draw (e.g. none below the zero
    # point for SQRT, where LiteRT stops); it still needs `range` or `scale` + `zero_point`.
    quantized_codes = kind == "activation" and "values" in spec and spec.get("dtype", "int8") in QUANTIZED_CODES \
        and bool(_QUANT_KEYS & set(spec))
    if kind == "activation" and ("values" in spec or spec.get("dtype") == "bool"):
        plain = UNQUANTIZED_INTS + PLAIN_OR_QUANTIZED + ("bool",)
        if not quantized_codes and (spec.get("dtype", "int8") not in plain or
                                    {"range", "scale", "zero_point"} & set(spec) or
                                    (spec.get("dtype") == "bool") == ("values" in spec)):
            raise CaseFileError(f"{path}: input '{spec['name']}': 'values: [lo, hi]' belongs to an "
                                "unquantized integer input (no range, scale or zero_point) or a quantized int8 / "
                                "int16 one; a bool input takes none of them")
        lo_hi = spec.get("values", [0, 1])
        if not (isinstance(lo_hi, list) and len(lo_hi) == 2 and all(isinstance(v, int) for v in lo_hi)
                and lo_hi[0] <= lo_hi[1]):
            raise CaseFileError(f"{path}: input '{spec['name']}': 'values' must be [lo, hi], integers, "
                                f"lo <= hi, got {lo_hi!r}")
    if kind == "activation" and spec.get("dtype", "int8") not in FLOATS and ("values" not in spec or quantized_codes) \
            and spec.get("dtype") != "bool":
        has_range = "range" in spec
        has_explicit = "scale" in spec and "zero_point" in spec
        if has_range == has_explicit:
            raise CaseFileError(f"{path}: input '{spec['name']}' needs either 'range' or "
                                "'scale' + 'zero_point'")
    if kind == "variable" and spec["dtype"] not in FLOATS and \
            ("range" in spec) == ("scale" in spec and "zero_point" in spec):
        raise CaseFileError(f"{path}: variable '{spec['name']}' is {spec['dtype']}: it needs either "
                            "'range' or 'scale' + 'zero_point'")
    if kind == "weights" and spec.get("dtype", "int8") not in ("int8", "int16") + FLOATS:
        raise CaseFileError(f"{path}: weights '{spec['name']}' must be int8 (A16W8 and hybrid "
                            "operators keep int8 weights), float32 or float16, or int16 per tensor (SVDF's "
                            "time weights)")
    if kind == "weights" and spec.get("dtype") == "int16" and "per_channel_axis" in spec:
        raise CaseFileError(f"{path}: weights '{spec['name']}' quantized per channel must be int8 (int16 "
                            "weights are per tensor)")
    if kind == "bias" and spec.get("dtype", "int32") not in ("int32", "int64") + FLOATS:
        raise CaseFileError(f"{path}: bias '{spec['name']}' dtype must be int32, int64, float32 "
                            "or float16")
    if kind == "const" and "same_as" in spec and spec["same_as"] not in names:
        raise CaseFileError(f"{path}: const '{spec['name']}' same_as '{spec['same_as']}' "
                            "names no earlier input")
    if kind == "bias":
        for ref in ("input", "weights"):
            if spec[ref] not in names:
                raise CaseFileError(f"{path}: bias '{spec['name']}' refers to {ref} "
                                    f"'{spec[ref]}', which is not an earlier input")
    names.add(spec["name"])


def _check_output(path, spec, names, custom: bool = False) -> None:
    _check_keys(path, f"output '{spec.get('name')}'", spec, _OUTPUT_KEYS, {"name", "shape"})
    dtype = spec.get("dtype", "int8")
    ways = [k for k in ("calibrate", "range", "scale", "same_as") if k in spec]
    plain = UNQUANTIZED_INTS + (PLAIN_OR_QUANTIZED if custom else ())
    if dtype in FLOATS + ("bool",):
        if ways:
            raise CaseFileError(f"{path}: {dtype} output '{spec['name']}' takes no "
                                "quantization keys")
    elif dtype in plain and not ways and "zero_point" not in spec:
        pass  # a plain integer output
    elif len(ways) != 1 or ("scale" in spec) != ("zero_point" in spec):
        raise CaseFileError(f"{path}: output '{spec['name']}' needs exactly one of "
                            "'calibrate: true', 'range', 'scale' + 'zero_point', 'same_as'")
    if "same_as" in spec and spec["same_as"] not in names:
        raise CaseFileError(f"{path}: output '{spec['name']}' same_as '{spec['same_as']}' "
                            "names no input")
    if spec["name"] in names:
        raise CaseFileError(f"{path}: tensor name '{spec['name']}' used twice")
    names.add(spec["name"])


# -- model construction ---------------------------------------------------------

@dataclasses.dataclass
class _Resolved:
    """Concrete values for one input: quantization and (for constants) data."""

    spec: dict[str, Any]
    dtype: str
    shape: tuple[int, ...]
    scale: Any = None
    zero_point: Any = None
    quantized_dimension: int = 0
    data: np.ndarray | None = None  # quantized/literal data for constants
    float_data: np.ndarray | None = None  # dequantized data for the float twin


def _resolve_inputs(case: Case) -> list[_Resolved]:
    generator = quant.rng(case.seed)
    resolved: dict[str, _Resolved] = {}
    order = []
    for spec in case.inputs:
        kind = spec.get("kind", "activation")
        name = spec["name"]
        if kind == "omitted":
            r = _Resolved(spec, "none", ())
        elif kind in ("activation", "variable"):
            dtype = spec.get("dtype", "int8")
            r = _Resolved(spec, dtype, tuple(spec["shape"]))
            if dtype not in FLOATS and dtype != "bool" and ("values" not in spec or (
                    dtype in QUANTIZED_CODES and _QUANT_KEYS & set(spec))):
                if "range" in spec:
                    lo, hi = _pair(case, name, spec["range"])
                    r.scale, r.zero_point = quant.range_to_scale_zp(lo, hi, dtype)
                else:
                    r.scale, r.zero_point = float(spec["scale"]), int(spec["zero_point"])
        elif kind == "weights":
            shape = tuple(spec["shape"])
            axis = spec.get("per_channel_axis")
            channels = shape[axis if axis is not None else 0]
            fan_in = int(spec.get("fan_in", int(np.prod(shape)) // max(channels, 1)))
            w = quant.random_weights(generator, shape, fan_in)
            if spec.get("dtype", "int8") in FLOATS:
                data = w.astype(spec["dtype"])
                r = _Resolved(spec, spec["dtype"], shape, data=data)
                r.float_data = data.astype(np.float32)
            elif axis is None:
                dtype = spec.get("dtype", "int8")
                q, scale = quant.quantize_per_tensor_symmetric(w, dtype)
                r = _Resolved(spec, dtype, shape, scale, 0, 0, q)
                r.float_data = quant.dequantize(q, scale, 0)
            else:
                q, scales = quant.quantize_per_channel(w, axis)
                r = _Resolved(spec, "int8", shape, scales, 0, int(axis), q)
                bshape = [1] * len(shape)
                bshape[axis] = -1
                r.float_data = quant.dequantize(q, np.array(scales).reshape(bshape), 0)
        elif kind == "bias" and spec.get("dtype") in FLOATS:
            wts = resolved[spec["weights"]]
            axis = wts.spec.get("per_channel_axis")
            channels = int(spec.get("size", wts.shape[axis if axis is not None else 0]))
            values = generator.normal(0.0, float(spec.get("std", 0.1)), size=channels).astype(spec["dtype"])
            r = _Resolved(spec, spec["dtype"], (channels,), data=values)
            r.float_data = values.astype(np.float32)
        elif kind == "bias":
            inp, wts = resolved[spec["input"]], resolved[spec["weights"]]
            if inp.scale is None or wts.scale is None:
                raise CaseFileError(f"{case.path}: bias '{name}' needs a quantized input "
                                    "and quantized weights")
            w_axis = wts.quantized_dimension if isinstance(wts.scale, list) else 0
            channels = int(spec.get("size", wts.shape[w_axis]))
            b = generator.normal(0.0, float(spec.get("std", 0.1)), size=channels)
            w_scales = wts.scale if isinstance(wts.scale, list) else [wts.scale]
            dtype = spec.get("dtype", "int64" if inp.dtype == "int16" else "int32")
            q, scales = quant.quantize_bias(b, inp.scale, w_scales, dtype)
            per_channel = isinstance(wts.scale, list)
            r = _Resolved(spec, dtype, (channels,), scales if per_channel else scales[0],
                          0, 0, q)
            r.float_data = q.astype(np.float64) * np.array(scales, dtype=np.float64)
        else:  # const
            dtype = spec["dtype"]
            value = np.array(spec["value"])
            if "shape" in spec:
                value = value.reshape(tuple(spec["shape"]))
            r = _Resolved(spec, dtype, value.shape, data=value)
            r.float_data = value
            if "same_as" in spec:
                src = resolved[spec["same_as"]]
                r.scale, r.zero_point = src.scale, src.zero_point
                r.float_data = quant.dequantize(value, src.scale, src.zero_point)
        resolved[name] = r
        order.append(r)
    return order


def _pair(case: Case, name: str, value: Any) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2 or not value[0] < value[1]:
        raise CaseFileError(f"{case.path}: '{name}' range must be [lo, hi] with lo < hi, "
                            f"got {value!r}")
    return float(value[0]), float(value[1])


def _add_inputs(b: ModelBuilder, inputs: list[_Resolved], float_twin: bool,
                fp16_form: bool = False) -> list[TensorRef]:
    refs = []
    for r in inputs:
        kind = r.spec.get("kind", "activation")
        name = r.spec["name"]
        if kind == "omitted":
            refs.append(None)
        elif r.dtype == "float16" and fp16_form:
            # LiteRT's FP16-weight form: float32 data, float16 constants behind DEQUANTIZE.
            if kind == "activation":
                refs.append(b.input(name, r.shape, "float32"))
            else:
                half = b.const(name, r.data, "float16")
                refs.append(b.tensor(f"{name}_dequantized", r.shape, "float32"))
                b.op("DEQUANTIZE", [half], [refs[-1]])
        elif kind == "activation":
            if float_twin and r.scale is not None:
                refs.append(b.input(name, r.shape, "float32"))
            else:
                refs.append(b.input(name, r.shape, r.dtype, r.scale, r.zero_point))
        elif kind == "variable":
            if float_twin:
                refs.append(b.tensor(name, r.shape, "float32", variable=True))
            else:
                refs.append(b.tensor(name, r.shape, r.dtype, r.scale, r.zero_point, variable=True))
        elif float_twin and (kind in ("weights", "bias") or r.scale is not None):
            refs.append(b.const(name, r.float_data.astype(np.float32), "float32"))
        else:
            refs.append(b.const(name, r.data, r.dtype, r.scale, r.zero_point,
                                r.quantized_dimension))
    return refs


def _build_float_twin(case: Case, inputs: list[_Resolved]) -> bytes:
    b = ModelBuilder(description=f"helia-aot case {case.name}, float twin")
    refs = _add_inputs(b, inputs, float_twin=True)
    outs = []
    for spec in case.outputs:
        outs.append(b.tensor(spec["name"], spec["shape"], "float32"))
        b.output(outs[-1])
    _add_op(case, b, refs, outs)
    return b.build()


def build_float_twin(case: Case) -> bytes:
    """The case's operator in float32, with the quantized model's weights, bias and
    quantized constants dequantized: the exact-math reference it approximates."""
    inputs = _resolve_inputs(case)
    for r in inputs:
        if r.spec.get("kind", "activation") == "activation" and r.dtype in FLOATS:
            raise CaseFileError(f"{case.path}: a float twin needs quantized inputs; "
                                f"input '{r.spec['name']}' is {r.dtype}")
    return _build_float_twin(case, inputs)


def integer_sample_ranges(case: Case) -> dict[str, tuple[int, int]]:
    """Per unquantized integer or bool activation input, the inclusive interval its values are drawn from."""
    return {spec["name"]: tuple(spec.get("values", [0, 1])) for spec in case.inputs
            if spec.get("kind", "activation") == "activation"
            and ("values" in spec or spec.get("dtype") == "bool")}


def float_sample_ranges(case: Case) -> dict[str, tuple[float, float]]:
    """Per float activation input with a `range`, the interval tests draw its values from."""
    return {spec["name"]: sample_range(case, spec["name"]) for spec in case.inputs
            if spec.get("kind", "activation") == "activation" and spec.get("dtype") in FLOATS and "range" in spec}


def sample_range(case: Case, name: str) -> tuple[float, float]:
    """The interval tests draw a float activation input from: its `range`, else [-1, 1)."""
    for spec in case.inputs:
        if spec["name"] == name and spec.get("kind", "activation") == "activation":
            return _pair(case, name, spec["range"]) if "range" in spec else (-1.0, 1.0)
    raise CaseFileError(f"{case.path}: no activation input named '{name}'")


def input_float_range(case: Case, name: str) -> tuple[float, float]:
    """The real-value range a quantized activation input of the case can represent."""
    for r in _resolve_inputs(case):
        if r.spec["name"] == name and r.scale is not None:
            return _float_range_of_input(r)
    raise CaseFileError(f"{case.path}: no quantized activation input named '{name}'")


def _float_range_of_input(r: _Resolved) -> tuple[float, float]:
    qmin, qmax = quant.int_range(r.dtype)
    return ((qmin - r.zero_point) * r.scale, (qmax - r.zero_point) * r.scale)


def _calibrate(case: Case, inputs: list[_Resolved]) -> list[tuple[float, float]]:
    """Observed output ranges of the float twin over seeded inputs spanning each
    input's representable range."""
    activations = [r for r in inputs if r.spec.get("kind", "activation") == "activation"]
    integer_ranges = integer_sample_ranges(case)
    if any(r.dtype in FLOATS for r in activations):
        raise CaseFileError(f"{case.path}: 'calibrate' needs quantized inputs; give "
                            "the output a 'range' instead")
    data = _build_float_twin(case, inputs)
    generator = quant.rng(case.seed + 1)
    lows = [np.inf] * len(case.outputs)
    highs = [-np.inf] * len(case.outputs)
    for _ in range(CALIBRATION_SAMPLES):
        feeds = []
        for r in activations:
            if r.spec["name"] in integer_ranges:
                lo, hi = integer_ranges[r.spec["name"]]
                codes = generator.integers(lo, hi, size=r.shape, endpoint=True)
                if r.scale is not None:  # quantized: the float twin takes the real values of the codes
                    feeds.append(((codes - r.zero_point) * r.scale).astype(np.float32))
                    continue
                feeds.append(codes.astype(r.dtype))
                continue
            lo, hi = _float_range_of_input(r)
            feeds.append(generator.uniform(lo, hi, size=r.shape).astype(np.float32))
        for i, y in enumerate(run_reference(data, feeds)):
            lows[i] = min(lows[i], float(y.min()))
            highs[i] = max(highs[i], float(y.max()))
    return list(zip(lows, highs))


def _add_op(case: Case, b: ModelBuilder, inputs: list[TensorRef],
            outputs: list[TensorRef], intermediates: list[TensorRef] | None = None) -> None:
    try:
        if case.is_custom:
            b.custom_op(case.op[len(CUSTOM_PREFIX):], inputs, outputs, case.custom_options)
            return
        b.op(case.op, inputs, outputs, case.options or None, intermediates=intermediates)
    except BuilderError as exc:
        raise CaseFileError(f"{case.path}: {exc}") from None


def is_float16_case(case: Case) -> bool:
    """A native FP16 case (float16 outputs), built in FP32 and rewritten; a float16 input with a float32
    output (DEQUANTIZE) is a plain case LiteRT runs as it is."""
    return any(spec.get("dtype") == "float16" for spec in case.outputs)


def build_case_model(case: Case) -> bytes:
    """The single-operator model a case describes (quantized, float or, for a float16 case, the FP16
    rewrite of its FP32 model); same case, same bytes."""
    data = build_reference_model(case)
    return fp16.to_float16(data) if is_float16_case(case) else data


def build_reference_model(case: Case) -> bytes:
    """The model LiteRT runs for the case's golden outputs: the case model itself, or for a float16
    case the FP32 model it is rewritten from (LiteRT has no FP16 kernels)."""
    inputs = _resolve_inputs(case)
    by_name = {r.spec["name"]: r for r in inputs}
    needs_calibration = any(spec.get("calibrate") for spec in case.outputs)
    ranges = _calibrate(case, inputs) if needs_calibration else None
    b = ModelBuilder(description=f"helia-aot case {case.name}")
    refs = _add_inputs(b, inputs, float_twin=False, fp16_form=is_float16_case(case))
    outs = []
    for i, spec in enumerate(case.outputs):
        dtype = spec.get("dtype", "int8")
        scale = zero_point = None
        if spec.get("calibrate"):
            scale, zero_point = quant.range_to_scale_zp(*ranges[i], dtype)
        elif "range" in spec:
            scale, zero_point = quant.range_to_scale_zp(*_pair(case, spec["name"],
                                                               spec["range"]), dtype)
        elif "scale" in spec:
            scale, zero_point = float(spec["scale"]), int(spec["zero_point"])
        elif "same_as" in spec:
            src = by_name[spec["same_as"]]
            scale, zero_point = src.scale, src.zero_point
        if dtype == "float16" and is_float16_case(case):
            dtype = "float32"  # promoted by the FP16 rewrite
        outs.append(b.tensor(spec["name"], spec["shape"], dtype, scale, zero_point))
        b.output(outs[-1])
    intermediates = []
    for spec in case.intermediates:
        scale = zero_point = None
        if "same_as" in spec:
            scale, zero_point = by_name[spec["same_as"]].scale, by_name[spec["same_as"]].zero_point
        elif "scale" in spec:
            scale, zero_point = float(spec["scale"]), int(spec.get("zero_point", 0))
        intermediates.append(b.tensor(spec["name"], spec["shape"], spec["dtype"], scale, zero_point))
    _add_op(case, b, refs, outs, intermediates)
    return b.build()

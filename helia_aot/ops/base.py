# SPDX-License-Identifier: Apache-2.0
"""The contract every operator module implements, and the registry they join.

An operator module declares its precision paths as `Variant`s keyed by the data types of its
operands. Validation selects exactly one variant from the model's dtypes, checks the operand rules
the variant declares (constant, quantized, symmetric, per-channel axis), then the module's own
semantic rules, and lowers with the variant's method. `helia-aot operators` prints the same
declarations, so the catalog cannot drift from what the validator accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

from helia_aot.errors import UnsupportedModelError
from helia_aot.ir.graph import Graph, Operator, Tensor
from helia_aot.library.cost_kinds import CostKind
from helia_aot.library.kernel_library import KernelLibrary
from helia_aot.config.targets import Target

_REGISTRY: dict[str, "OpLowering"] = {}

# dtype groups operand declarations use
ANY = ("int8", "uint8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16", "float32", "bool")
INDEX = ("int32", "int64")


def register(cls):
    """Class decorator: one instance per operator type, keyed by its builtin name."""
    instance = cls()
    for op_type in cls.op_types:
        if op_type in _REGISTRY:
            raise RuntimeError(f"operator {op_type} registered twice")
        _REGISTRY[op_type] = instance
    names = [v.name for v in cls.variants]
    if not names or len(set(names)) != len(names):
        raise RuntimeError(f"{cls.__name__} must declare variants with distinct names")
    return cls


def registry() -> dict[str, "OpLowering"]:
    return dict(_REGISTRY)


def ops_module(op_type: str) -> "OpLowering":
    return _REGISTRY[op_type]


# Where a rule comes from. Every rule an operator enforces names one: the reference check it mirrors
# (LiteRT's or TFLM's kernel Prepare), or the limit it is (a kernel we call, or helia-aot itself). A rule
# with no reference check refuses something a reference may run: the limit says why, and what would lift it.
# "reference undefined": the reference runs the case without a check, but its result is undefined there (C++
# undefined behaviour, a read or write past a tensor, an output left unwritten): there is nothing to match.
SOURCE_KINDS = ("LiteRT", "TFLM", "LiteRT and TFLM", "kernel limit", "helia-aot limit", "reference undefined")


@dataclass(frozen=True)
class Source:
    """The provenance of one rule: `kind` (SOURCE_KINDS), `where` (a reference kernel file and function,
    e.g. "conv.cc Prepare", or the kernel entry that assumes it), `check` (the check, in the reference's
    terms or ours) and, for a limit, `lifted_by`: the variant or change that would lift it. A LiteRT check
    TFLM lacks states, in `tflm_unchecked`, what TFLM computes instead and why it is not the model's result."""

    kind: str
    where: str
    check: str
    lifted_by: str = ""
    tflm_unchecked: str = ""

    def __post_init__(self):
        if self.kind not in SOURCE_KINDS:
            raise ValueError(f"rule source kind {self.kind!r} is not one of {', '.join(SOURCE_KINDS)}")
        if not self.where.strip() or not self.check.strip():
            raise ValueError(f"a {self.kind} rule source names where the check is and what it checks")
        if self.tflm_unchecked and self.kind != "LiteRT":
            raise ValueError("only a LiteRT check can say what TFLM does without it")

    @property
    def tag(self) -> str:
        """Short form a refusal ends with: the kind and where (a helia-aot limit has no where)."""
        if self.kind == "helia-aot limit":
            return self.kind
        return f"{self.kind}: {self.where}" + ("; TFLM unchecked" if self.tflm_unchecked else "")

    @property
    def is_reference(self) -> bool:
        return self.kind in ("LiteRT", "TFLM", "LiteRT and TFLM")

    def __str__(self) -> str:
        # A helia-aot limit's `where` is helia-aot itself: saying it twice reads as a stutter.
        where = "" if self.kind == "helia-aot limit" else f" {self.where}"
        text = f"{self.kind}{where}: {self.check}"
        text += f"; TFLM lacks the check and {self.tflm_unchecked}" if self.tflm_unchecked else ""
        return text + (f"; lifted by {self.lifted_by}" if self.lifted_by else "")


def litert(where: str, check: str, tflm_unchecked: str = "") -> Source:
    """A check in LiteRT's kernel (tensorflow/lite/kernels/<where>). `tflm_unchecked`: what TFLM's kernel,
    which lacks the check, does with such a case instead (it reads or writes past a tensor, or disregards
    part of the model), so that TFLM's running it sets nothing to match."""
    return Source("LiteRT", where, check, tflm_unchecked=tflm_unchecked)


def tflm(where: str, check: str) -> Source:
    """A check in TFLM's kernel (tensorflow/lite/micro/kernels/<where>)."""
    return Source("TFLM", where, check)


def both(where: str, check: str) -> Source:
    """The same check in LiteRT's and TFLM's kernels (`where` names both files)."""
    return Source("LiteRT and TFLM", where, check)


def kernel_limit(entry: str, assumes: str, lifted_by: str = "") -> Source:
    """A limit of a kernel entry we call (it assumes what the references do not); `lifted_by` names the
    variant (e.g. inline C) that would lift it, empty when none is planned."""
    return Source("kernel limit", entry, assumes, lifted_by)


def undefined(where: str, what: str) -> Source:
    """The reference named by `where` (kernel file and function) runs the case unchecked and `what` makes its
    result undefined (a shift past the word, a signed overflow, an index past a tensor, an unwritten output)."""
    return Source("reference undefined", where, what)


def helia_limit(why: str, lifted_by: str = "") -> Source:
    """A limit of helia-aot itself (ahead-of-time code, a path not written yet)."""
    return Source("helia-aot limit", "helia-aot", why, lifted_by)


@dataclass(frozen=True)
class Rule:
    """One rule a variant enforces: its text (the catalog's words) and where it comes from. Declared
    once beside the operator's code; validate() raises with it (OpContext.error takes a Rule), so the
    refusal, the catalog and the provenance are the same object."""

    text: str
    source: Source

    def __post_init__(self):
        if not isinstance(self.source, Source):
            raise TypeError(f"rule {self.text!r} needs a Source (litert, tflm, both, kernel_limit, helia_limit)")


# check_axes's rule, for every operator that declares OpLowering.axes. Measured for MEAN (reduce.cc refuses an
# axis out of range; TFLM's reduce runs it, reading past the shape).
AXIS_RANGE_RULE = Rule("axis arguments within the rank of the tensor they index", litert(
    "each axis-taking kernel's Prepare (reduce.cc ResizeOutputTensor, concatenation.cc, split.cc, gather.cc, ...)",
    "the axis is checked against the rank (reduce.cc: \"Invalid axis index\")",
    "indexes the input's shape with the axis, past its rank"))

# OpLowering.check_target's FPU gate, for every operator with a float tensor: a limit of the target core and
# the float kernels (hardware floating point), not a reference check: LiteRT and TFLM run float anywhere.
FPU_RULE = Rule("float32 and float16 tensors need a target core with an FPU", kernel_limit(
    "the float kernels and inline C on the target core", "hardware floating point (-mfloat-abi=hard); a core "
    "without an FPU would need software floating point, which helia-aot never uses silently",
    "a soft-float build of the float paths for cores without an FPU"))

# The sources of the operand rules (Operand flags), unless an operand declares its own.
CONSTANT_SOURCE = helia_limit("the value is compiled into the module (weights, shapes, axes): generated code has "
                              "no path for it at run time")
QUANTIZED_SOURCE = litert("kernel_util.cc PopulateConvolutionQuantizationParams and each integer kernel's Prepare",
                          "integer kernels read the tensor's affine quantization (scale, zero point)")
PER_TENSOR_SOURCE = helia_limit("the kernel takes one scale for this tensor (LiteRT's kernels read params.scale, "
                                "the first); per-channel scales there would be ignored, not honoured")
PER_CHANNEL_SOURCE = litert("kernel_util.cc PopulateConvolutionQuantizationParams",
                            "TF_LITE_ENSURE_EQ(scale->size, filter->dims->data[quantized_dimension]) and the "
                            "quantized_dimension of the output channels")
# Measured where LiteRT refuses (tests/e2e/differential.py reads the failed check): add.cc:146, sub.cc:276,
# mul.cc:285, activations.cc:562, quantize.cc:203, dequantize.cc:75. TFLM checks less (it runs an int16
# QUANTIZE or DEQUANTIZE with a nonzero zero point), so the source is LiteRT's.
INT16_ZERO_POINT_SOURCE = litert("each int16 kernel's Prepare (conv.cc, fully_connected.cc, add.cc, sub.cc, mul.cc, "
                                 "pooling.cc, activations.cc, quantize.cc, dequantize.cc)",
                                 "TF_LITE_ENSURE_EQ(context, input/output->params.zero_point, 0) for kTfLiteInt16")
# Measured (tests/e2e/differential.py reads LiteRT's refusal): conv.cc refuses a nonzero filter zero point; an
# operator whose LiteRT kernel runs one declares its own source on the operand (FULLY_CONNECTED int16).
WEIGHTS_ZERO_POINT_SOURCE = litert("conv.cc Prepare (the convolutions' int8 filters)",
                                   "TF_LITE_ENSURE_EQ(affine_quantization->zero_point->data[i], 0) for every channel",
                                   "convolves as if it were 0 (reference_integer_ops::ConvPerChannel takes no filter "
                                   "offset)")
FC_WEIGHTS_ZERO_POINT_SOURCE = kernel_limit(
    "arm_fully_connected_s16 / arm_fully_connected_per_channel_s8 / _s16", "take no weight offset; LiteRT's "
    "fully_connected.cc runs int16 layers with one (measured)", "an inline-C variant subtracting the weight zero point")


@dataclass(frozen=True)
class Operand:
    """One input or output position of a variant and the rules its tensor must meet."""

    role: str
    dtypes: tuple[str, ...]
    optional: bool = False  # the position may be omitted (-1) or absent
    repeated: bool = False  # the last input (or output) declaration: matches every remaining one
    constant: bool = False  # must be a constant tensor (weights, shapes, axes)
    quantized: bool = False  # must carry a scale and zero point
    symmetric: bool = False  # zero points must be 0 (int16 activations, weights)
    per_channel_axis: int | None = None  # per-channel scales allowed along this axis (else per tensor)
    # (rule word, Source) for a flag whose provenance differs from the defaults (Operand.rule_sources)
    sources: tuple[tuple[str, Source], ...] = ()

    def accepts(self, tensor: Tensor | None) -> bool:
        if tensor is None:
            return self.optional
        return tensor.dtype in self.dtypes

    def rules(self) -> list[str]:
        """The operand's rules in words (the catalog's text)."""
        words = []
        if self.constant:
            words.append("constant")
        if self.quantized:
            if self.per_channel_axis is None:
                words.append("per-tensor quantized")
            else:
                words.append(f"per-tensor or per-channel (axis {self.per_channel_axis}) quantized")
        if self.symmetric:
            words.append("zero point 0")
        if self.optional:
            words.append("optional")
        if self.repeated:
            words.append("one or more")
        return words

    def rule_sources(self) -> list[tuple[str, Source]]:
        """The operand's refusing rules (constant, quantized, zero point 0), each with its provenance:
        the operand's own `sources` entry, else the default for the flag. optional / one or more allow
        more than they refuse and carry none."""
        own = dict(self.sources)
        found = []
        for word in self.rules():
            if word in ("optional", "one or more"):
                continue
            if word in own:
                found.append((word, own[word]))
            elif word == "constant":
                found.append((word, CONSTANT_SOURCE))
            elif word == "per-tensor quantized":
                found.append((word, PER_TENSOR_SOURCE))
            elif word.startswith("per-tensor or per-channel"):
                found.append((word, PER_CHANNEL_SOURCE))
            elif word == "zero point 0":
                found.append((word, WEIGHTS_ZERO_POINT_SOURCE if self.constant else INT16_ZERO_POINT_SOURCE
                              if "int16" in self.dtypes else None))
            else:
                found.append((word, None))
        return found


def q(role: str, *dtypes: str, **rules) -> Operand:
    """A quantized operand (activations of integer variants)."""
    return Operand(role, dtypes, quantized=True, **rules)


@dataclass(frozen=True)
class Variant:
    """One precision path of an operator: the dtype signature it accepts and what it lowers to."""

    name: str
    inputs: tuple[Operand, ...]
    outputs: tuple[Operand, ...]
    entries: tuple[str, ...] = ()  # kernel entries it may call; empty: inline C or no code
    template: str | None = None  # under ops/templates; None for aliases
    lower: str = "lower"  # the operator module's method that lowers this variant
    notes: tuple[str, ...] = ()  # how the variant computes, in words (catalog); rules that refuse go in `rules`
    # The rules validate() enforces beyond the operand rules, each with its provenance (Rule); the catalog
    # prints them with their source, and tests/unit/test_rule_provenance.py walks them.
    rules: tuple[Rule, ...] = ()
    # Native half-precision compute (the _f16 kernels or float16 arithmetic): only on targets that
    # support FP16 (Target.supports_fp16), checked for every variant by OpLowering.check_target.
    # Storage conversions and byte moves of float16 data leave it False and run everywhere.
    requires_fp16: bool = False
    # ns-cmsis-nn build switches the emitted code needs (e.g. ARM_NN_ENABLE_F16: the _f16 entries and
    # the float16_t type exist only then); the module's <prefix>_common.h declares them.
    switches: tuple[str, ...] = ()
    # Entries of our own kernel families (helia_aot.library.own_kernels: kernels/helium on cores with
    # MVE, kernels/dsp on cores with the DSP extension) it may call there; no part of the library's API.
    own_entries: tuple[str, ...] = ()
    # (entry, how its cost is modelled) for the entries kernel choice weighs by measured cost
    # (helia_aot/library/cost_kinds.py); an entry not listed is never estimated.
    cost_kinds: tuple[tuple[str, CostKind], ...] = ()
    # (entry, what the variant calls instead where the kernel library lacks the entry): another entry
    # with the same arguments, or None for the variant's own inline C. OpContext.library_entry applies it;
    # an entry a library lacks and no fallback covers is refused (tests/unit/test_library_entries.py).
    fallbacks: tuple[tuple[str, str | None], ...] = ()

    def operand_for_input(self, k: int) -> Operand | None:
        if k < len(self.inputs):
            return self.inputs[k]
        if self.inputs and self.inputs[-1].repeated:
            return self.inputs[-1]
        return None

    def operand_for_output(self, k: int) -> Operand | None:
        if k < len(self.outputs):
            return self.outputs[k]
        if self.outputs and self.outputs[-1].repeated:
            return self.outputs[-1]
        return None

    def matches(self, inputs: list[Tensor | None], outputs: list[Tensor]) -> bool:
        # A repeated last output (SPLIT, UNPACK) matches one or more outputs.
        if len(outputs) < len(self.outputs):
            return False
        for k, tensor in enumerate(outputs):
            operand = self.operand_for_output(k)
            if operand is None or not operand.accepts(tensor):
                return False
        for k, tensor in enumerate(inputs):
            operand = self.operand_for_input(k)
            if operand is None or not operand.accepts(tensor):
                return False
        return all(o.optional or o.repeated for o in self.inputs[len(inputs):])

    def signature(self) -> str:
        def part(operands):
            return ", ".join(f"{o.role}:{'|'.join(o.dtypes)}" + ("*" if o.repeated else "")
                             + ("?" if o.optional else "") for o in operands)
        return f"({part(self.inputs)}) -> ({part(self.outputs)})"


@dataclass(frozen=True)
class Axis:
    """An axis argument (one value or a list of them) an operator takes, declared in
    OpLowering.axes: OpLowering.check_axes refuses a value outside [-(rank + extra), rank + extra) of
    the tensor `of` before any of the module's own rules (validate, fold) read it. `source` is
    "input <k>" (a constant tensor's values; not constant: the variant's rules refuse it) or
    "option <key>"; `of` is "input <k>" or "output <k>"; `extra` 1 lets it name the position past the
    last (a new axis: EXPAND_DIMS, PACK). The module's own rules stay the exact ones (e.g. distinct axes)."""

    source: str
    of: str = "input 0"
    extra: int = 0

    def values(self, ctx: "OpContext") -> list[int] | None:
        kind, _, name = self.source.partition(" ")
        if kind == "option":
            value = ctx.options(name)
            if value is None:
                return None
            values = value if isinstance(value, (list, tuple)) else [value]
        else:
            tensor = ctx.inp(int(name))
            if tensor is None or not tensor.is_constant or np.asarray(tensor.data).dtype.kind not in "iu":
                return None  # not a constant integer: the variant's operand rules refuse it
            values = np.asarray(tensor.data).reshape(-1).tolist()
        return [int(v) for v in values if isinstance(v, (int, np.integer))]

    def bounding_tensor(self, ctx: "OpContext") -> Tensor | None:
        kind, _, k = self.of.partition(" ")
        k = int(k)
        if kind == "input":
            return ctx.inp(k)
        return ctx.out(k) if k < len(ctx.op.outputs) else None


@dataclass
class ConstArray:
    """A constant the compiler derives at conversion time (multipliers, weight sums, LUTs)."""

    suffix: str
    ctype: str
    values: np.ndarray
    comment: str = ""


@dataclass(frozen=True)
class StateBuffer:
    """State an operator keeps across <prefix>_model_run calls that is no model tensor (TFLM kernels'
    persistent buffers, e.g. a running noise estimate): `bytes` in the persistent arena, zero bytes
    after <prefix>_model_init and <prefix>_model_reset. The template addresses it as
    `state("<suffix>", "<C type>")`."""

    suffix: str
    bytes: int
    comment: str = ""


@dataclass(frozen=True)
class RunTimeRows:
    """An output LiteRT resizes at run time to a count of rows: the module gives it `shape` (room for the
    most rows the operator can write) and every element of the rows past the count is `fill`."""

    shape: tuple[int, ...]
    fill: int


@dataclass
class Lowered:
    """What an operator lowers to; codegen and the planner follow it, never re-decide it."""

    template: str | None = None  # under ops/templates; None: the variant's (aliases have none)
    entry: str | None = None  # the kernel function the plan names (kernel.entry)
    candidates: list[str] | None = None  # entries whose rules matched, in precedence order
    scratch_bytes: int = 0  # ctx->buf bytes in the scratch arena while this operator runs
    macs: int = 0
    params: dict[str, Any] = field(default_factory=dict)
    constants: list[ConstArray] = field(default_factory=list)
    alias: bool = False  # output 0 is the same bytes as input 0 (RESHAPE-like)
    requantization: str | None = None
    fixed: dict[str, Any] = field(default_factory=dict)
    weight_sums: str | None = None  # how MVE weight sums are supplied: "precomputed" / None
    # Every entry in `candidates` the operator could call, with the ctx->buf bytes it needs here;
    # helia_aot.lowering.kernel_choice weighs them and re-lowers with OpContext.entry_override.
    candidate_scratch: dict[str, int] | None = None
    state: list[StateBuffer] = field(default_factory=list)  # internal state in the persistent arena


class OpContext:
    """What an operator module sees: its operator, the graph's tensors, target, kernel library,
    knobs, and (once selected) its variant."""

    def __init__(self, graph: Graph, op: Operator, op_id: str, target: Target, kernels: KernelLibrary,
                 optimization, variant: Variant | None = None, attributes: dict | None = None):
        self.graph = graph
        self.op = op
        self.op_id = op_id
        self.target = target
        self.kernels = kernels
        self.optimization = optimization  # the model's knobs with this operator's `operators` rules applied
        self.variant = variant
        self.attributes = attributes or {}  # set by `operators` rules, checked against OpLowering.attributes
        self.entry_override: str | None = None  # the entry kernel_choice chose, one of the candidates

    def with_variant(self, variant: Variant) -> "OpContext":
        ctx = OpContext(self.graph, self.op, self.op_id, self.target, self.kernels, self.optimization, variant,
                        self.attributes)
        ctx.entry_override = self.entry_override
        return ctx

    def with_entry(self, entry: str) -> "OpContext":
        ctx = self.with_variant(self.variant)
        ctx.entry_override = entry
        return ctx

    def attribute(self, name: str):
        """An attribute's value: the one an `operators` rule set, else the module's default (the first
        allowed value it declares)."""
        return self.attributes.get(name, type(ops_module(self.op.op_type)).attributes[name][0])

    def options(self, key: str, default=None):
        return self.op.options.get(key, default)

    def inp(self, k: int) -> Tensor | None:
        if k >= len(self.op.inputs) or self.op.inputs[k] < 0:
            return None
        return self.graph.tensors[self.op.inputs[k]]

    def inputs(self) -> list[Tensor | None]:
        return [self.inp(k) for k in range(len(self.op.inputs))]

    def out(self, k: int = 0) -> Tensor:
        return self.graph.tensors[self.op.outputs[k]]

    def outputs(self) -> list[Tensor]:
        return [self.out(k) for k in range(len(self.op.outputs))]

    def where(self) -> str:
        return f"operator {self.op_id} ({self.op.op_type}, index {self.op.index})"

    def error(self, rule: "str | Rule", tensor: Tensor | None = None, hint: str = "",
              detail: str = "") -> UnsupportedModelError:
        """The refusal of `rule`: a declared Rule (its text, or `detail` with the values at fault, and its
        source, so the user reads whether a reference refuses it too), or a rule's text."""
        where = self.where()
        if tensor is not None:
            where += f", tensor '{tensor.name}'"
        if isinstance(rule, Rule):
            rule = f"{detail or rule.text} ({rule.source.tag})"
        return UnsupportedModelError(f"{where}: {rule}",
                                     hint or "Re-export the model so the operator meets this rule, or "
                                             "replace the operator")

    def library_entry(self, entry: str) -> str | None:
        """What this operator calls for the variant's `entry` on the selected kernel library: the entry
        itself where the library provides it, else the variant's declared fallback (an entry the library
        provides, or None: the variant's inline C)."""
        if self.kernels.provides(entry):
            return entry
        fallbacks = dict(self.variant.fallbacks) if self.variant is not None else {}
        if entry in fallbacks and (fallbacks[entry] is None or self.kernels.provides(fallbacks[entry])):
            return fallbacks[entry]
        raise self.missing_entry(entry)

    def missing_entry(self, entry: str) -> UnsupportedModelError:
        variant = f"{self.variant.name} " if self.variant is not None else ""
        return UnsupportedModelError(
            f"{self.where()}: {variant}calls {entry}, which {self.kernels.description} does not provide",
            "Convert with kernel_library portable (helia-aot's portable kernels provide every entry), or export "
            "this operator in another precision")

    def kernel_knob(self) -> str:
        """Resolve optimization.kernel: auto picks the specialized entries."""
        knob = self.optimization.kernel
        return "specialized" if knob == "auto" else knob


def _dtype_list(tensors) -> str:
    return ", ".join(t.dtype if t is not None else "none" for t in tensors)


class OpLowering:
    """Base class of an operator module. Subclasses set op_types and variants, and implement
    validate() (semantic rules) and each variant's lower method; fold() when the operator can run
    at conversion time."""

    op_types: ClassVar[tuple[str, ...]] = ()
    variants: ClassVar[tuple[Variant, ...]] = ()
    # The schema's BuiltinOptions member the operator's options come in (None: it has none), or one per
    # op type when the module lowers several. The verifier accepts that table or no table at all.
    options_table: ClassVar[str | None | dict[str, str | None]] = None
    # True for an operator that keeps state across <prefix>_model_run calls in variable tensors
    # (LiteRT `isVariable`: LSTM and SVDF state, resource variables). Only such an operator may read
    # a variable tensor (the verifier refuses it elsewhere). Its lower() passes a variable input as
    # `t.index` like any activation and its template takes the address the same way, `tensor(i)`:
    # the emitter points it into the persistent arena, which survives runs and which
    # <prefix>_model_reset restores (int8: the zero point, as LiteRT resets; otherwise zeros).
    keeps_state: ClassVar[bool] = False
    # Attributes an `operators` rule may set on this operator type: name -> allowed values, the first
    # being the default. lower() reads them with ctx.attribute(name); the plan's `fixed` records what
    # they chose.
    attributes: ClassVar[dict[str, tuple]] = {}
    # The real range (low, high; +-inf for an open side) of an operator that only clamps its input
    # (RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1): its integer variants clamp to it in output codes, and
    # the fold_clamp rewrite reads it to move the clamp into the producer. None for every other operator.
    clamp_bounds: ClassVar[tuple[float, float] | None] = None

    # The axis arguments the operator takes (options or constant inputs), range-checked by check_axes
    # for every operator before its own rules run; tests/unit/test_hostile_axes.py walks the registry so
    # an operator whose schema options or operands name an axis cannot leave it undeclared.
    axes: ClassVar[tuple[Axis, ...]] = ()

    def options_table_for(self, op_type: str) -> str | None:
        table = self.options_table
        return table[op_type] if isinstance(table, dict) else table

    def select(self, ctx: OpContext) -> Variant:
        """The one variant whose dtype signature matches the operator's tensors."""
        inputs, outputs = ctx.inputs(), ctx.outputs()
        found = [v for v in self.variants if v.matches(inputs, outputs)]
        if len(found) != 1:
            listed = "; ".join(f"{v.name} {v.signature()}" for v in self.variants)
            what = "match no variant" if not found else f"match {len(found)} variants"
            raise UnsupportedModelError(
                f"{ctx.where()}: dtypes (inputs {_dtype_list(inputs)}; outputs {_dtype_list(outputs)}) {what} "
                f"(variants: {listed})",
                "Quantize the model to a supported precision (see `helia-aot operators`)")
        return found[0]

    def check_target(self, ctx: OpContext) -> None:
        """The platform gates, one rule each for every operator: an operator with float32 or float16
        tensors (a float model, a hybrid one, or the float edge of an integer one) needs a core with an
        FPU, since software floating point is never used silently; a variant that computes in half
        precision needs a target that supports FP16 (the catalog shows which variants do)."""
        target = ctx.target
        if not target.supports_float:
            floats = sorted({t.dtype for t in [*ctx.inputs(), *ctx.outputs()]
                             if t is not None and t.dtype in ("float32", "float16")})
            if floats:
                raise ctx.error(FPU_RULE, detail=(
                    f"{' and '.join(floats)} tensors need a core with a floating-point unit (capability fpu) and "
                    f"helia-aot does not fall back to software floating point; target '{target.name}' is a "
                    f"{target.cpu} (capabilities: {', '.join(target.capabilities) or 'none'})"),
                    hint="Quantize the model to int8 or int16 with integer input and output, or convert for a "
                         "target with an FPU (`helia-aot targets` lists them)")
        if ctx.variant.requires_fp16 and not target.supports_fp16:
            raise UnsupportedModelError(
                f"{ctx.where()}: native float16 ({ctx.variant.name}) needs a core with half-precision vector "
                f"floating point (Armv8.1-M MVE-FP, capability fp16); target '{target.name}' is a {target.cpu} "
                f"(capabilities: {', '.join(target.capabilities) or 'none'})",
                "Convert for an FP16 target such as corstone300 or apollo510_evb, or export this layer in "
                "float32 or int8")

    def check_operands(self, ctx: OpContext) -> None:
        """The operand rules the selected variant declares."""
        variant = ctx.variant
        checks = [(variant.operand_for_input(k), t) for k, t in enumerate(ctx.inputs())]
        checks += [(variant.operand_for_output(k), t) for k, t in enumerate(ctx.outputs())]
        for operand, tensor in checks:
            if tensor is None:
                continue
            role = operand.role
            sources = dict(operand.rule_sources())

            def cited(text: str, word: str) -> str:
                # Every operand refusal ends with where its rule comes from, as declared rules' refusals do.
                source = sources.get(word)
                return text + (f" ({source.tag})" if source else "")

            quantized_word = next((w for w in sources if "quantized" in w), None)
            if operand.constant and not tensor.is_constant:
                raise ctx.error(cited(f"{role} must be a constant tensor", "constant"), tensor,
                                "Freeze the value into the model (static shapes, constant weights)")
            if operand.quantized:
                if tensor.quant is None:
                    raise ctx.error(cited(f"{role} ({tensor.dtype}) has no quantization parameters", quantized_word),
                                    tensor, "Export with full-integer quantization so every integer tensor has a "
                                    "scale and zero point")
                quant = tensor.quant
                if quant.per_channel and operand.per_channel_axis is None:
                    raise ctx.error(cited(f"{role} must be quantized per tensor, it has {len(quant.scales)} scales",
                                          quantized_word), tensor)
                if quant.per_channel and (quant.axis != operand.per_channel_axis
                                          or len(quant.scales) != tensor.shape[quant.axis]):
                    raise ctx.error(cited(f"per-channel {role} scales must run along axis "
                                          f"{operand.per_channel_axis} (one per channel)", quantized_word), tensor)
                if operand.symmetric and any(z != 0 for z in quant.zero_points):
                    raise ctx.error(cited(f"{role} zero point must be 0 for {variant.name} (has "
                                          f"{quant.zero_points[0] if len(set(quant.zero_points)) == 1 else 'mixed'})",
                                          "zero point 0"),
                                    tensor, "Re-quantize with symmetric quantization for this tensor")

    def check_axes(self, ctx: OpContext) -> None:
        """Every declared axis argument within the rank of the tensor it indexes (lowering.lower runs it
        before validate and fold: an axis of 2^31 - 1 never reaches a module's arithmetic)."""
        for axis in self.axes:
            values = axis.values(ctx)
            tensor = axis.bounding_tensor(ctx)
            if values is None or tensor is None:
                continue
            rank = len(tensor.shape) + axis.extra
            for value in values:
                if not -rank <= value < rank:
                    holder = ctx.inp(int(axis.source.split()[1])) if axis.source.startswith("input") else tensor
                    raise ctx.error(AXIS_RANGE_RULE, holder,
                                    "Re-export the model, or check that the file is not damaged",
                                    detail=f"axis {value} is outside [-{rank}, {rank}) for its {axis.of} of rank "
                                    f"{len(tensor.shape)}" + (" plus the new axis" if axis.extra else "")
                                    + f" ({axis.source})")

    def validate(self, ctx: OpContext) -> None:
        """Semantic rules (shapes, options, scales) of the selected variant."""

    def lower(self, ctx: OpContext) -> Lowered:  # pragma: no cover - abstract
        raise NotImplementedError

    def lower_variant(self, ctx: OpContext) -> Lowered:
        lowered = getattr(self, ctx.variant.lower)(ctx)
        if lowered.template is None and not lowered.alias:
            lowered = replace(lowered, template=ctx.variant.template)
        # Whatever a module decided, an entry the library lacks is never called (nor offered to kernel choice).
        for entry in [lowered.entry or "", *(lowered.candidates or ())]:
            if entry and not ctx.kernels.provides(entry):
                raise ctx.missing_entry(entry)
        return lowered

    def infer_shapes(self, ctx: OpContext) -> list[tuple[int, ...]] | None:
        """Output shapes computed from inputs and options; None when the model's are trusted."""
        return None

    def fold(self, ctx: OpContext) -> list[np.ndarray] | None:
        """Compute outputs at conversion time when every input is constant; None if not foldable."""
        return None

    def run_time_rows(self, graph: Graph, op: Operator) -> "RunTimeRows | None":
        """For an operator whose output 0 holds a run-time number of rows (LiteRT resizes its output to them,
        whatever the model declares): the shape the module gives it and what fills the rows past the count.
        None: the operator writes its output whole, in the shape the model declares."""
        return None

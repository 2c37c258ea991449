# SPDX-License-Identifier: Apache-2.0
"""Data model of <prefix>_plan.json (every choice) and <prefix>_report.json (facts about it).

The JSON schemas are generated from these dataclasses (helia_aot.record.schema), so the files and
their schemas cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from helia_aot.ir.dtypes import DTYPES
from helia_aot.record.schema import json_schema

DTYPE_NAMES = tuple(DTYPES)

SCHEMA_VERSION = 1


def doc(text: str):
    return field(metadata={"doc": text})


@dataclass
class Generator:
    helia_aot: str = doc("helia_aot release that wrote the file")
    cmsis_nn_required: str = doc("oldest ns-cmsis-nn release the module builds against")


@dataclass
class ModelInfo:
    file: str | None = doc("model file name (no directory), null for in-memory bytes")
    sha256: str = doc("sha256 of the model bytes")
    subgraph: str = doc("name of the converted subgraph")
    subgraph_index: int = doc("index of the converted subgraph")


@dataclass
class TensorQuantization:
    """Affine quantization of a model input or output: real = scale * (q - zero_point)."""

    scale: list[float] = doc("one scale per tensor, or one per channel along axis")
    zero_point: list[int] = doc("as many as scale")
    axis: int | None = doc("the channel dimension of per-channel quantization; null: per tensor")


@dataclass
class InterfaceTensor:
    """A model input or output as firmware feeds or reads it (<prefix>_model.h declares the same facts)."""

    index: int = doc("position among the module's inputs (outputs): <prefix>_model_input(ctx, index)")
    name: str = doc("the tensor's name in the model")
    tensor: int = doc("the tensor's index in the model's subgraph")
    dtype: Literal[DTYPE_NAMES]
    shape: list[int]
    elements: int = doc("product of shape")
    bytes: int = doc("elements times the dtype's size: <prefix>_model_input_bytes(index)")
    quantization: TensorQuantization | None = doc("null: the model gives the tensor no quantization")
    row_padding: int | None = doc(
        "null: every run writes the whole tensor. A value: an output that holds a run-time number of rows (WHERE's "
        "coordinates of a condition known only at run time, where LiteRT resizes the output to them), and every "
        "element of the rows after them holds this value")


@dataclass
class Interface:
    """The module's inputs and outputs: derived from the model, the same in every conversion of it."""

    api_version: int = doc("<PREFIX>_API_VERSION of the module's C API")
    inputs: list[InterfaceTensor]
    outputs: list[InterfaceTensor]


@dataclass
class Platform:
    name: str
    cpu: str
    capabilities: list[str]
    supports_fp16: bool
    kernel_build: Literal["mve", "dsp", "plain"] = doc("ns-cmsis-nn code path the target's build compiles")


@dataclass
class KernelLibraryInfo:
    name: Literal["ns_cmsis_nn", "portable"] = doc("the kernel library the module is planned for")
    version: str = doc("ns-cmsis-nn API release the library provides")
    build: Literal["mve", "dsp", "plain"] = doc("whose entry dispatch and scratch sizes the plan follows")
    scratch: bool = doc("false: the library needs no ctx->buf, every scratch size is 0")
    weight_sums: Literal["precomputed"] | None = doc("how the library's Helium kernels get weight sums")


@dataclass
class Optimization:
    goal: Literal["latency", "balanced", "size", "accuracy"]
    allow_approximate: bool
    kernel: Literal["auto", "specialized", "generic"]
    knobs: dict[str, str] = doc("reserved for model-level choices; empty today")
    rewrites: bool = doc("optimization.rewrites: whether the whole-graph rewrites ran")


@dataclass
class OperatorRule:
    """The configuration's `operators` entry that set a knob: its position and what it selects by."""

    position: int
    type: str | None
    id: str | None


@dataclass
class KnobSource:
    kind: Literal["operator", "model", "default"]
    rule: OperatorRule | None = doc("for kind operator, the winning operators entry; null otherwise")


@dataclass
class Knob:
    value: str
    requested: str
    resolved_by: Literal["explicit", "auto_table"]
    approximate: bool
    source: KnobSource


# -- kernel choice (helia_aot.lowering.kernel_choice) --

@dataclass
class KernelOption:
    entry: str
    scratch_bytes: int = doc("ctx->buf bytes this entry needs here")
    estimated_instructions: int | None = doc("from the cost table; null where the entry was not measured")


@dataclass
class KernelChoice:
    """The entries an operator could call directly, each with its cost, and why one was chosen."""

    options: list[KernelOption] = doc("entries the operator may call directly (their argument rules hold)")
    chosen: str
    reason: Literal["cost_model", "optimization.kernel"] = doc(
        "cost_model: optimization.goal over the whole graph; optimization.kernel: forced specialized or generic")


@dataclass
class TradeEnd:
    scratch_arena_bytes: int
    estimated_instructions: int = doc("sum of the cost table's estimates over the operators it covers")


@dataclass
class KernelChoiceSummary:
    """Both ends of the arena / instructions trade the kernel choice spans, and where the plan is."""

    goal: Literal["latency", "balanced", "size", "accuracy"]
    cost_table: str | None = doc("helia_aot/library/cost_tables/<name>.json the estimates come from")
    cost_table_command: str | None = doc("the command that measured the table")
    cost_table_date: str | None
    arena_budget_bytes: int | None = doc("largest arena the goal allows (null: any)")
    estimated_operators: int = doc("operators whose entry the cost table covers (the estimates' scope)")
    chosen: TradeEnd
    size: TradeEnd = doc("goal size: the smallest arena, fewest instructions there")
    latency: TradeEnd = doc("goal latency: the fewest instructions")

# -- end of kernel choice --


@dataclass
class Kernel:
    entry: str | None = doc("ns-cmsis-nn function the operator calls; null for aliases and inline C")
    provider: str = doc("opaque name of the planning rules that chose the entry")
    candidates: list[str] | None = doc("entries whose rules match, in precedence order")
    requantization: Literal["rshift_only", "general"] | None
    local_scratch_bytes: int | None = doc("ctx->buf bytes in the scratch arena while the operator runs")
    weight_sums: Literal["precomputed"] | None = doc("how weight sums (bias + input offset x filter sums) reach the "
                                                      "kernel: MVE builds and our DSP 1x1 kernel")
    choice: KernelChoice | None = doc("the entries weighed by cost and scratch, and the one chosen; null "
                                      "where there was no choice")


# The vocabulary of PlanOperator.fixed: what an operator's lowering settled that no knob chose. Key ->
# (meaning, the values it takes; None: a short free-text description). Tools read the closed values as
# words, so they are spelled exactly as here.
FIXED_VOCABULARY: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "implementation": ("how an operator without a kernel entry computes: generated C (inline), a table "
                       "lookup (lut; lut interpolated: int16 tables interpolated between entries), a value "
                       "fixed at conversion (constant), or a copy of a constant converted at conversion",
                       ("inline", "lut", "lut interpolated", "constant", "copy of the converted constant")),
    "accumulator": ("the type the inline C sums in", ("int32", "int64", "float32")),
    "input_quantization": ("how the inline C reads the input's zero point: symmetric (none) or asymmetric",
                           ("symmetric", "asymmetric")),
    "comparison": ("int8 / int16 comparisons: inputs rescaled as LiteRT's quantized comparison, or the raw codes "
                   "compared", ("rescaled", "raw_codes")),
    "division": ("MEAN's 1 / count, folded into the requantization multiplier", ("folded_into_multiplier",)),
    "approximate": ("GELU's tanh approximation (true) or the exact erf form (false)", ("true", "false")),
    "compat_variant": ("HARD_SWISH's arithmetic: TFLite's", ("tflite",)),
    "use_lut": ("HARD_SWISH: computed, not looked up", ("false",)),
    "lut": ("RSQRT int16: the table the kernel interpolates", ("per operator (LiteRT's table)",)),
    "function": ("the C function or expression an inline float operator applies per element", None),
    "fft": ("SignalRfft: the FFT's algorithm and factorization", None),
    "state": ("what the operator keeps across runs, and where", None),
    "why": ("why the operator is inline C where a kernel entry exists", None),
    "padding_offsets": ("TRANSPOSE_CONV float: why the call passes the kernel no padding offsets", None),
}


@dataclass
class PlanOperator:
    id: str
    id_source: Literal["output_name", "fallback"]
    index: int = doc("position in execution order")
    node_id: str = doc("opaque node id: n<model operator index>")
    op_type: str
    source_index: int = doc("operator index in the model's subgraph")
    variant: str = doc("the operator's precision path (see `helia-aot operators`)")
    inputs: list[str]
    outputs: list[str]
    alias_of: str | None = doc("for RESHAPE-like operators, the tensor whose bytes the output reuses")
    kernel: Kernel
    knobs: dict[str, Knob]
    fixed: dict[str, str] = doc("what the lowering settled that no knob chose; keys and values from "
                                "helia_aot.record.plan_model.FIXED_VOCABULARY")
    attributes: dict[str, str | int | bool] = doc("attributes the configuration's operators entries set, as given")


@dataclass
class PlanConstant:
    id: str = doc("tensor name, or <operator id>/<what> for constants derived at conversion")
    storage_id: str
    symbol: str = doc("C symbol of the array")
    kind: Literal["tensor", "derived"]
    requested: Literal["direct", "pin", "stream"] | None = doc("the residency the merged memory.tensors rules ask "
                                                               "for; null: no rule matched")
    residency: Literal["direct", "pin", "stream"] = doc("the residency the constant got: direct (read where "
                                                        "stored), pin (read from a staged copy "
                                                        "<prefix>_model_init fills) or stream (copied into the "
                                                        "stream pool by a schedule unit)")
    memory: str = doc("where the bytes are stored")
    destination_memory: str | None = doc("pin: the memory of the staged copy the kernels read")
    bytes: int
    alignment: int = doc("the alignment the layout pads the constant to")
    unit: int | None = doc("stream: the schedule unit copying it")
    pool_offset: int | None = doc("stream: its offset in the stream pool")


@dataclass
class PlanBuffer:
    name: str
    kind: Literal["tensor", "scratch"]
    offset: int
    bytes: int
    first: int = doc("first operator position (inclusive) the bytes must live")
    last: int = doc("last operator position (inclusive)")
    tensors: list[str] = doc("tensor names sharing the bytes (aliases included)")


@dataclass
class PlanPersistentBuffer:
    name: str
    tensor: str = doc("the variable tensor (operator state) the bytes hold; empty for an operator's internal "
                      "state (not a model tensor), whose name is <operator id>/<state name>")
    offset: int = doc("offset in the persistent arena")
    bytes: int
    initial: Literal["zero", "zero_point", "data"] = doc(
        "what <prefix>_model_reset writes: zero bytes, the int8 zero point in every byte (LiteRT's reset "
        "value), or the tensor's initial values (a resource variable's initialisation)")


@dataclass
class PlanArena:
    memory: str
    kind: Literal["scratch", "activation"] = doc("scratch: the scratch arena (activations, inputs, outputs and "
                                                 "kernel scratch); activation: activations memory.tensors rules "
                                                 "put in another memory")
    symbol: str = doc("C symbol of the array (scratch: <prefix>_arena or the caller's arena)")
    bytes: int
    lower_bound_bytes: int = doc("largest sum of the arena's buffers live at one step")
    strategy: str
    buffers: list[PlanBuffer] = doc("for kind activation; the scratch arena's are memory.buffers")


@dataclass
class MemoryPlan:
    scratch_memory: str
    constant_memory: str
    arena: Literal["static", "caller"]
    arena_alignment: int
    scratch_arena_bytes: int
    lower_bound_bytes: int
    strategy: str = doc("the greedy ordering that gave the smallest arena")
    buffers: list[PlanBuffer]
    persistent_memory: str = doc("memory of the persistent arena (state kept across runs)")
    persistent_bytes: int = doc("bytes of the persistent arena; 0 for a stateless model")
    persistent_buffers: list[PlanPersistentBuffer] = doc("variable tensors and operators' internal state in the "
                                                         "persistent arena")
    arenas: list[PlanArena] = doc("every activation arena, one per memory; the first is the scratch arena")


@dataclass
class SchedulePool:
    memory: str
    bytes: int
    alignment: int


@dataclass
class ScheduleUnit:
    id: int = doc("position in the list, which is issue order")
    tensors: list[str] = doc("the constants the unit copies (tensors[].storage_id), in tensors[] order")
    pool_offset: int = doc("offset of the unit's span in the pool, a multiple of its span alignment")
    issue_after: str | None = doc("operators[].id after whose run the copy is issued; null: the start of the run")
    engine: Literal["cpu", "dma"] = doc("cpu: the module copies with memcpy; dma: it calls "
                                        "<prefix>_stream_issue/_wait, which a firmware provides")
    bytes: int = doc("derived: the span's size (each constant at the next multiple of its alignment)")
    source_memory: str = doc("derived: the memory the unit's constants are stored in")
    source_offset: int = doc("derived: the span's offset in that memory's stream arena")
    wait_before: str = doc("derived: operators[].id of the first operator reading a constant of the unit")
    last_reader: str = doc("derived: operators[].id of the last operator reading a constant of the unit")


@dataclass
class Schedule:
    source: Literal["none", "compiler", "plan"] = doc("compiler: computed by this conversion; plan: read from "
                                                      "optimization.plan; none: nothing streams")
    pool: SchedulePool | None = doc("the stream pool, present whenever memory.stream_pool is configured")
    units: list[ScheduleUnit]


@dataclass
class PlanRewrite:
    """One whole-graph rewrite that fired (helia_aot.lowering.rewrites); outputs are unchanged bit for bit."""

    rewrite: Literal["elide_copy", "fold_pad", "fold_clamp", "in_place"] = doc(
        "elide_copy: an identity QUANTIZE / PAD removed; fold_pad: a PAD became its reader's SAME padding; "
        "fold_clamp: a RELU / RELU6 / RELU_N1_TO_1 / RELU_0_TO_1 / MINIMUM / MAXIMUM clamp became its "
        "producer's activation range; in_place: an element-wise step writes over an input that dies there "
        "(the planner keeps it only when the arena shrinks)")
    removed: list[str] = doc("ids of the removed operators (as they would be named without the rewrites)")
    into: str | None = doc("id (in operators) of the operator that absorbed the work (in_place: the step "
                           "computed in place); null for elide_copy")
    detail: str = doc("what was folded, in words")


@dataclass
class PlanBand:
    """A tensor of a patch chain that only exists a band at a time."""

    tensor: str
    rows: list[list[int]] = doc("per patch, the [first, end) rows of the tensor the band holds")
    computed: list[list[int]] = doc("per patch, the [first, end) rows its producer computes (recompute: the rows "
                                    "held; cache: the rows no earlier patch computed, the held rows before them "
                                    "kept from the previous patch; first == end: the producer is not called)")
    band_rows: int = doc("rows of the largest band (its buffer's height)")
    bytes: int = doc("bytes of the band buffer in the scratch arena")
    halo_rows: int = doc("rows computed more than once over the patches (halos recomputed; 0 when cached)")


@dataclass
class PlanPatchChain:
    """Operators run one band of output rows at a time (patch-based execution)."""

    operators: list[str] = doc("operators[].id of the chain, in execution order")
    output: str = doc("the tensor the chain fills whole, patch by patch")
    inputs: list[str] = doc("tensors the chain reads whole")
    patches: int = doc("bands of the output rows (the patch grid: patches x 1)")
    band_rows: int = doc("output rows per patch (the last may have fewer)")
    halo: Literal["recompute", "cache"] = doc(
        "recompute: halo rows are computed again on each patch; cache: every row is computed once, and the rows "
        "a band keeps for the next patch move to the top of its buffer at that patch's start")
    reason: Literal["goal size", "goal balanced", "memory.constraints"] = doc(
        "what took the chain: optimization.goal, or a memory.constraints budget the layer-by-layer arena exceeds")
    bands: list[PlanBand]


@dataclass
class Plan:
    """Every choice of one conversion."""

    schema_version: int
    interface: Interface = doc("the module's inputs and outputs; derived from the model (a plan read as input "
                               "may leave it out; a stated one must match)")
    generator: Generator
    model: ModelInfo
    module_prefix: str
    platform: Platform
    kernel_library: KernelLibraryInfo
    optimization: Optimization
    operators: list[PlanOperator]
    tensors: list[PlanConstant]
    memory: MemoryPlan
    schedule: Schedule
    rewrites: list[PlanRewrite] = doc("whole-graph rewrites that fired, in the order they were applied")
    patches: list[PlanPatchChain] = doc("patch-based execution chains the memory planner took (empty: layer by "
                                        "layer)")


@dataclass
class ReportOperator:
    id: str
    index: int
    op_type: str
    entry: str | None
    macs: int
    local_scratch_bytes: int
    constant_bytes: int = doc("bytes of the constants this operator reads")
    input_dtypes: list[str] = doc("dtype of each input tensor (\"\" for an absent optional input)")
    output_dtypes: list[str]


@dataclass
class KernelCall:
    symbol: str
    operator_ids: list[str]


@dataclass
class Arena:
    memory: str
    kind: Literal["scratch", "constant", "persistent", "activation", "staged", "stream_pool", "stream_source"]
    bytes: int


@dataclass
class MemoryHolding:
    what: str = doc("scratch arena, activation arena, persistent arena, constants, staged constants, streamed "
                    "constants (a stream arena) or stream pool")
    bytes: int
    lower_bound_bytes: int | None = doc("arenas of activations: the largest sum of buffers live at one step")


@dataclass
class MemoryUse:
    memory: str
    size: int = doc("bytes of the memory on the target")
    budget: int | None = doc("memory.constraints budget, if any")
    used: int = doc("bytes of everything the module puts there")
    free: int = doc("budget (else size) less used")
    holds: list[MemoryHolding]


@dataclass
class StreamPoolUnit:
    unit: int
    offset: int
    bytes: int
    first: int = doc("first operator position the unit is live (its issue point)")
    last: int = doc("last operator position (its last reader)")
    tensors: list[str]


@dataclass
class StreamPoolReport:
    memory: str
    bytes: int
    alignment: int
    engine: Literal["cpu", "dma"]
    used_bytes: int = doc("highest pool byte a unit uses")
    streamed_bytes: int = doc("bytes of the constants that stream")
    constant_bytes: int = doc("bytes of every constant of the module")
    layout: list[StreamPoolUnit]


@dataclass
class ConstantPlacementFact:
    id: str
    residency: Literal["direct", "pin", "stream"]
    reason: str | None = doc("why a constant whose rules permit stream stays direct")


@dataclass
class TargetMemory:
    name: str
    bytes: int = doc("size of the memory on the target")
    writable: bool


@dataclass
class MemorySummary:
    scratch_arena_bytes: int
    lower_bound_bytes: int
    ratio: float = doc("scratch arena / lower bound")
    peak_operator: str | None = doc("operator id at the step that sets the lower bound")
    constant_bytes: int
    io_in_arena: bool = doc("model inputs and outputs live inside the scratch arena")


@dataclass
class ReportPatchChain:
    """What a patch chain saves and costs."""

    operators: list[str]
    patches: int
    arena_before_bytes: int = doc("scratch arena of the layer-by-layer plan")
    lower_bound_before_bytes: int = doc("its lower bound (largest sum of buffers live at one step)")
    arena_after_bytes: int = doc("scratch arena with the chain run patch by patch")
    lower_bound_after_bytes: int
    chain_macs: int = doc("MACs of the chain's operators, layer by layer")
    halo: Literal["recompute", "cache"] = doc("the chain's halo mode, as in the plan")
    recomputed_macs: int = doc("MACs the halos add (0 when cached)")
    moved_bytes: int = doc("bytes the cache mode moves within band buffers per inference (0 when recomputed)")
    total_macs: int = doc("MACs of the network, layer by layer")
    added_instructions: int | None = doc("instructions the band calls and moves add, estimated by the cost "
                                         "table's fitted models and a per-byte cost of the moves (null: an "
                                         "operator of the chain has no model)")
    total_instructions: int | None = doc("the network's estimated instructions layer by layer, over the "
                                         "operators the cost table covers, as kernel_choice.chosen (null: no "
                                         "table)")


@dataclass
class Report:
    """Facts about a plan; never changes it."""

    schema_version: int
    interface: Interface = doc("the module's inputs and outputs, as in the plan")
    generator: Generator
    model: ModelInfo
    module_prefix: str
    platform: Platform
    kernel_library: KernelLibraryInfo
    operators: list[ReportOperator]
    total_macs: int
    kernel_calls: list[KernelCall]
    unrecorded_operator_ids: list[str]
    arenas: list[Arena]
    memory: MemorySummary
    target_memories: list[TargetMemory] = doc("the target's memories, which the arenas must fit")
    stream_pool: StreamPoolReport | None = doc("the stream pool and its layout; null without memory.stream_pool")
    constants: list[ConstantPlacementFact] = doc("constants whose rules permit stream, and whether they do")
    memory_use: list[MemoryUse] = doc("per target memory: what the module puts there and the bytes left")
    warnings: list[str]
    kernel_choice: KernelChoiceSummary | None = doc("the arena / instructions trade of the kernel choice "
                                                    "(null: no operator had a choice)")
    patches: list[ReportPatchChain] = doc("patch-based execution: arena before and after, recomputed MACs, bytes "
                                          "moved")


def plan_schema() -> dict:
    return json_schema(Plan, "helia_aot plan")


def report_schema() -> dict:
    return json_schema(Report, "helia_aot report")

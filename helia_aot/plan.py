# SPDX-License-Identifier: Apache-2.0
"""Data model of <prefix>_plan.json (every choice) and <prefix>_report.json (facts about it).

The JSON schemas are generated from these dataclasses (helia_aot.schema), so the files and
their schemas cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .schema import json_schema

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


@dataclass
class KnobSource:
    kind: Literal["operator", "model", "default"]


@dataclass
class Knob:
    value: str
    requested: str
    resolved_by: Literal["explicit", "auto_table"]
    approximate: bool
    source: KnobSource


@dataclass
class Kernel:
    entry: str | None = doc("ns-cmsis-nn function the operator calls; null for aliases and inline C")
    provider: str = doc("opaque name of the planning rules that chose the entry")
    candidates: list[str] | None = doc("entries whose rules match, in precedence order")
    requantization: Literal["rshift_only", "general"] | None
    local_scratch_bytes: int | None = doc("ctx->buf bytes in the scratch arena while the operator runs")
    weight_sums: Literal["precomputed"] | None = doc("how MVE weight sums reach the kernel")


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
    fixed: dict[str, str]


@dataclass
class PlanConstant:
    id: str = doc("tensor name, or <operator id>/<what> for constants derived at conversion")
    storage_id: str
    symbol: str = doc("C symbol of the array")
    kind: Literal["tensor", "derived"]
    requested: str | None
    residency: Literal["direct"]
    memory: str
    destination_memory: str | None
    bytes: int
    alignment: int
    unit: int | None
    pool_offset: int | None


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


@dataclass
class Schedule:
    source: Literal["none"]
    units: list[str]


@dataclass
class Plan:
    """Every choice of one conversion."""

    schema_version: int
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
    kind: Literal["scratch", "constant", "persistent"]
    bytes: int


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
class Report:
    """Facts about a plan; never changes it."""

    schema_version: int
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
    warnings: list[str]


def plan_schema() -> dict:
    return json_schema(Plan, "helia_aot plan")


def report_schema() -> dict:
    return json_schema(Report, "helia_aot report")

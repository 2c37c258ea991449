# SPDX-License-Identifier: Apache-2.0
"""The conversion pipeline, top to bottom. Each stage is a function taking and returning values; its
result is a small immutable record. `ConversionOptions` is the user's intent, resolved once and never
replaced: what a stage decides travels in its record.

    options               helia_aot/config/options.py        ConversionOptions
    read the model        read_model                         ModelFile
    front end             helia_aot/frontend/                Graph (resource variables as variable tensors)
    lowering              helia_aot/lowering/                Lowered: verified, prepared graph; steps; kernel choice
    memory and code       helia_aot/memory/, helia_aot/emit/ Placed: layout, operator code, constants, placement,
                                                             patch chain
    plan and report       helia_aot/record/                  Records: plan, report
    module files          helia_aot/emit/                    file name -> text (C, headers, JSON, README.md)
    write OUTDIR          helia_aot/emit/output_dir.py       (whole or not at all)

A plan given as input (optimization.plan) is checked where its facts are made: its lowered sections
after lowering, its memory sections after planning; its schedule is applied by the memory stage.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np

from helia_aot.config import options as options_mod
from helia_aot.config.operator_rules import no_effect_warnings
from helia_aot.config.options import ConversionOptions
from helia_aot.emit import cmake, module as emit_module, output_dir as outdir, readme
from helia_aot.emit.module import ConstantTable, OperatorCode
from helia_aot import user_files
from helia_aot.errors import InvalidConfigError, InvalidModelError
from helia_aot.frontend import litert, resources
from helia_aot.golden import references, test_data
from helia_aot.ir.graph import Graph
from helia_aot.lowering import kernel_choice, lower, verifier
from helia_aot.lowering.lower import Step
from helia_aot.memory import patches, placement
from helia_aot.memory.arena_planner import MemoryLayout
from helia_aot.memory.arenas import check_addressable, placer_for, plan_arenas
from helia_aot.record import plan_reader, plan_writer, report_html
from helia_aot.record.plan_model import InterfaceTensor, KernelChoiceSummary, Plan, Report
from helia_aot.record.schema import to_json


@dataclass(frozen=True)
class MemoryTotals:
    """Bytes the module takes, as <prefix>_model.h and the module's README.md state them."""

    scratch_arena_bytes: int  # <PREFIX>_ARENA_BYTES
    arena_alignment: int  # <PREFIX>_ARENA_ALIGNMENT
    persistent_bytes: int  # <PREFIX>_PERSISTENT_BYTES; 0 for a stateless model
    constant_bytes: int  # read-only data
    stream_pool_bytes: int  # memory.stream_pool; 0 without one


@dataclass
class ConversionResult:
    output_dir: Path
    prefix: str
    plan: dict
    report: dict
    kernel_symbols: list[str]
    files: list[str] = field(default_factory=list)
    seconds: float = 0.0
    # The module's interface (the plan's `interface`): per input and output its name, tensor index,
    # dtype, shape, sizes and quantization (`.quantization.scale`, `.zero_point`, `.axis`; None when
    # the model gives none).
    api_version: int = 0
    inputs: list[InterfaceTensor] = field(default_factory=list)
    outputs: list[InterfaceTensor] = field(default_factory=list)
    memory: MemoryTotals | None = None

    @property
    def operators(self) -> list[dict]:
        return self.plan["operators"]

    @property
    def arena_bytes(self) -> int:
        return self.plan["memory"]["scratch_arena_bytes"]


# --------------------------------------------------------------------------- stage records


@dataclass(frozen=True)
class ModelFile:
    data: bytes
    file_name: str | None  # as the plan records it (None: bytes passed in)
    source: str  # what errors call it
    sha256: str


@dataclass(frozen=True)
class Lowered:
    graph: Graph
    steps: tuple[Step, ...]
    kernel_choice: KernelChoiceSummary | None
    warnings: tuple[str, ...]  # what the verifier repaired, rules that changed nothing


@dataclass(frozen=True)
class Placed:
    layout: MemoryLayout
    code: tuple[OperatorCode, ...]
    constants: ConstantTable
    placement: placement.ConstantPlacement | None  # None without placement rules
    warnings: tuple[str, ...]
    patching: patches.Patching | None = None  # the patch chain the memory planner took (None: layer by layer)


@dataclass(frozen=True)
class Records:
    plan: Plan
    report: Report


# --------------------------------------------------------------------------- stages


def read_model(model) -> ModelFile:
    """The model's bytes, from a path or the bytes themselves."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        data, file_name, source = bytes(model), None, "<bytes>"
    else:
        path = Path(model)
        data = user_files.read_bytes(path, "model file", user_files.MODEL_LIMIT, InvalidModelError,
                                     "Check the path to the .tflite file")
        file_name, source = path.name, str(path)
    return ModelFile(data, file_name, source, hashlib.sha256(data).hexdigest())


def front_end(model: ModelFile, options: ConversionOptions) -> Graph:
    """The subgraph to convert as IR, resource variables resolved into variable tensors."""
    parsed = litert.parse(model.data, model.source)
    return resources.resolve(parsed.graph(options.subgraph), parsed)


def lower_graph(graph: Graph, model: ModelFile, options: ConversionOptions) -> Lowered:
    """Verified and prepared graph, every operator lowered, kernels chosen by cost."""
    graph, repaired = verifier.verify(graph, model.source)
    graph = lower.prepare(graph, options, model.source)
    steps = lower.lower(graph, options)
    steps, choice = kernel_choice.choose(graph, steps, options)
    return Lowered(graph, tuple(steps), choice, (*repaired, *no_effect_warnings(steps)))


def place(lowered: Lowered, options: ConversionOptions, given_schedule=None) -> Placed:
    """Memory layout, operator code and constants under the placement rules; budgets checked.
    `given_schedule`: the stream schedule of a plan read as input."""
    graph, steps = lowered.graph, list(lowered.steps)
    pool = options.placement.stream_pool if options.placement is not None else None
    if given_schedule is not None and given_schedule.units and pool is None:
        raise InvalidConfigError(f"optimization.plan schedule: {len(given_schedule.units)} units, but "
                                 "memory.stream_pool is not configured",
                                 "Configure memory.stream_pool as the conversion that wrote the plan did")
    placer = placer_for(graph, steps, options)
    layout = plan_arenas(graph, steps, options, placer)
    patching = patches.choose(graph, steps, options, layout, placer)
    if patching is not None:
        layout = patching.layout
    code = emit_module.render_operators(graph, steps, layout, options, patching=patching)
    table = emit_module.constant_table(graph, steps, code, options.prefix, layout.persistent)
    check_addressable(layout, table.total_bytes, options)
    placed = None
    if placer is not None:
        placed = placer.place_constants(table, code, given_schedule)
        symbols = placement.expressions(options.prefix, table, placed)
        if symbols:
            code = emit_module.render_operators(graph, steps, layout, options, symbols, patching)
    placement.check_budgets(options, placement.memory_use(options, layout, table, placed, layout.persistent_memory))
    return Placed(layout, tuple(code), table, placed, tuple(placed.warnings) if placed is not None else (),
                  patching)


def record(model: ModelFile, lowered: Lowered, placed: Placed, options: ConversionOptions,
           extra_warnings: tuple[str, ...] = ()) -> Records:
    """The plan (every choice) and the report (why, and what it costs)."""
    graph, steps = lowered.graph, list(lowered.steps)
    plan = plan_writer.build_plan(graph, steps, placed.layout, placed.constants, options, model.file_name,
                                  model.sha256, placed.placement, placed.patching)
    report = plan_writer.build_report(plan, steps, list(placed.code), placed.layout, placed.constants, options,
                                      [*lowered.warnings, *extra_warnings, *placed.warnings], graph,
                                      placed.placement, lowered.kernel_choice, placed.patching)
    return Records(plan, report)


def module_files(model: ModelFile, lowered: Lowered, placed: Placed, records: Records, options: ConversionOptions,
                 with_test_data: bool) -> dict[str, str]:
    """Every file of the module but the golden data: C, headers, plan, report, page, CMake."""
    prefix, steps, code = options.prefix, list(lowered.steps), list(placed.code)
    files = emit_module.module_files(lowered.graph, steps, code, placed.layout, placed.constants, options,
                                     model.sha256, placed.placement, records.plan.interface)
    plan, report = to_json(records.plan), to_json(records.report)
    files[f"{prefix}_plan.json"] = _dump_json(plan)
    files[f"{prefix}_report.json"] = _dump_json(report)
    files[f"{prefix}_report.html"] = report_html.render(plan, report)
    if options.module_type == "cmake":
        files["CMakeLists.txt"] = cmake.cmake_lists(files, steps, code, options, model.sha256, with_test_data)
    files["README.md"] = readme.readme(plan, report, steps, code, options, files)
    return files


def _dump_json(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- the whole conversion


class _StageClock:
    """Calls `on_stage(name, seconds since the previous stage ended)` as each stage ends."""

    def __init__(self, on_stage):
        self.on_stage = on_stage
        self.last = time.perf_counter()

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        if self.on_stage is not None:
            self.on_stage(name, now - self.last)
        self.last = now


def convert(model, output_dir, *, prefix: str | None = None, target: str | None = None,
            kernel_library: str | None = None, config=None, with_test_data: bool = False,
            num_test_samples: int | None = None, seed: int | None = None,
            tolerance: int | None = None, iterations: int | None = None,
            module_type: str | None = None, reference: str | None = None,
            plan: str | os.PathLike | None = None, goal: str | None = None,
            on_stage: Callable[[str, float], None] | None = None) -> ConversionResult:
    """Convert a LiteRT model (path or bytes) into a C module under output_dir.

    `prefix`, `target`, `kernel_library` and `module_type` left at None take the configuration's
    module.prefix, target.name, module.kernel_library and module.type (defaults "model", "host",
    "ns_cmsis_nn", "c"); module_type "cmake" adds a CMakeLists.txt. `reference` (with_test_data) takes
    test.reference ("litert", falling back to "tflm" when LiteRT cannot load the model). `plan` (relative
    to the working directory) takes optimization.plan: a plan to convert by (helia_aot/record/plan_reader.py).
    `goal` takes optimization.goal. `on_stage(name, seconds)` is called as each stage ends (the CLI's
    timings and progress); it only observes.
    """
    start = time.perf_counter()
    stage_done = _StageClock(on_stage)
    options = options_mod.resolve(config, prefix=prefix, target=target, kernels=kernel_library,
                                  num_test_samples=num_test_samples, seed=seed, tolerance=tolerance,
                                  iterations=iterations, module_type=module_type, reference=reference,
                                  plan=plan, goal=goal)
    stage_done("options")
    # Replacing OUTDIR must not delete the user's files or this conversion's inputs: refused before any work.
    inputs = [p for p in (model, config, options.plan, options.target_file) if isinstance(p, (str, os.PathLike))]
    out = outdir.check_destination(output_dir, inputs)
    planned = plan_reader.load(options.plan) if options.plan else None
    model_file = read_model(model)
    stage_done("read the model")

    # Float arithmetic on a damaged model's scales may overflow; every result that matters is checked
    # (the verifier, MultiplierRangeError), so numpy's warnings would only add lines to an error.
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        graph = front_end(model_file, options)
        stage_done("front end")
        lowered = lower_graph(graph, model_file, options)
        stage_done("lowering")
    if planned is not None:
        plan_reader.compare(planned, plan_writer.lowered_facts(lowered.graph, list(lowered.steps), options,
                                                                model_file.file_name, model_file.sha256),
                            plan_reader.LOWERED)
    test = options.test
    reference_note: tuple[str, ...] = ()
    if with_test_data:
        # The golden reference actually used: LiteRT falls back to TFLM on a model it cannot load.
        chosen, note = references.choose(options.test.reference, model_file.data)
        test = replace(options.test, reference=chosen)
        reference_note = (note,) if note is not None else ()
    placed = place(lowered, options, planned.schedule if planned is not None else None)
    stage_done("memory and code")
    records = record(model_file, lowered, placed, options, reference_note)
    stage_done("plan and report")
    if planned is not None:
        plan_reader.compare(planned, to_json(records.plan), plan_reader.PLANNED)
    files = module_files(model_file, lowered, placed, records, options, with_test_data)
    stage_done("module files")

    def golden_data(tmp: Path) -> list[str]:
        return test_data.write_test_data(tmp, model_file.data, lowered.graph, options.prefix, test,
                                         stateful=placed.layout.persistent_bytes > 0)

    out, written = outdir.write(out, files, golden_data if with_test_data else None)
    stage_done("write OUTDIR" + (" (with golden data)" if with_test_data else ""))
    plan_d, report_d = to_json(records.plan), to_json(records.report)
    symbols = sorted({c["symbol"] for c in report_d["kernel_calls"]})
    interface, memory = records.plan.interface, records.plan.memory
    totals = MemoryTotals(scratch_arena_bytes=memory.scratch_arena_bytes, arena_alignment=memory.arena_alignment,
                          persistent_bytes=memory.persistent_bytes, constant_bytes=placed.constants.total_bytes,
                          stream_pool_bytes=records.plan.schedule.pool.bytes if records.plan.schedule.pool else 0)
    return ConversionResult(output_dir=out, prefix=options.prefix, plan=plan_d, report=report_d,
                            kernel_symbols=symbols, files=sorted(written), seconds=time.perf_counter() - start,
                            api_version=interface.api_version, inputs=list(interface.inputs),
                            outputs=list(interface.outputs), memory=totals)

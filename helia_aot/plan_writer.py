# SPDX-License-Identifier: Apache-2.0
"""Plan and report stage: records what the earlier stages decided, and facts about it."""

from __future__ import annotations

from .emit import ConstantTable, OperatorCode
from .ir import Graph
from .lowering import Step
from .options import ConversionOptions
from .plan import (SCHEMA_VERSION, Arena, Generator, Kernel, KernelCall, KernelLibraryInfo, MemoryPlan,
                   MemorySummary, ModelInfo, Optimization, Plan, PlanBuffer, PlanConstant, PlanOperator,
                   PlanPersistentBuffer, Platform, Report, ReportOperator, Schedule, TargetMemory)
from .planner import MemoryLayout
from .version import __version__, ns_cmsis_nn_required_str


def build_plan(graph: Graph, steps: list[Step], layout: MemoryLayout, table: ConstantTable,
               options: ConversionOptions, file_name: str | None, sha256: str) -> Plan:
    target, kernels = options.target, options.kernels
    operators = []
    for s in steps:
        low = s.lowering
        operators.append(PlanOperator(
            id=s.op_id, id_source=s.id_source, index=s.position, node_id=f"n{s.op.index}",
            op_type=s.op.op_type, source_index=s.op.index, variant=s.variant.name,
            inputs=[graph.tensors[t].name if t >= 0 else "" for t in s.op.inputs],
            outputs=[graph.tensors[t].name for t in s.op.outputs],
            alias_of=graph.tensors[s.op.inputs[0]].name if low.alias else None,
            kernel=Kernel(entry=low.entry, provider="helia_aot.ops/v1", candidates=low.candidates,
                          requantization=low.requantization,
                          local_scratch_bytes=None if low.alias else low.scratch_bytes,
                          weight_sums=low.weight_sums),
            knobs={"kernel": s.knob} if s.knob else {},
            fixed={k: str(v) for k, v in sorted(low.fixed.items())},
        ))
    tensors = [PlanConstant(id=c.id, storage_id=c.id, symbol=c.symbol, kind=c.kind, requested=None,
                            residency="direct", memory=target.constant_memory, destination_memory=None,
                            bytes=c.bytes, alignment=c.alignment, unit=None, pool_offset=None)
               for c in table.constants]
    arena = layout.arena
    buffers = []
    for b in sorted(arena.buffers, key=lambda b: (b.offset, b.first, b.name)):
        names = [graph.tensors[t].name for t in layout.members.get(b.tensor, [b.tensor])] if b.kind == "tensor" else []
        buffers.append(PlanBuffer(name=b.name, kind=b.kind, offset=b.offset, bytes=b.size, first=b.first,
                                  last=b.last, tensors=names))
    memory = MemoryPlan(scratch_memory=target.scratch_memory, constant_memory=target.constant_memory,
                        arena=options.arena, arena_alignment=arena.alignment, scratch_arena_bytes=arena.arena_bytes,
                        lower_bound_bytes=arena.lower_bound, strategy=arena.strategy, buffers=buffers,
                        persistent_memory=options.persistent_memory, persistent_bytes=layout.persistent_bytes,
                        persistent_buffers=[PlanPersistentBuffer(name=b.name, tensor=graph.tensors[b.tensor].name
                                                                 if b.tensor is not None else "",
                                                                 offset=b.offset, bytes=b.size, initial=b.initial)
                                            for b in layout.persistent])
    opt = options.optimization
    return Plan(
        schema_version=SCHEMA_VERSION,
        generator=Generator(helia_aot=__version__, cmsis_nn_required=ns_cmsis_nn_required_str()),
        model=ModelInfo(file=file_name, sha256=sha256, subgraph=graph.name, subgraph_index=graph.subgraph_index),
        module_prefix=options.prefix,
        platform=Platform(name=target.name, cpu=target.cpu, capabilities=list(target.capabilities),
                          supports_fp16=target.supports_fp16, kernel_build=target.kernel_build),
        kernel_library=KernelLibraryInfo(name=kernels.name, version=kernels.version, build=kernels.build,
                                         scratch=kernels.needs_scratch,
                                         weight_sums="precomputed" if kernels.wants_weight_sums else None),
        optimization=Optimization(goal=opt.goal, allow_approximate=opt.allow_approximate, kernel=opt.kernel,
                                  knobs={}),
        operators=operators, tensors=tensors, memory=memory, schedule=Schedule(source="none", units=[]))


def build_report(plan: Plan, steps: list[Step], code: list[OperatorCode], layout: MemoryLayout,
                 table: ConstantTable, options: ConversionOptions, model_warnings: list[str] = (),
                 graph: Graph | None = None) -> Report:
    """The report; `model_warnings` (what the verifier repaired) come first among its warnings."""

    def dtypes(indices) -> list[str]:
        if graph is None:
            return []
        return [graph.tensors[t].dtype if t >= 0 else "" for t in indices]

    calls: dict[str, list[str]] = {}
    unrecorded = []
    operators = []
    for s, c in zip(steps, code):
        low = s.lowering
        for symbol in c.calls:
            calls.setdefault(symbol, []).append(s.op_id)
        if not low.alias and low.entry is None and not c.calls:
            unrecorded.append(s.op_id)
        operators.append(ReportOperator(id=s.op_id, index=s.position, op_type=s.op.op_type, entry=low.entry,
                                        macs=int(low.macs), local_scratch_bytes=int(low.scratch_bytes),
                                        constant_bytes=int(table.operator_bytes.get(s.position, 0)),
                                        input_dtypes=dtypes(s.op.inputs), output_dtypes=dtypes(s.op.outputs)))
    target = options.target
    const_bytes = table.total_bytes
    arena, bound = layout.arena.arena_bytes, layout.arena.lower_bound
    warnings = list(model_warnings)
    scratch_memory = target.memory(target.scratch_memory)
    if scratch_memory is not None and arena > scratch_memory.size:
        warnings.append(f"scratch arena {arena} B exceeds {scratch_memory.name} ({scratch_memory.size} B)")
    persistent = layout.persistent_bytes
    persistent_memory = target.memory(options.persistent_memory)
    if persistent and persistent_memory is not None:
        shared = arena if options.persistent_memory == target.scratch_memory else 0
        if persistent + shared > persistent_memory.size:
            warnings.append(f"persistent arena {persistent} B" + (f" and scratch arena {arena} B" if shared else "")
                            + f" exceed {persistent_memory.name} ({persistent_memory.size} B)")
    constant_memory = target.memory(target.constant_memory)
    if constant_memory is not None and const_bytes > constant_memory.size:
        warnings.append(f"constants {const_bytes} B exceed {constant_memory.name} ({constant_memory.size} B)")
    peak = steps[layout.arena.peak_step].op_id if steps else None
    return Report(
        schema_version=SCHEMA_VERSION, generator=plan.generator, model=plan.model,
        module_prefix=options.prefix, platform=plan.platform, kernel_library=plan.kernel_library,
        operators=operators, total_macs=sum(o.macs for o in operators),
        kernel_calls=[KernelCall(symbol=k, operator_ids=v) for k, v in sorted(calls.items())],
        unrecorded_operator_ids=unrecorded,
        arenas=[Arena(memory=target.scratch_memory, kind="scratch", bytes=arena),
                Arena(memory=target.constant_memory, kind="constant", bytes=const_bytes),
                Arena(memory=options.persistent_memory, kind="persistent", bytes=persistent)],
        memory=MemorySummary(scratch_arena_bytes=arena, lower_bound_bytes=bound,
                             ratio=round(arena / bound, 4) if bound else 1.0, peak_operator=peak,
                             constant_bytes=const_bytes, io_in_arena=True),
        target_memories=[TargetMemory(name=m.name, bytes=m.size, writable=m.writable) for m in target.memories],
        warnings=warnings,
    )

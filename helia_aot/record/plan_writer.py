# SPDX-License-Identifier: Apache-2.0
"""Plan and report stage: records what the earlier stages decided, and facts about it."""

from __future__ import annotations

from helia_aot.emit.module import ConstantTable, OperatorCode
from helia_aot.ir.graph import Graph
from helia_aot.lowering.lower import Step
from helia_aot.config.options import ConversionOptions
from helia_aot.emit import symbols
from helia_aot.emit.interface import model_interface
from helia_aot.config.targets import HOST_CPU
from helia_aot.errors import warning
from helia_aot.memory import placement as placement_mod
from helia_aot.record.plan_model import (SCHEMA_VERSION, Arena, ConstantPlacementFact, MemoryHolding, MemoryUse,
                                         Generator, Kernel, KernelCall, KernelLibraryInfo, MemoryPlan, MemorySummary,
                                         ModelInfo, Optimization, Plan, PlanArena, PlanBuffer, PlanConstant,
                                         PlanBand, PlanOperator, PlanPatchChain, PlanPersistentBuffer,
                                         PlanRewrite, Platform, Report, ReportOperator, ReportPatchChain, Schedule, SchedulePool, ScheduleUnit, StreamPoolReport,
                                         StreamPoolUnit, TargetMemory)
from helia_aot.memory.arena_planner import MemoryLayout
from helia_aot.memory.streaming import pool_high_water
from helia_aot.record.schema import to_json
from helia_aot.version import __version__, ns_cmsis_nn_required_str


def _plan_buffers(graph: Graph, layout: MemoryLayout, arena) -> list[PlanBuffer]:
    buffers = []
    for b in sorted(arena.buffers, key=lambda b: (b.offset, b.first, b.name)):
        names = [graph.tensors[t].name for t in layout.members.get(b.tensor, [b.tensor])] if b.kind == "tensor" else []
        buffers.append(PlanBuffer(name=b.name, kind=b.kind, offset=b.offset, bytes=b.size, first=b.first,
                                  last=b.last, tensors=names))
    return buffers


def _schedule(steps: list[Step], options: ConversionOptions, placed) -> Schedule:
    pool = getattr(options, "placement", None) and options.placement.stream_pool
    sched = placed.schedule if placed is not None else None
    ids = {s.position: s.op_id for s in steps}
    units = [ScheduleUnit(id=u.id, tensors=[c.id for c in u.tensors], pool_offset=u.pool_offset,
                          issue_after=ids[u.issue_position] if u.issue_position >= 0 else None, engine=u.engine,
                          bytes=u.bytes, source_memory=u.source_memory, source_offset=u.source_offset,
                          wait_before=ids[u.wait_before], last_reader=ids[u.last_reader])
             for u in (sched.units if sched is not None else [])]
    source = sched.source if sched is not None and sched.source != "compiler" else ("compiler" if units else "none")
    return Schedule(source=source,
                    pool=SchedulePool(memory=pool.memory, bytes=pool.bytes, alignment=pool.alignment) if pool else None,
                    units=units)


def plan_operators(graph: Graph, steps: list[Step]) -> list[PlanOperator]:
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
                          weight_sums=low.weight_sums, choice=s.choice),
            knobs={"kernel": s.knob} if s.knob else {},
            fixed={k: str(v) for k, v in sorted(low.fixed.items())},
            attributes={k: v for k, (v, _) in sorted(s.settings.attributes.items())} if s.settings else {},
        ))
    return operators


def lowered_facts(graph: Graph, steps: list[Step], options: ConversionOptions, file_name: str | None,
                  sha256: str) -> dict:
    """The plan's sections known once the operators are lowered (what a plan read as input is checked
    against before memory planning), as JSON."""
    target, kernels = options.target, options.kernels
    return to_json({
        "interface": model_interface(graph),
        "model": ModelInfo(file=file_name, sha256=sha256, subgraph=graph.name, subgraph_index=graph.subgraph_index),
        "platform": Platform(name=target.name, cpu=target.cpu, capabilities=list(target.capabilities),
                             supports_fp16=target.supports_fp16, kernel_build=target.kernel_build),
        "kernel_library": KernelLibraryInfo(name=kernels.name, version=kernels.version, build=kernels.build,
                                            scratch=kernels.needs_scratch,
                                            weight_sums="precomputed" if kernels.wants_weight_sums else None),
        "operators": plan_operators(graph, steps),
    })


def _patch_chains(graph: Graph, steps: list[Step], layout: MemoryLayout, patching) -> list[PlanPatchChain]:
    """The plan's record of patch-based execution (helia_aot.memory.patches): chain, grid and halos."""
    if patching is None:
        return []
    chain = patching.chain
    ids = {s.position: s.op_id for s in steps}
    producer = {shape.output: i for i, shape in enumerate(chain.shapes)}
    bands = []
    for t, (rows, per_patch) in chain.band_of.items():
        tensor = graph.tensors[t]
        computed = [list(calls[producer[t]].out_rows) for calls in chain.calls]
        bands.append(PlanBand(tensor=tensor.name, rows=[[a, b] for a, b in per_patch], computed=computed,
                              band_rows=rows, bytes=rows * tensor.nbytes // tensor.shape[1],
                              halo_rows=max(sum(b - a for a, b in computed) - tensor.shape[1], 0)))
    return [PlanPatchChain(operators=[ids[p] for p in chain.positions], output=graph.tensors[chain.output].name,
                           inputs=[graph.tensors[t].name for t in chain.external], patches=chain.patches,
                           band_rows=chain.band_rows, halo=chain.halo, reason=patching.reason, bands=bands)]


def build_plan(graph: Graph, steps: list[Step], layout: MemoryLayout, table: ConstantTable,
               options: ConversionOptions, file_name: str | None, sha256: str, placed=None,
               patching=None) -> Plan:
    target, kernels = options.target, options.kernels
    operators = plan_operators(graph, steps)
    tensors = []
    for c in table.constants:
        p = placed.constants[c.symbol] if placed is not None else None
        tensors.append(PlanConstant(
            id=c.id, storage_id=c.id, symbol=c.symbol, kind=c.kind, requested=p.requested if p else None,
            residency=p.residency if p else "direct", memory=p.memory if p else target.constant_memory,
            destination_memory=p.destination if p else None, bytes=c.bytes, alignment=c.alignment,
            unit=p.unit if p else None, pool_offset=p.pool_offset if p else None))
    arena = layout.arena
    buffers = _plan_buffers(graph, layout, arena)
    arenas = [PlanArena(memory=target.scratch_memory, kind="scratch",
                        symbol=symbols.scratch_arena_symbol(options.prefix) if options.arena == "static" else "caller",
                        bytes=arena.arena_bytes, lower_bound_bytes=arena.lower_bound, strategy=arena.strategy,
                        buffers=[])]
    arenas += [PlanArena(memory=m, kind="activation", symbol=symbols.arena_symbol(options.prefix, m),
                         bytes=a.arena_bytes, lower_bound_bytes=a.lower_bound, strategy=a.strategy,
                         buffers=_plan_buffers(graph, layout, a)) for m, a in layout.extra]
    memory = MemoryPlan(scratch_memory=target.scratch_memory, constant_memory=target.constant_memory,
                        arena=options.arena, arena_alignment=arena.alignment, scratch_arena_bytes=arena.arena_bytes,
                        lower_bound_bytes=arena.lower_bound, strategy=arena.strategy, buffers=buffers,
                        persistent_memory=layout.persistent_memory, persistent_bytes=layout.persistent_bytes,
                        persistent_buffers=[PlanPersistentBuffer(name=b.name, tensor=graph.tensors[b.tensor].name
                                                                 if b.tensor is not None else "",
                                                                 offset=b.offset, bytes=b.size, initial=b.initial)
                                            for b in layout.persistent],
                        arenas=arenas)
    opt = options.optimization
    return Plan(
        schema_version=SCHEMA_VERSION,
        interface=model_interface(graph),
        generator=Generator(helia_aot=__version__, cmsis_nn_required=ns_cmsis_nn_required_str()),
        model=ModelInfo(file=file_name, sha256=sha256, subgraph=graph.name, subgraph_index=graph.subgraph_index),
        module_prefix=options.prefix,
        platform=Platform(name=target.name, cpu=target.cpu, capabilities=list(target.capabilities),
                          supports_fp16=target.supports_fp16, kernel_build=target.kernel_build),
        kernel_library=KernelLibraryInfo(name=kernels.name, version=kernels.version, build=kernels.build,
                                         scratch=kernels.needs_scratch,
                                         weight_sums="precomputed" if kernels.wants_weight_sums else None),
        optimization=Optimization(goal=opt.goal, allow_approximate=opt.allow_approximate, kernel=opt.kernel,
                                  knobs={}, rewrites=opt.rewrites),
        operators=operators, tensors=tensors, memory=memory, schedule=_schedule(steps, options, placed),
        rewrites=[PlanRewrite(**r) for r in graph.rewrites] + _in_place_records(graph, steps, layout),
        patches=_patch_chains(graph, steps, layout, patching))


def _arenas(layout: MemoryLayout, table: ConstantTable, options: ConversionOptions, placed) -> list[Arena]:
    """The blocks the module puts in memories (the three of an unplaced module, plus those of placement)."""
    target = options.target
    arenas = [Arena(memory=target.scratch_memory, kind="scratch", bytes=layout.arena.arena_bytes)]
    if placed is None:
        arenas.append(Arena(memory=target.constant_memory, kind="constant", bytes=table.total_bytes))
    arenas.append(Arena(memory=layout.persistent_memory, kind="persistent", bytes=layout.persistent_bytes))
    arenas += [Arena(memory=m, kind="activation", bytes=a.arena_bytes) for m, a in layout.extra]
    if placed is not None:
        kinds = {"constants": "constant", "staged constants": "staged", "stream pool": "stream_pool",
                 "streamed constants": "stream_source"}
        use = placement_mod.memory_use(options, layout, table, placed, layout.persistent_memory)
        arenas += [Arena(memory=m, kind=kinds[what], bytes=n) for m, parts in use.items() for what, n in parts
                   if what in kinds]
    return arenas


def _memory_use(layout: MemoryLayout, table: ConstantTable, options: ConversionOptions, placed) -> list[MemoryUse]:
    """Per target memory: what the module puts there, against its size or budget."""
    use = placement_mod.memory_use(options, layout, table, placed, layout.persistent_memory)
    budgets = dict(options.placement.constraints) if getattr(options, "placement", None) else {}
    bounds = {"scratch arena": {options.target.scratch_memory: layout.arena.lower_bound},
              "activation arena": {m: a.lower_bound for m, a in layout.extra}}
    out = []
    for m in options.target.memories:
        parts = use.get(m.name, [])
        used = sum(n for _, n in parts)
        budget = budgets.get(m.name)
        out.append(MemoryUse(memory=m.name, size=m.size, budget=budget, used=used,
                             free=(budget if budget is not None else m.size) - used,
                             holds=[MemoryHolding(what=what, bytes=n, lower_bound_bytes=bounds.get(what, {}).get(m.name))
                                    for what, n in parts]))
    return out


def _stream_report(steps, table: ConstantTable, options: ConversionOptions, placed):
    pool = getattr(options, "placement", None) and options.placement.stream_pool
    if pool is None or placed is None or placed.schedule is None:
        return None, []
    sched = placed.schedule
    layout = [StreamPoolUnit(unit=u.id, offset=u.pool_offset, bytes=u.bytes, first=u.live[0], last=u.live[1],
                             tensors=[c.id for c in u.tensors]) for u in sched.units]
    dropped = {c.symbol: reason for c, reason in sched.dropped}
    facts = [ConstantPlacementFact(id=p.id, residency=p.residency, reason=dropped.get(p.symbol) if p.residency ==
                                   "direct" else None)
             for p in placed.constants.values() if p.requested == "stream"]
    streamed = sum(c.bytes for c in table.constants if placed.constants[c.symbol].residency == "stream")
    return StreamPoolReport(memory=pool.memory, bytes=pool.bytes, alignment=pool.alignment, engine=pool.engine,
                            used_bytes=pool_high_water(sched), streamed_bytes=streamed,
                            constant_bytes=table.total_bytes, layout=layout), facts


def _in_place_records(graph: Graph, steps: list[Step], layout: MemoryLayout) -> list[PlanRewrite]:
    """The planner's in-place steps as rewrites: nothing removed, the step writes over an input."""
    producer = {t: s for s in steps for t in s.op.outputs}
    return [PlanRewrite(rewrite="in_place", removed=[], into=producer[out].op_id,
                        detail=f"{producer[out].lowering.entry} writes its output over input "
                               f"'{graph.tensors[inp].name}', whose last reader it is")
            for out, inp in layout.in_place]


def build_report(plan: Plan, steps: list[Step], code: list[OperatorCode], layout: MemoryLayout,
                 table: ConstantTable, options: ConversionOptions, model_warnings: list[str] = (),
                 graph: Graph | None = None, placed=None, kernel_choice=None, patching=None) -> Report:
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
        warnings.append(warning(f"scratch arena {arena} B exceeds {scratch_memory.name} ({scratch_memory.size} B)",
                                "set memory.scratch_memory to a larger writable memory of the target "
                                "(`helia-aot targets` lists them) or try optimization.goal size"))
    persistent = layout.persistent_bytes
    persistent_memory = target.memory(layout.persistent_memory)
    if persistent and persistent_memory is not None:
        shared = arena if layout.persistent_memory == target.scratch_memory else 0
        if persistent + shared > persistent_memory.size:
            warnings.append(warning(f"persistent arena {persistent} B"
                                    + (f" and scratch arena {arena} B" if shared else "")
                                    + f" exceed {persistent_memory.name} ({persistent_memory.size} B)",
                                    "set memory.persistent_memory to another writable memory of the target "
                                    "(`helia-aot targets` lists them)"))
    constant_memory = target.memory(target.constant_memory)
    if constant_memory is not None and const_bytes > constant_memory.size:
        warnings.append(warning(f"constants {const_bytes} B exceed {constant_memory.name} ({constant_memory.size} B)",
                                "set memory.constant_memory to a larger memory of the target (`helia-aot "
                                "targets` lists them) or convert for a target with more memory"))
    table_name = kernel_choice.cost_table if kernel_choice is not None else None
    if table_name and target.cpu != HOST_CPU and not table_name.endswith("-" + target.cpu):
        # Another core's table (library.cost_model.STAND_INS) ranked the kernel entries for this one.
        warnings.append(warning(f"no kernel cost table was measured on {target.cpu}: the kernel choice used "
                                f"{table_name}, the nearest core's",
                                "measure one with tools/measure_kernel_costs if an emulator runs the core, or keep "
                                "the choice (entries rank alike across cores more than their counts agree)"))
    peak = steps[layout.arena.peak_step].op_id if steps else None
    stream_report, stream_facts = _stream_report(steps, table, options, placed)
    return Report(
        schema_version=SCHEMA_VERSION, interface=plan.interface, generator=plan.generator, model=plan.model,
        module_prefix=options.prefix, platform=plan.platform, kernel_library=plan.kernel_library,
        operators=operators, total_macs=sum(o.macs for o in operators),
        kernel_calls=[KernelCall(symbol=k, operator_ids=v) for k, v in sorted(calls.items())],
        unrecorded_operator_ids=unrecorded,
        arenas=_arenas(layout, table, options, placed),
        memory=MemorySummary(scratch_arena_bytes=arena, lower_bound_bytes=bound,
                             ratio=round(arena / bound, 4) if bound else 1.0, peak_operator=peak,
                             constant_bytes=const_bytes, io_in_arena=True),
        target_memories=[TargetMemory(name=m.name, bytes=m.size, writable=m.writable) for m in target.memories],
        warnings=warnings,
        stream_pool=stream_report, constants=stream_facts,
        memory_use=_memory_use(layout, table, options, placed),
        kernel_choice=kernel_choice,
        patches=[] if patching is None else [ReportPatchChain(
            operators=[s.op_id for s in steps if s.position in patching.chain.positions],
            patches=patching.chain.patches, arena_before_bytes=patching.arena_before,
            lower_bound_before_bytes=patching.lower_bound_before, arena_after_bytes=arena,
            lower_bound_after_bytes=bound, chain_macs=patching.macs_chain, halo=patching.chain.halo,
            recomputed_macs=patching.macs_recomputed, moved_bytes=patching.bytes_moved,
            total_macs=patching.macs_total, added_instructions=patching.instructions_added,
            total_instructions=patching.instructions_total)],
    )

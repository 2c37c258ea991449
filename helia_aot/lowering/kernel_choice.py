# SPDX-License-Identifier: Apache-2.0
"""Kernel choice per operator by estimated instructions and scratch, decided over the whole graph.

An operator with several kernel entries (ops set Lowered.candidate_scratch: every entry whose
argument rules the layer meets, with the ctx->buf bytes it needs) gets each entry's instruction
estimate from the cost table of the linked library, build and core (helia_aot.library.cost_model). Only
entries called directly are weighed: a *_wrapper re-decides at run time, and stays only where an
operator has no direct entry that does its work.

optimization.goal then picks over the whole graph, because extra scratch costs arena only where it
raises the peak:
- size: start from the least scratch everywhere (the smallest arena), then take each faster entry,
  most instructions saved first, whenever the planned arena does not grow;
- balanced (default; accuracy too, every entry being bit-identical): the same with an arena budget
  of the smallest arena + 5 %;
- latency: the fewest instructions everywhere.
optimization.kernel specialized or generic keeps the operator's own forced choice (recorded beside
the options); so does a library/build without a cost table (no choice recorded).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from helia_aot.library import cost_model
from helia_aot.lowering import lower as lowering
from helia_aot.memory.arenas import plan_arenas
from helia_aot.lowering.lower import Step
from helia_aot.record.plan_model import KernelChoice, KernelChoiceSummary, KernelOption, TradeEnd

BALANCED_SLACK = 0.05  # balanced: within 5 % of the smallest arena


@dataclass(frozen=True)
class Option:
    entry: str
    scratch: int
    instructions: int


def _is_wrapper(entry: str) -> bool:
    return "_wrapper_" in entry


def _dims(step: Step):
    p = step.lowering.params
    return p.get("input_dims"), p.get("filter_dims"), p.get("output_dims")


def _estimate(table, entry: str | None, step: Step) -> int | None:
    if table is None or entry is None or cost_model.kind_of(entry) is None or not table.has(entry):
        return None
    dims = _dims(step)
    if any(d is None for d in dims):
        return None
    p = step.lowering.params
    return table.estimate(entry, *dims, stride=p.get("stride"), padding=p.get("padding"))


def _options(step: Step, table) -> list[Option] | None:
    """The directly callable entries of a step with their scratch and estimate; None: no choice."""
    scratch = step.lowering.candidate_scratch
    if not scratch or step.lowering.entry is None or _is_wrapper(step.lowering.entry):
        return None
    found = []
    for entry, size in sorted(scratch.items()):
        if _is_wrapper(entry):
            continue
        estimate = _estimate(table, entry, step)
        if estimate is not None:
            found.append(Option(entry, int(size), estimate))
    return found if len(found) > 1 else None


def _with_scratch(steps: list[Step], choice: dict[int, Option]) -> list[Step]:
    return [replace(s, lowering=replace(s.lowering, scratch_bytes=choice[s.position].scratch))
            if s.position in choice else s for s in steps]


class _Arena:
    """Planned arena of a choice (the conversion's own arena planning, so only a raised peak costs), memoised."""

    def __init__(self, graph, steps: list[Step], options):
        self.graph, self.steps, self.options = graph, steps, options
        self.memo: dict[tuple, int] = {}
        layout = plan_arenas(graph, _with_scratch(steps, {}), options)
        # Tensor bytes live at each step: a choice whose scratch alone breaks the budget there is
        # refused without planning.
        self.live = [sum(b.size for b in layout.arena.buffers if b.kind == "tensor" and b.first <= s <= b.last)
                     for s in range(len(steps))]

    def __call__(self, choice: dict[int, Option]) -> int:
        key = tuple(sorted((p, o.entry) for p, o in choice.items()))
        if key not in self.memo:
            layout = plan_arenas(self.graph, _with_scratch(self.steps, choice), self.options)
            self.memo[key] = layout.arena.arena_bytes
        return self.memo[key]


def _greedy(options: dict[int, list[Option]], arena: _Arena, budget: int | None,
            fixed: dict[int, Option] | None = None) -> dict[int, Option]:
    """Least scratch everywhere, then faster entries by instructions saved while the arena fits;
    `fixed` operators keep their option (an `operators` rule forced their kernel)."""
    choice = {**{p: min(opts, key=lambda o: (o.scratch, o.instructions, o.entry)) for p, opts in options.items()},
              **(fixed or {})}
    upgrades = sorted(((choice[p].instructions - o.instructions, p, o) for p, opts in options.items() for o in opts
                       if o.instructions < choice[p].instructions), key=lambda t: (-t[0], t[1], t[2].entry))
    for _, p, option in upgrades:
        if option.instructions >= choice[p].instructions:
            continue  # a better entry of this operator was taken already
        if budget is not None and arena.live[p] + option.scratch > budget:
            continue
        trial = {**choice, p: option}
        # Same scratch, same buffers: the planned arena cannot change.
        if budget is None or option.scratch == choice[p].scratch or arena(trial) <= budget:
            choice = trial
    return choice


def estimated_instructions(steps: list[Step], table, choice: dict[int, Option] | None = None) -> int:
    """Estimated instructions over the operators the table covers (the others count 0), with `choice` where
    given. The report's kernel_choice.chosen.instructions; patch-based execution weighs its halos against it."""
    choice = choice or {}
    return sum(choice[s.position].instructions if s.position in choice else _estimate(table, s.lowering.entry, s) or 0
               for s in steps)


def _least_scratch(per_step: dict[int, list[Option]]) -> dict[int, Option]:
    return {p: min(opts, key=lambda o: (o.scratch, o.instructions, o.entry)) for p, opts in per_step.items()}


def choose(graph, steps: list[Step], options) -> tuple[list[Step], KernelChoiceSummary | None]:
    """The steps with each operator's entry chosen (re-lowered where it changed) and the trade
    summary for the report; None when no operator had a choice the cost table covers."""
    kernels, target, opt = options.kernels, options.target, options.optimization
    table = cost_model.table_for(kernels.name, kernels.build, target.cpu)
    per_step = {s.position: o for s in steps if (o := _options(s, table))}
    if not per_step:
        return steps, None
    # An operator whose `operators` rule sets its kernel knob keeps its own entry (recorded below).
    forced = {p for p in per_step if _kernel_knob(steps[p], opt) != "auto"}
    arena = _Arena(graph, steps, options)
    smallest = arena(_least_scratch(per_step))
    size_end = _greedy(per_step, arena, smallest)
    latency_end = _greedy(per_step, arena, None)
    if forced == set(per_step):
        # specialized / generic everywhere: each operator's own entry, recorded beside what it could have been.
        budget = None
        steps = [_record(s, per_step[s.position], s.lowering.entry, "optimization.kernel")
                 if s.position in per_step else s for s in steps]
    else:
        budget = {"size": smallest, "latency": None}.get(opt.goal, int(smallest * (1 + BALANCED_SLACK)))
        if forced:
            own = {p: next(o for o in per_step[p] if o.entry == steps[p].lowering.entry) for p in forced}
            free = {p: o for p, o in per_step.items() if p not in forced}
            chosen = {**_greedy(free, arena, budget, own), **own}
        else:
            chosen = {"size": size_end, "latency": latency_end}.get(opt.goal) or _greedy(per_step, arena, budget)
        steps = [(_record(s, per_step[s.position], s.lowering.entry, "optimization.kernel")
                  if s.position in forced else _apply(graph, s, per_step[s.position], chosen[s.position], options))
                 if s.position in per_step else s for s in steps]
    final = plan_arenas(graph, steps, options).arena.arena_bytes
    return steps, KernelChoiceSummary(
        goal=opt.goal, cost_table=table.name, cost_table_command=table.command,
        cost_table_date=table.date, arena_budget_bytes=budget,
        estimated_operators=sum(1 for s in steps if _estimate(table, s.lowering.entry, s) is not None),
        chosen=TradeEnd(final, estimated_instructions(steps, table)),
        size=TradeEnd(arena(size_end), estimated_instructions(steps, table, size_end)),
        latency=TradeEnd(arena(latency_end), estimated_instructions(steps, table, latency_end)))


def _kernel_knob(step: Step, opt) -> str:
    """The kernel knob in force for the step: its `operators` rule's, else the model's."""
    if step.settings is not None and "kernel" in step.settings.knobs:
        return step.settings.knobs["kernel"][0]
    return opt.kernel


def _record(step: Step, opts: list[Option], chosen: str, reason: str) -> Step:
    record = KernelChoice(options=[KernelOption(o.entry, o.scratch, o.instructions) for o in opts],
                          chosen=chosen, reason=reason)
    return replace(step, choice=record)


def _apply(graph, step: Step, opts: list[Option], option: Option, options) -> Step:
    """The step lowered for the chosen entry (the operator's own lowering, entry forced)."""
    if option.entry != step.lowering.entry:
        step = lowering.relower(graph, step, options, option.entry)
        if step.lowering.entry != option.entry or step.lowering.scratch_bytes != option.scratch:
            raise AssertionError(f"{step.op_id}: re-lowered to {step.lowering.entry} with "
                                 f"{step.lowering.scratch_bytes} B scratch, chose {option.entry} "
                                 f"({option.scratch} B)")
    return _record(step, opts, option.entry, "cost_model")

# SPDX-License-Identifier: Apache-2.0
"""Patch-based execution (issue #31 item 1): a chain of int8 spatial operators at the start of a network
run one band of output rows at a time, so the large intermediate tensors never exist whole.

A patch is a band of rows of the chain's last output. Walking the chain backwards, each operator's
input rows follow from its window (kernel, stride, dilation, top padding); a tensor read by several
operators of the chain (a residual block's input) holds the hull of their rows. The chain's inputs and
its last output stay whole; each operator is called on its band through its own kernel entry, with the
band's height and top padding (a band of an NHWC tensor is contiguous).

Two halo modes. `recompute`: each patch computes every row its readers need, halo rows again, so no band
outlives its patch and band buffers keep their layer-by-layer lifetimes. `cache`: each step computes only
the rows no earlier patch computed (rows advance monotonically, every row at most once, no MAC twice);
a band buffer holds the rows its readers still need, and at the start of a patch the generated C moves the
rows kept from the previous patch to the top of the buffer (memmove: a kernel reads contiguous rows) for
the producer to write its new rows after them; a step with no new rows on a patch is not called. A band
buffer that carries rows from one patch to the next lives across the whole chain; the others keep their
layer-by-layer lifetimes. The arena planner sizes band buffers by their largest band, the chain's
inputs living to its end and its output from its start.

`choose` weighs every chain end, patch count and halo mode by optimization.goal, each patching's cost
being the instructions it adds by the cost table (added_instructions: the bands computed minus the
whole layers, measured where the table measured all those shapes, else by its fitted models, plus MOVE_INSTRUCTIONS_PER_BYTE per byte moved; without a model for every step,
recomputed MACs plus the moves' instructions stand in): size takes the smallest arena below the
layer-by-layer one, ties by the lower cost; balanced, among the patchings whose cost is known and at most
BALANCED_EXTRA of the network's estimated instructions, the one minimizing arena / layer-by-layer arena
+ (instructions + added) / instructions (relative memory and relative time weighed equally; ties by the
smaller arena), and only when that beats the layer-by-layer plan's 2; latency keeps the layer-by-layer
plan; a memory.constraints budget on the scratch memory the layer-by-layer arena exceeds takes the
cheapest patching that fits it (the smallest arena when none fits). Activation placement rules and a
stream pool keep the layer-by-layer plan.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from helia_aot.library import cost_model
from helia_aot.lowering import kernel_choice
from helia_aot.memory import arena_planner
from helia_aot.memory.arena_planner import Buffer, MemoryLayout

# Entries whose scratch does not depend on the input height (a band calls them with its own), and which
# compute each output pixel from its window alone.
WINDOW_ENTRIES = {
    "CONV_2D": ("arm_convolve_s8", "arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8",
                "helia_mve_convolve_1x1_s8", "helia_mve_convolve_s8", "helia_dsp_convolve_1x1_s8",
                "helia_dsp_convolve_s8"),
    "DEPTHWISE_CONV_2D": ("arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt", "arm_depthwise_conv_s8",
                          "helia_mve_depthwise_conv_3x3_s8", "helia_dsp_depthwise_conv_3x3_s8"),
    "AVERAGE_POOL_2D": ("arm_avgpool_s8",),
    "MAX_POOL_2D": ("arm_max_pool_s8",),
}
# Without kernel scratch the wrappers are safe too: whatever path they take on a band needs no buffer.
WRAPPERS = {"CONV_2D": "arm_convolve_wrapper_s8", "DEPTHWISE_CONV_2D": "arm_depthwise_conv_wrapper_s8"}
ELEMENTWISE = {"ADD": "arm_elementwise_add_s8"}
PAD_TYPES = ("PAD", "PADV2")
MAX_PATCHES = 64
# goal balanced: a patching may add at most this share of the network's estimated instructions (issue #31).
BALANCED_EXTRA = 0.10
HALO_MODES = ("recompute", "cache")
# Instructions per byte a cache-mode memmove of kept rows costs, call included: measured on corstone300
# (QEMU, picolibc's memmove, -O2) as the instructions two extra moves of every move add to VWW's cache-mode
# model_run (47,563 for 2 x 35,328 bytes in 768-byte moves of word-aligned rows: 0.673).
MOVE_INSTRUCTIONS_PER_BYTE = 0.67


@dataclass(frozen=True)
class Window:
    """How output rows of a step map to rows of one activation input."""

    tensor: int
    kernel: int
    stride: int
    dilation: int
    pad: int  # rows of padding above the input

    def rows(self, out0: int, out1: int, height: int) -> tuple[int, int]:
        start = out0 * self.stride - self.pad
        end = (out1 - 1) * self.stride - self.pad + (self.kernel - 1) * self.dilation + 1
        return max(start, 0), min(end, height)


@dataclass(frozen=True)
class StepShape:
    position: int
    kind: str  # "window", "pad" or "elementwise"
    inputs: tuple[Window, ...]
    output: int
    out_height: int


def _nhwc(tensor) -> bool:
    """An int8 batch-1 NHWC activation (a band of it is a contiguous run of rows)."""
    return (len(tensor.shape) == 4 and tensor.shape[0] == 1 and tensor.dtype == "int8" and not tensor.is_constant
            and not tensor.is_variable)


def step_shape(graph, step, needs_scratch: bool) -> StepShape | None:
    """The step's row geometry, or None when it cannot run on bands."""
    op, low = step.op, step.lowering
    if step.variant.name != "int8" or low.alias or len(op.outputs) != 1:
        return None
    out = graph.tensors[op.outputs[0]]
    if not _nhwc(out):
        return None
    p = low.params
    kind = op.op_type
    if kind in WINDOW_ENTRIES:
        allowed = WINDOW_ENTRIES[kind] + ((WRAPPERS[kind],) if kind in WRAPPERS and not needs_scratch else ())
        if low.entry not in allowed or not _nhwc(graph.tensors[p["input"]]):
            return None
        kernel = p["filter_dims"][1]
        return StepShape(step.position, "window", (Window(p["input"], kernel, p["stride"][1], p.get("dilation", (1, 1))[1],
                                                          p["padding"][1]),), out.index, out.shape[1])
    if kind in ELEMENTWISE:
        if low.entry != ELEMENTWISE[kind] or p.get("broadcast"):
            return None
        ins = (p["input1"], p["input2"])
        if any(graph.tensors[t].is_constant or tuple(graph.tensors[t].shape) != tuple(out.shape) for t in ins):
            return None
        return StepShape(step.position, "elementwise", tuple(Window(t, 1, 1, 1, 0) for t in dict.fromkeys(ins)),
                         out.index, out.shape[1])
    if kind in PAD_TYPES and low.entry == "arm_pad_s8" and _nhwc(graph.tensors[p["input"]]):
        if p["before"][0] or p["after"][0]:
            return None
        return StepShape(step.position, "pad", (Window(p["input"], 1, 1, 1, p["before"][1]),), out.index,
                         out.shape[1])
    return None


@dataclass(frozen=True)
class Call:
    """One step on one patch: rows of its output, and per input the rows it reads."""

    out_rows: tuple[int, int]
    in_rows: tuple[tuple[int, int], ...]  # per StepShape.inputs

    @property
    def called(self) -> bool:
        """False for a cache-mode step with no new rows on this patch (not called)."""
        return self.out_rows[1] > self.out_rows[0]


@dataclass(frozen=True)
class Move:
    """Cache mode, at the start of a patch: `rows` rows kept from the previous patch move from row `start`
    of the tensor's band buffer to its top."""

    tensor: int
    start: int
    rows: int


@dataclass(frozen=True)
class Chain:
    shapes: tuple[StepShape, ...]
    patches: int
    band_rows: int  # rows of the last output per patch (the last patch may have fewer)
    calls: tuple[tuple[Call, ...], ...]  # [patch][step]
    band_of: dict  # intermediate tensor -> (rows of its largest band, its rows per patch)
    external: tuple[int, ...]  # tensors the chain reads whole
    output: int
    halo: str = "recompute"  # or "cache"
    moves: tuple[tuple[Move, ...], ...] = ()  # cache: [patch] the moves before its calls
    carried: frozenset = frozenset()  # cache: intermediates whose band keeps rows from one patch to the next

    @property
    def first(self) -> int:
        return self.shapes[0].position

    @property
    def last(self) -> int:
        return self.shapes[-1].position

    @property
    def positions(self) -> tuple[int, ...]:
        return tuple(s.position for s in self.shapes)


def band_params(graph, shape: StepShape, params: dict, call: Call) -> dict:
    """The step's kernel parameters for one band: its rows' dimensions and the padding above them."""
    p = dict(params)
    o0, o1 = call.out_rows
    if shape.kind == "elementwise":
        out = graph.tensors[shape.output]
        p["size"] = (o1 - o0) * out.num_elements // out.shape[1]
        return p
    (w,), ((i0, i1),) = shape.inputs, call.in_rows
    top = i0 - (o0 * w.stride - w.pad)  # padding rows above the band's first input row
    if shape.kind == "pad":
        before, after = list(p["before"]), list(p["after"])
        before[1], after[1] = top, (o1 - o0) - top - (i1 - i0)
        p.update(before=before, after=after)
    else:
        p["output_dims"] = (1, o1 - o0, *p["output_dims"][2:])
        p["padding"] = (p["padding"][0], top)
    p["input_dims"] = (1, i1 - i0, *p["input_dims"][2:])
    return p


def _last_bands(graph, shapes, patches: int) -> tuple[int, list[tuple[int, int]]]:
    height = graph.tensors[shapes[-1].output].shape[1]
    band = -(-height // patches)
    return band, [(p * band, min(height, (p + 1) * band)) for p in range(patches) if p * band < height]


def schedule(graph, shapes: tuple[StepShape, ...], patches: int, halo: str = "recompute") -> Chain:
    """The rows every step computes and reads on each of `patches` bands of the last output."""
    if halo == "cache":
        return _cache_schedule(graph, shapes, patches)
    out = shapes[-1].output
    band, last = _last_bands(graph, shapes, patches)
    produced = {s.output for s in shapes}
    calls, rows_of = [], {}
    for o0, o1 in last:
        need = {out: (o0, o1)}
        per_step = []
        for s in reversed(shapes):
            r = need[s.output]
            per_step.append(Call(r, _reads(graph, s, r, need, produced)))
        calls.append(tuple(reversed(per_step)))
        for t, r in need.items():
            if t != out:
                rows_of.setdefault(t, []).append(r)
    band_of = {t: (max(b - a for a, b in rs), tuple(rs)) for t, rs in rows_of.items()}
    external = tuple(dict.fromkeys(w.tensor for s in shapes for w in s.inputs if w.tensor not in produced))
    return Chain(shapes, len(calls), band, tuple(calls), band_of, external, out)


def _reads(graph, step: StepShape, rows: tuple[int, int], need: dict, produced: set) -> tuple:
    """The rows of each input `step` reads to compute its output `rows`; `need` (the rows each tensor of
    the chain must hold on this patch) grows to cover them."""
    ins = []
    for w in step.inputs:
        i = w.rows(rows[0], rows[1], graph.tensors[w.tensor].shape[1])
        ins.append(i)
        if w.tensor in produced:
            have = need.get(w.tensor)
            need[w.tensor] = i if have is None else (min(have[0], i[0]), max(have[1], i[1]))
    return tuple(ins)


def _cache_schedule(graph, shapes: tuple[StepShape, ...], patches: int) -> Chain:
    """Cache mode: per patch each step computes the rows its readers need now that no earlier patch
    computed (windows advance monotonically, so these follow the rows computed before); a band then holds
    from the first row any reader needs on this patch or a later one up to the last row computed."""
    out = shapes[-1].output
    band, last = _last_bands(graph, shapes, patches)
    produced = {s.output for s in shapes}
    done: dict[int, int] = {}  # tensor -> end of the rows computed so far
    calls, reads, computed_to = [], [], []
    for o0, o1 in last:
        need = {out: (o0, o1)}
        per_step = []
        for s in reversed(shapes):
            d = done.get(s.output, 0)
            r = need.get(s.output)
            if r is None or r[1] <= d:
                per_step.append(Call((d, d), tuple((0, 0) for _ in s.inputs)))
                continue
            r = (max(r[0], d), r[1])
            done[s.output] = r[1]
            per_step.append(Call(r, _reads(graph, s, r, need, produced)))
        calls.append(tuple(reversed(per_step)))
        reads.append({t: r for t, r in need.items() if t != out})
        computed_to.append(dict(done))
    count = len(calls)
    band_of, moves, carried = {}, [[] for _ in range(count)], set()
    for t in (s.output for s in shapes[:-1]):
        held = []
        first = None  # first row read on this patch or a later one
        for p in reversed(range(count)):
            if t in reads[p]:
                first = reads[p][t][0] if first is None else min(first, reads[p][t][0])
            end = computed_to[p].get(t, 0)
            start = end if first is None else min(first, end)
            held.append((start, end))
        held.reverse()
        for p in range(1, count):
            kept = held[p - 1][1] - held[p][0]  # rows of the previous band still held
            if kept > 0:
                carried.add(t)
                if held[p][0] > held[p - 1][0]:
                    moves[p].append(Move(t, held[p][0] - held[p - 1][0], kept))
        band_of[t] = (max(max(b - a for a, b in held), 1), tuple(held))
    external = tuple(dict.fromkeys(w.tensor for s in shapes for w in s.inputs if w.tensor not in produced))
    return Chain(shapes, count, band, tuple(calls), band_of, external, out, "cache",
                 tuple(tuple(m) for m in moves), frozenset(carried))


def moved_bytes(graph, chain: Chain) -> int:
    """Bytes the cache mode's moves copy per inference (0 for recompute)."""
    return sum(m.rows * graph.tensors[m.tensor].nbytes // graph.tensors[m.tensor].shape[1]
               for ms in chain.moves for m in ms)


def candidate_chains(graph, steps, needs_scratch: bool) -> list[tuple[StepShape, ...]]:
    """Prefixes of the first run of band-capable steps whose intermediate tensors only the chain reads
    (at least two steps, ending where the chain's output is its only tensor read beyond it)."""
    readers: dict[int, list[int]] = {}
    for s in steps:
        for t in s.op.inputs:
            if t >= 0:
                readers.setdefault(t, []).append(s.position)
    outputs = set(graph.outputs)
    run: list[StepShape] = []
    found = []
    for s in steps:
        shape = step_shape(graph, s, needs_scratch)
        if shape is None:
            if run:
                break
            continue
        run.append(shape)
        positions = {r.position for r in run}
        inner = [r.output for r in run[:-1]]
        closed = all(t not in outputs and set(readers.get(t, ())) <= positions for t in inner)
        # Every input is produced in the run or before it (execution order guarantees the latter).
        if len(run) >= 2 and closed and shape.out_height >= 2:
            found.append(tuple(run))
    return found


def chain_macs(steps, chain: Chain) -> tuple[int, int]:
    """(MACs of the chain's steps layer by layer, MACs recomputed on halos)."""
    by_position = {s.position: s for s in steps}
    full = recomputed = 0
    for i, shape in enumerate(chain.shapes):
        macs = int(by_position[shape.position].lowering.macs)
        done = sum(c[i].out_rows[1] - c[i].out_rows[0] for c in chain.calls)
        full += macs
        # Rows no reader needs (a stride skipping them) are never computed: no recomputation either.
        recomputed += max(macs * done // shape.out_height - macs, 0)
    return full, recomputed


def added_instructions(graph, steps, chain: Chain, table) -> int | None:
    """Estimated instructions the chain's band calls add to its layer-by-layer calls, plus the cache mode's
    moves: per step, its bands' instructions minus the whole layer's (_call_costs). None without a table or
    when a step's entry has no model there (pad, add, pools)."""
    if table is None:
        return None
    by_position = {s.position: s for s in steps}
    added = 0
    for i, shape in enumerate(chain.shapes):
        step = by_position[shape.position]
        entry, p = step.lowering.entry, step.lowering.params
        if shape.kind != "window" or entry is None or not table.has(entry):
            return None
        bands = [band_params(graph, shape, p, calls[i]) for calls in chain.calls if calls[i].called]
        whole, *band_costs = _call_costs(table, entry, [p, *bands])
        added += sum(band_costs) - whole
    return added + round(MOVE_INSTRUCTIONS_PER_BYTE * moved_bytes(graph, chain))


def _call_costs(table, entry: str, calls: list[dict]) -> list[int]:
    """Instructions of each call (a layer and its bands): the table's measurements when it measured every
    one of these shapes (tools/measure_kernel_costs measures the MLPerf chains' bands: a fitted model can
    miss what a call of a row or two costs, e.g. a 1x1 layer's odd last pixel, by 25 %), else the fitted
    model for all of them, so the model's error on one shape is in both sides of the difference."""
    measured = [table.measurement(entry, c["input_dims"], c["filter_dims"], c["output_dims"]) for c in calls]
    if all(m is not None for m in measured):
        return measured
    return [table.model_estimate(entry, c["input_dims"], c["filter_dims"], c["output_dims"], c.get("stride"),
                                 c.get("padding")) for c in calls]


def adjust_buffers(graph, chain: Chain, roots: dict[int, int]):
    """The planner hook: band sizes for the chain's intermediates, the inputs kept to the chain's end,
    the output kept from its start (it fills patch by patch), bands that carry rows across patches
    (cache mode) live across the whole chain."""

    def adjust(buffers: list[Buffer]) -> None:
        bands = {roots.get(t, t): t for t in chain.band_of}
        carried = {roots.get(t, t) for t in chain.carried}
        external = {roots.get(t, t) for t in chain.external}
        output = roots.get(chain.output, chain.output)
        for b in buffers:
            if b.kind != "tensor":
                continue
            if b.tensor in bands:
                t = bands[b.tensor]
                tensor = graph.tensors[t]
                b.size = chain.band_of[t][0] * tensor.nbytes // tensor.shape[1]
            if b.tensor in external:
                b.last = max(b.last, chain.last)
            if b.tensor in carried:
                b.first, b.last = min(b.first, chain.first), max(b.last, chain.last)
            if b.tensor == output:
                b.first = min(b.first, chain.first)

    return adjust


@dataclass(frozen=True)
class Patching:
    """The chosen chain, its layout, and what it costs against the layer-by-layer plan."""

    chain: Chain
    layout: MemoryLayout
    reason: str  # "goal size", "goal balanced" or "memory.constraints"
    arena_before: int
    lower_bound_before: int
    macs_chain: int
    macs_recomputed: int
    macs_total: int
    instructions_added: int | None = None  # estimated (added_instructions); None: no cost model for the chain
    instructions_total: int | None = None  # the network's estimated instructions, layer by layer
    bytes_moved: int = 0  # cache mode: bytes its memmoves copy per inference


def _tensors_touching(chain: Chain) -> set[int]:
    return set(chain.band_of) | set(chain.external) | {chain.output}


def _plan(graph, steps, alignment: int, in_place: bool, chain: Chain) -> MemoryLayout:
    alias_root = {s.op.outputs[0]: s.op.inputs[0] for s in steps if s.lowering.alias}
    roots = arena_planner.resolve_roots(alias_root)
    touching = _tensors_touching(chain)
    return arena_planner.plan_memory(graph, steps, alignment, None, in_place,
                                     adjust=adjust_buffers(graph, chain, roots),
                                     keep_in_place=lambda out, inp: out not in touching and inp not in touching)


def _budget(options) -> int | None:
    placement = getattr(options, "placement", None)
    if placement is None:
        return None
    return dict(placement.constraints).get(options.target.scratch_memory)


def _cost(added: int | None, recomputed: int, moved: int) -> float:
    """What a patching costs: its estimated instructions, or without a model its recomputed MACs (one
    instruction each) and moves."""
    return added if added is not None else recomputed + MOVE_INSTRUCTIONS_PER_BYTE * moved


def choose(graph, steps, options, layout: MemoryLayout, placer) -> Patching | None:
    """The patching optimization.goal (or a scratch-memory budget) takes, None for layer by layer."""
    goal = options.optimization.goal
    budget = _budget(options)
    before = layout.arena.arena_bytes
    over_budget = budget is not None and before > budget
    if placer is not None or layout.extra or (goal not in ("size", "balanced") and not over_budget):
        return None
    table = cost_model.table_for(options.kernels.name, options.kernels.build, options.target.cpu)
    instructions = kernel_choice.estimated_instructions(steps, table) if table is not None else None
    if goal == "balanced" and not over_budget and not instructions:
        return None  # nothing to weigh the halos against
    total = sum(int(s.lowering.macs) for s in steps)
    alignment = options.target.arena_alignment
    best: tuple | None = None
    for shapes in candidate_chains(graph, steps, options.kernels.needs_scratch):
        height = graph.tensors[shapes[-1].output].shape[1]
        # Patch counts by distinct band heights (several counts give the same grid).
        bands = sorted({-(-height // n) for n in (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, MAX_PATCHES)}, reverse=True)
        for n in (-(-height // band) for band in bands):
            for mode, halo in enumerate(HALO_MODES):
                chain = schedule(graph, shapes, n, halo)
                if chain.patches < 2 or any(b <= a for calls in chain.calls for c in calls if c.called
                                            for a, b in c.in_rows):
                    continue  # one band is no patching; a band reading no rows (all padding) is not worth a call
                added = added_instructions(graph, steps, chain, table)
                if goal == "balanced" and not over_budget and (added is None or added > BALANCED_EXTRA * instructions):
                    continue
                full, recomputed = chain_macs(steps, chain)
                moved = moved_bytes(graph, chain)
                planned = replace(_plan(graph, steps, alignment, options.optimization.rewrites, chain),
                                  persistent_memory=layout.persistent_memory)
                arena = planned.arena.arena_bytes
                if arena >= before:
                    continue
                cost = _cost(added, recomputed, moved)
                if over_budget:
                    key = (arena > budget, cost if arena <= budget else arena, arena, chain.patches, mode)
                    reason = "memory.constraints"
                elif goal == "balanced":
                    score = arena / before + (instructions + added) / instructions
                    if score >= 2.0:
                        continue  # the layer-by-layer plan scores 1 + 1
                    key = (score, arena, chain.patches, mode)
                    reason = "goal balanced"
                else:
                    key = (arena, cost, chain.patches, mode)
                    reason = f"goal {goal}"
                if best is None or key < best[0]:
                    best = (key, chain, planned, reason, full, recomputed, added, moved)
    if best is None:
        return None
    _, chain, planned, reason, full, recomputed, added, moved = best
    return Patching(chain, planned, reason, before, layout.arena.lower_bound, full, recomputed, total, added,
                    instructions, moved)

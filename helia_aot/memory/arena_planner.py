# SPDX-License-Identifier: Apache-2.0
"""Memory planner: lifetimes from the schedule, offsets in one scratch arena, a lower bound; variable
tensors (state) one after the other in the persistent arena."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass
class Buffer:
    """A block that must live in the arena from step ``first`` to ``last`` inclusive."""

    name: str
    size: int
    first: int
    last: int
    kind: str  # "tensor" or "scratch"
    tensor: int | None = None  # root tensor index for kind == "tensor"
    op_position: int | None = None  # operator position for kind == "scratch"
    offset: int = -1


@dataclass
class ArenaPlan:
    buffers: list[Buffer]
    arena_bytes: int
    lower_bound: int
    alignment: int
    strategy: str
    peak_step: int

    def offset_of_tensor(self, root: int) -> int:
        for b in self.buffers:
            if b.kind == "tensor" and b.tensor == root:
                return b.offset
        raise KeyError(root)

    def scratch_offset(self, position: int) -> int | None:
        for b in self.buffers:
            if b.kind == "scratch" and b.op_position == position:
                return b.offset
        return None


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def _overlaps(a: Buffer, b: Buffer) -> bool:
    return a.first <= b.last and b.first <= a.last


def _place(order: list[Buffer], alignment: int) -> int:
    """First fit in offset order against every already placed buffer whose lifetime meets this one."""
    placed: list[Buffer] = []
    arena = 0
    for buf in order:
        size = _align(buf.size, alignment)
        conflicts = sorted((p for p in placed if _overlaps(p, buf)), key=lambda p: p.offset)
        offset = 0
        for p in conflicts:
            if offset + size <= p.offset:
                break
            offset = max(offset, _align(p.offset + _align(p.size, alignment), alignment))
        buf.offset = offset
        placed.append(buf)
        arena = max(arena, offset + size)
    return arena


_ORDERINGS = {
    # TFLM's greedy planner order: largest first, then earliest.
    "size_desc": lambda b: (-b.size, b.first, b.name),
    "area_desc": lambda b: (-b.size * (b.last - b.first + 1), b.first, b.name),
    "lifetime_desc": lambda b: (-(b.last - b.first), -b.size, b.name),
    "first_use": lambda b: (b.first, -b.size, b.name),
    "peak_first": None,  # filled in per call: buffers live at the peak step first, largest first
}


def lower_bound(buffers: list[Buffer], steps: int) -> tuple[int, int]:
    """Largest sum of sizes live at one step: no placement can use less arena."""
    best, best_step = 0, 0
    for s in range(steps):
        total = sum(b.size for b in buffers if b.first <= s <= b.last)
        if total > best:
            best, best_step = total, s
    return best, best_step


def plan(buffers: list[Buffer], steps: int, alignment: int) -> ArenaPlan:
    """Try several greedy orderings and keep the smallest arena (ties: first ordering listed)."""
    bound, peak = lower_bound(buffers, steps)
    best: tuple[int, str, dict[str, int]] | None = None
    for name, key in _ORDERINGS.items():
        if key is None:
            order = sorted(buffers, key=lambda b: (not (b.first <= peak <= b.last), -b.size, b.first, b.name))
        else:
            order = sorted(buffers, key=key)
        for b in buffers:
            b.offset = -1
        arena = _place(order, alignment)
        if best is None or arena < best[0]:
            best = (arena, name, {b.name: b.offset for b in buffers})
        if arena == _align(bound, alignment) and arena == bound:
            break
    arena, strategy, offsets = best
    for b in buffers:
        b.offset = offsets[b.name]
    return ArenaPlan(buffers, arena, bound, alignment, strategy, peak)


@dataclass(frozen=True)
class PersistentBuffer:
    """A variable tensor's bytes in the persistent arena, or an operator's internal state (tensor None,
    op_position and suffix say whose): they live across runs, and <prefix>_model_reset writes
    `initial` into them."""

    name: str
    tensor: int | None
    offset: int
    size: int
    initial: str  # "zero", "zero_point" (every byte the int8 zero point) or "data" (the tensor's initial values)
    fill: int = 0  # the byte value of "zero" and "zero_point"
    op_position: int | None = None  # internal state: the operator's position
    suffix: str = ""  # internal state: its name in the operator (ops.base.StateBuffer)


def plan_persistent(graph, alignment: int, steps=()) -> tuple[list[PersistentBuffer], int]:
    """Every variable tensor an operator reads, one after the other in tensor order (they all live
    for the module's lifetime, so nothing can share bytes), each aligned like the scratch arena; then
    the internal state the lowered `steps` ask for (Lowered.state), in operator order, zero at reset."""
    used = sorted({t for op in graph.operators for t in op.inputs if t >= 0 and graph.tensors[t].is_variable})
    buffers, offset = [], 0
    for t in used:
        tensor = graph.tensors[t]
        if tensor.initial is not None:
            initial, fill = "data", 0
        elif tensor.dtype == "int8" and tensor.quant is not None and tensor.quant.zero_point != 0:
            # LiteRT resets an int8 variable to its zero point (real 0), every other type to zero bytes.
            initial, fill = "zero_point", tensor.quant.zero_point & 0xFF
        else:
            initial, fill = "zero", 0
        buffers.append(PersistentBuffer(f"v{t}", t, offset, tensor.nbytes, initial, fill))
        offset += _align(tensor.nbytes, alignment)
    for s in steps:
        for state in s.lowering.state:
            buffers.append(PersistentBuffer(f"{s.op_id}/{state.suffix}", None, offset, state.bytes, "zero", 0,
                                            s.position, state.suffix))
            offset += _align(state.bytes, alignment)
    return buffers, offset


@dataclass(frozen=True)
class MemoryLayout:
    """The planner stage's result: where every non-constant tensor and scratch block lives."""

    arena: ArenaPlan
    alias_root: dict[int, int]  # tensor -> the tensor whose bytes it shares (RESHAPE-like chains)
    members: dict[int, list[int]]  # root tensor -> every tensor sharing its bytes
    persistent: tuple[PersistentBuffer, ...] = ()  # variable tensors, in the persistent arena
    persistent_bytes: int = 0
    # Arenas of activations placed outside the scratch memory (memory.tensors): memory -> its plan,
    # and root tensor -> the memory of the arena holding it (absent: the scratch arena).
    extra: tuple[tuple[str, ArenaPlan], ...] = ()
    tensor_memory: tuple[tuple[int, str], ...] = ()
    # The memory of the persistent arena: memory.persistent_memory, or where type persistent rules put it.
    persistent_memory: str = ""

    def arena_of(self, tensor: int) -> str | None:
        """The memory of the extra arena holding `tensor`, or None for the scratch arena."""
        root = self.root(tensor)
        for r, memory in self.tensor_memory:
            if r == root:
                return memory
        return None
    in_place: tuple[tuple[int, int], ...] = ()  # (output, input) pairs computed in place (in_place_aliases)

    def root(self, tensor: int) -> int:
        while tensor in self.alias_root:
            tensor = self.alias_root[tensor]
        return tensor

    def tensor_offset(self, tensor: int) -> int:
        memory = self.arena_of(tensor)
        if memory is not None:
            return dict(self.extra)[memory].offset_of_tensor(self.root(tensor))
        return self.arena.offset_of_tensor(self.root(tensor))

    def persistent_offset(self, tensor: int) -> int | None:
        """Offset of a variable tensor in the persistent arena; None for any other tensor."""
        for b in self.persistent:
            if b.tensor == tensor:
                return b.offset
        return None

    def state_offset(self, position: int, suffix: str) -> int:
        """Offset of an operator's internal state (Lowered.state) in the persistent arena."""
        for b in self.persistent:
            if b.tensor is None and b.op_position == position and b.suffix == suffix:
                return b.offset
        raise KeyError((position, suffix))


# Entries that compute element i from element i of each input only, every block of elements read before
# it is written (checked in ns-cmsis-nn's MVE, DSP and plain paths and the portable kernels): their output
# may be one of their inputs.
IN_PLACE_ENTRIES = ("arm_elementwise_add_s8", "arm_elementwise_sub_s8", "arm_elementwise_mul_s8")


def in_place_aliases(graph, steps, alias_root: dict[int, int]) -> dict[int, int]:
    """Outputs of in-place-capable steps that can take an input's bytes (output tensor -> input tensor):
    the input is an activation no graph input or output shares, of the output's size, and this step is
    the last to read any tensor sharing its bytes. Decided in execution order, so a chain of in-place
    steps shares one buffer."""
    roots = dict(alias_root)

    def root(t: int) -> int:
        while t in roots:
            t = roots[t]
        return t

    last: dict[int, int] = {}
    for s in steps:
        for t in s.op.inputs:
            if t >= 0:
                last[t] = s.position
    for t in graph.outputs:
        last[t] = len(steps)
    boundary = {root(t) for t in list(graph.inputs) + list(graph.outputs)}
    found: dict[int, int] = {}
    for s in steps:
        if s.lowering.entry not in IN_PLACE_ENTRIES or s.lowering.alias:
            continue
        out = s.op.outputs[0]
        for t in s.op.inputs:
            tensor = graph.tensors[t] if t >= 0 else None
            if tensor is None or tensor.is_constant or tensor.is_variable or tensor.nbytes != graph.tensors[out].nbytes:
                continue
            r = root(t)
            sharing = [m for m in last if root(m) == r]
            if r in boundary or max(last[m] for m in sharing) != s.position:
                continue
            found[out] = t
            roots[out] = t
            break
    return found


def plan_memory(graph, steps, alignment: int, memory_for=None, in_place: bool = True) -> MemoryLayout:
    """Lifetimes (aliases share one buffer) and scratch blocks, placed in one arena; with
    `memory_for(root, members)` naming another memory for some activations, those go to one arena
    per memory (kernel scratch stays in the scratch arena). With `in_place` (optimization.rewrites)
    and no placement rules, in_place_aliases share too when that gives a smaller arena."""
    alias_root = {s.op.outputs[0]: s.op.inputs[0] for s in steps if s.lowering.alias}
    layout = _layout(graph, steps, alignment, alias_root, memory_for)
    shared = in_place_aliases(graph, steps, alias_root) if in_place and memory_for is None else {}
    if shared:
        merged = _layout(graph, steps, alignment, {**alias_root, **shared})
        if merged.arena.arena_bytes < layout.arena.arena_bytes:
            return replace(merged, in_place=tuple(sorted(shared.items())))
    return layout


def _layout(graph, steps, alignment: int, alias_root: dict[int, int], memory_for=None) -> MemoryLayout:
    layout = MemoryLayout(ArenaPlan([], 0, 0, alignment, "", 0), alias_root, {})
    n = len(steps)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    members = layout.members

    def touch(t: int, pos: int) -> None:
        r = layout.root(t)
        first[r] = min(first.get(r, pos), pos)
        last[r] = max(last.get(r, pos), pos)
        if t not in members.setdefault(r, []):
            members[r].append(t)

    for t in graph.inputs:
        touch(t, 0)
    for s in steps:
        for t in s.op.inputs:
            if t >= 0 and not graph.tensors[t].is_constant and not graph.tensors[t].is_variable:
                touch(t, s.position)
        for t in s.op.outputs:
            touch(t, s.position)
    for t in graph.outputs:
        touch(t, n - 1)
    buffers = [Buffer(name=f"t{r}", size=graph.tensors[r].nbytes, first=first[r], last=last[r], kind="tensor",
                      tensor=r)
               for r in sorted(first) if not graph.tensors[r].is_constant]
    buffers += [Buffer(name=f"scratch{s.position}", size=s.lowering.scratch_bytes, first=s.position,
                       last=s.position, kind="scratch", op_position=s.position)
                for s in steps if s.lowering.scratch_bytes > 0]
    persistent, persistent_bytes = plan_persistent(graph, alignment, steps)
    placed: dict[int, str] = {}
    if memory_for is not None:
        for b in buffers:
            if b.kind == "tensor":
                memory = memory_for(b.tensor, members.get(b.tensor, [b.tensor]))
                if memory is not None:
                    placed[b.tensor] = memory
    extra = []
    for memory in sorted(set(placed.values())):
        mine = [b for b in buffers if b.kind == "tensor" and placed.get(b.tensor) == memory]
        extra.append((memory, plan(mine, n, alignment)))
    main = [b for b in buffers if not (b.kind == "tensor" and b.tensor in placed)]
    return MemoryLayout(plan(main, n, alignment), alias_root, members, tuple(persistent), persistent_bytes,
                        tuple(extra), tuple(sorted(placed.items())))

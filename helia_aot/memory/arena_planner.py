# SPDX-License-Identifier: Apache-2.0
"""Memory planner: lifetimes from the schedule, offsets in one scratch arena, a lower bound; variable
tensors (state) one after the other in the persistent arena.

No step scans every placed buffer per buffer (issue #25: thousands of tensors live at once). First fit
asks a segment tree over the steps for the merged byte ranges of the buffers whose lifetimes meet the new
one (_Occupancy): placing one buffer merges its bytes into O(log steps) sorted sets, O(log n) each, and
finding its offset jumps once per merged block below it in those sets, so buffers stacked without gaps
cost one jump, not one per buffer. The lower bound is one sweep; every lookup by tensor goes through an
index. tools/bench_planner.py measures it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field, replace



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

    def _index(self) -> tuple[dict[int, Buffer], dict[int, Buffer]]:
        """Tensor and scratch blocks by root tensor and by operator position (the first listed wins),
        made once: emission asks for every tensor's offset."""
        cached = self.__dict__.get("_by_key")
        if cached is None or cached[0] is not self.buffers or cached[1] != len(self.buffers):
            tensors: dict[int, Buffer] = {}
            scratch: dict[int, Buffer] = {}
            for b in self.buffers:
                if b.kind == "tensor":
                    tensors.setdefault(b.tensor, b)
                elif b.kind == "scratch":
                    scratch.setdefault(b.op_position, b)
            cached = (self.buffers, len(self.buffers), tensors, scratch)
            self.__dict__["_by_key"] = cached
        return cached[2], cached[3]

    def offset_of_tensor(self, root: int) -> int:
        return self._index()[0][root].offset

    def scratch_offset(self, position: int) -> int | None:
        block = self._index()[1].get(position)
        return None if block is None else block.offset


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def _overlaps(a: Buffer, b: Buffer) -> bool:
    return a.first <= b.last and b.first <= a.last


class _Blocks:
    """The union of the byte ranges [start, end) added, as disjoint blocks (touching ones merged), in
    two parallel lists sorted by start. Plain lists searched with `bisect` rather than a SortedList: a
    node holds few blocks (first fit packs placed buffers against each other, and touching blocks
    merge), so a C-level insert beats a balanced structure's Python-level bookkeeping many times over
    (tools/bench_planner.py: 20,000 live tensors in a fraction of the time, the same layouts)."""

    __slots__ = ("starts", "ends")

    def __init__(self):
        self.starts: list[int] = []
        self.ends: list[int] = []  # ends[k]: the end of the block starting at starts[k]

    def add(self, start: int, end: int) -> None:
        starts, ends = self.starts, self.ends
        i = bisect_right(starts, start)
        if i and ends[i - 1] >= start:  # the block before reaches (or touches) the new one
            if ends[i - 1] >= end:
                return
            i -= 1
            start = starts[i]
        j = bisect_right(starts, end, i)  # blocks i .. j - 1 start inside (or touch) the new one: absorbed
        if j > i:
            end = max(end, ends[j - 1])
            starts[i:j] = (start,)
            ends[i:j] = (end,)
        else:
            starts.insert(i, start)
            ends.insert(i, end)

    def end_of_block_meeting(self, start: int, end: int) -> int | None:
        """The end of the block sharing a byte with [start, end), None when none does."""
        i = bisect_left(self.starts, end)  # blocks before i start below `end`; only the last can reach `start`
        if i:
            block_end = self.ends[i - 1]
            if block_end > start:
                return block_end
        return None


def _blocks_of(table: dict[int, _Blocks], node: int) -> _Blocks:
    blocks = table.get(node)
    if blocks is None:
        blocks = table[node] = _Blocks()
    return blocks


class _Occupancy:
    """The byte ranges of placed buffers, by lifetime: a segment tree over the steps that bound a
    lifetime, each buffer's bytes merged into `cover` of the O(log steps) nodes whose ranges make up its
    lifetime and into `within` of those nodes and their ancestors. The buffers whose lifetimes meet
    [first, last] are then exactly those in `within` of the nodes making up [first, last] and in `cover`
    of those nodes' strict ancestors."""

    def __init__(self, buffers: list[Buffer]):
        points = sorted({b.first for b in buffers} | {b.last for b in buffers})
        # Lifetimes meet exactly when their ranks meet: the tree needs only the steps that bound one.
        self.rank = {step: i for i, step in enumerate(points)}
        self.leaves = 1
        while self.leaves < len(points):
            self.leaves *= 2
        self.cover: dict[int, _Blocks] = {}
        self.within: dict[int, _Blocks] = {}

    def _nodes(self, buf: Buffer) -> tuple[list[int], list[int]]:
        """The nodes making up buf's lifetime, and their strict ancestors."""
        lo, hi = self.rank[buf.first] + self.leaves, self.rank[buf.last] + self.leaves + 1
        covering = []
        while lo < hi:
            if lo & 1:
                covering.append(lo)
                lo += 1
            if hi & 1:
                hi -= 1
                covering.append(hi)
            lo, hi = lo >> 1, hi >> 1
        ancestors: set[int] = set()
        for node in covering:
            node >>= 1
            while node and node not in ancestors:
                ancestors.add(node)
                node >>= 1
        return covering, sorted(ancestors)

    def lowest_free(self, buf: Buffer, size: int) -> tuple[int, tuple]:
        """The lowest offset where `size` bytes meet no placed buffer live at the same time as `buf`
        (and buf's nodes, for add)."""
        nodes = covering, ancestors = self._nodes(buf)
        sets = [self.within[n] for n in covering if n in self.within]
        sets += [self.cover[n] for n in ancestors if n in self.cover]
        offset, moved = 0, True
        while moved:
            moved = False
            for blocks in sets:
                end = blocks.end_of_block_meeting(offset, offset + size)
                if end is not None:
                    offset, moved = end, True
        return offset, nodes

    def add(self, nodes: tuple, start: int, end: int) -> None:
        if end <= start:
            return  # no bytes: nothing can meet it
        covering, ancestors = nodes
        for node in covering:
            if node < self.leaves:  # a leaf is nobody's ancestor: its `cover` would never be read
                _blocks_of(self.cover, node).add(start, end)
            _blocks_of(self.within, node).add(start, end)
        for node in ancestors:
            _blocks_of(self.within, node).add(start, end)


def _place(order: list[Buffer], alignment: int) -> int:
    """First fit in the given order: each buffer at the lowest offset whose bytes meet no already placed
    buffer whose lifetime meets its own (offsets and sizes aligned, so every candidate offset is)."""
    occupancy = _Occupancy(order)
    arena = 0
    for buf in order:
        size = _align(buf.size, alignment)
        buf.offset, nodes = occupancy.lowest_free(buf, size)
        occupancy.add(nodes, buf.offset, buf.offset + size)
        arena = max(arena, buf.offset + size)
    return arena


_ORDERINGS = {
    # TFLM's greedy planner order: largest first, then earliest.
    "size_desc": lambda b: (-b.size, b.first, b.name),
    "area_desc": lambda b: (-b.size * (b.last - b.first + 1), b.first, b.name),
    "lifetime_desc": lambda b: (-(b.last - b.first), -b.size, b.name),
    "first_use": lambda b: (b.first, -b.size, b.name),
    "peak_first": None,  # filled in per call: buffers live at the peak step first, largest first
}


def live_bytes(buffers: list[Buffer], steps: int) -> list[int]:
    """Sum of the sizes of the buffers live at each step 0 .. steps - 1 (one sweep over the lifetimes)."""
    change = [0] * (steps + 1)
    for b in buffers:
        first, last = max(b.first, 0), min(b.last, steps - 1)
        if first <= last:
            change[first] += b.size
            change[last + 1] -= b.size
    live, total = [], 0
    for step in range(steps):
        total += change[step]
        live.append(total)
    return live


def lower_bound(buffers: list[Buffer], steps: int) -> tuple[int, int]:
    """Largest sum of sizes live at one step (the first such step): no placement can use less arena."""
    best, best_step = 0, 0
    for s, total in enumerate(live_bytes(buffers, steps)):
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
        elif tensor.reset_code:
            initial, fill = "zero_point", tensor.reset_code & 0xFF
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


def resolve_roots(alias_root: dict[int, int]) -> dict[int, int]:
    """Every tensor of `alias_root` -> the end of its chain (the tensor owning the bytes), each chain walked once."""
    resolved: dict[int, int] = {}
    for start in alias_root:
        chain, t = [], start
        while t in alias_root and t not in resolved:
            chain.append(t)
            t = alias_root[t]
        root = resolved.get(t, t)
        for member in chain:
            resolved[member] = root
    return resolved


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
    in_place: tuple[tuple[int, int], ...] = ()  # (output, input) pairs computed in place (in_place_aliases)
    # Indexes of the fields above, made once (emission looks up every tensor): not part of the value.
    _roots: dict[int, int] = field(init=False, repr=False, compare=False)
    _memory_of_root: dict[int, str] = field(init=False, repr=False, compare=False)
    _extra_by_memory: dict[str, ArenaPlan] = field(init=False, repr=False, compare=False)
    _persistent_of_tensor: dict[int, int] = field(init=False, repr=False, compare=False)
    _state_offsets: dict[tuple[int, str], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        persistent, state = {}, {}
        for b in self.persistent:
            if b.tensor is not None:
                persistent.setdefault(b.tensor, b.offset)
            else:
                state.setdefault((b.op_position, b.suffix), b.offset)
        for name, value in (("_roots", resolve_roots(self.alias_root)),
                            ("_memory_of_root", self._first_of(self.tensor_memory)),
                            ("_extra_by_memory", dict(self.extra)),
                            ("_persistent_of_tensor", persistent), ("_state_offsets", state)):
            object.__setattr__(self, name, value)

    @staticmethod
    def _first_of(pairs) -> dict:
        out: dict = {}
        for key, value in pairs:
            out.setdefault(key, value)
        return out

    def arena_of(self, tensor: int) -> str | None:
        """The memory of the extra arena holding `tensor`, or None for the scratch arena."""
        return self._memory_of_root.get(self.root(tensor))

    def root(self, tensor: int) -> int:
        return self._roots.get(tensor, tensor)

    def tensor_offset(self, tensor: int) -> int:
        memory = self.arena_of(tensor)
        if memory is not None:
            return self._extra_by_memory[memory].offset_of_tensor(self.root(tensor))
        return self.arena.offset_of_tensor(self.root(tensor))

    def persistent_offset(self, tensor: int) -> int | None:
        """Offset of a variable tensor in the persistent arena; None for any other tensor."""
        return self._persistent_of_tensor.get(tensor)

    def state_offset(self, position: int, suffix: str) -> int:
        """Offset of an operator's internal state (Lowered.state) in the persistent arena."""
        try:
            return self._state_offsets[(position, suffix)]
        except KeyError:
            raise KeyError((position, suffix)) from None


# Entries that compute element i from element i of each input only, every block of elements read before
# it is written (checked in ns-cmsis-nn's MVE, DSP and plain paths and the portable kernels): their output
# may be one of their inputs.
IN_PLACE_ENTRIES = ("arm_elementwise_add_s8", "arm_elementwise_sub_s8", "arm_elementwise_mul_s8")


class _Groups:
    """Tensors sharing bytes, as a union-find forest over `alias_root` (path halving keeps every lookup
    short), with the last step reading any tensor of each group."""

    def __init__(self, alias_root: dict[int, int], last: dict[int, int]):
        self.parent = dict(alias_root)
        self.last: dict[int, int] = {}
        for t, position in last.items():
            r = self.root(t)
            self.last[r] = max(self.last.get(r, position), position)

    def root(self, t: int) -> int:
        parent = self.parent
        while t in parent:
            up = parent[t]
            if up in parent:
                parent[t] = parent[up]
            t = up
        return t

    def join(self, root: int, into: int) -> None:
        """`root` (a group's root) and its group now share `into`'s bytes."""
        self.parent[root] = into
        if root in self.last:
            r = self.root(into)
            self.last[r] = max(self.last.get(r, -1), self.last.pop(root))


def in_place_aliases(graph, steps, alias_root: dict[int, int]) -> dict[int, int]:
    """Outputs of in-place-capable steps that can take an input's bytes (output tensor -> input tensor):
    the input is an activation no graph input or output shares, of the output's size, and this step is
    the last to read any tensor sharing its bytes. Decided in execution order, so a chain of in-place
    steps shares one buffer."""
    last: dict[int, int] = {}
    for s in steps:
        for t in s.op.inputs:
            if t >= 0:
                last[t] = s.position
    for t in graph.outputs:
        last[t] = len(steps)
    groups = _Groups(alias_root, last)
    boundary = {groups.root(t) for t in list(graph.inputs) + list(graph.outputs)}
    found: dict[int, int] = {}
    for s in steps:
        if s.lowering.entry not in IN_PLACE_ENTRIES or s.lowering.alias:
            continue
        out = s.op.outputs[0]
        for t in s.op.inputs:
            tensor = graph.tensors[t] if t >= 0 else None
            if tensor is None or tensor.is_constant or tensor.is_variable or tensor.nbytes != graph.tensors[out].nbytes:
                continue
            r = groups.root(t)
            if r in boundary or groups.last[r] != s.position:
                continue
            found[out] = t
            # The verifier lets one operator write a tensor: `out`, written here, is no alias yet.
            groups.join(out, t)
            break
    return found


def plan_memory(graph, steps, alignment: int, memory_for=None, in_place: bool = True, adjust=None,
                keep_in_place=None) -> MemoryLayout:
    """Lifetimes (aliases share one buffer) and scratch blocks, placed in one arena; with
    `memory_for(root, members)` naming another memory for some activations, those go to one arena
    per memory (kernel scratch stays in the scratch arena). With `in_place` (optimization.rewrites)
    and no placement rules, in_place_aliases share too when that gives a smaller arena.
    `adjust(buffers)` may resize and extend buffers before placing, and `keep_in_place(out, input)`
    veto in-place pairs (patch-based execution, helia_aot.memory.patches)."""
    alias_root = {s.op.outputs[0]: s.op.inputs[0] for s in steps if s.lowering.alias}
    layout = _layout(graph, steps, alignment, alias_root, memory_for, adjust)
    shared = in_place_aliases(graph, steps, alias_root) if in_place and memory_for is None else {}
    if keep_in_place is not None:
        shared = {out: inp for out, inp in shared.items() if keep_in_place(out, inp)}
    if shared:
        merged = _layout(graph, steps, alignment, {**alias_root, **shared}, None, adjust)
        if merged.arena.arena_bytes < layout.arena.arena_bytes:
            return replace(merged, in_place=tuple(sorted(shared.items())))
    return layout


def _layout(graph, steps, alignment: int, alias_root: dict[int, int], memory_for=None, adjust=None) -> MemoryLayout:
    roots = resolve_roots(alias_root)
    n = len(steps)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    members: dict[int, list[int]] = {}
    seen: set[int] = set()

    def touch(t: int, pos: int) -> None:
        r = roots.get(t, t)
        first[r] = min(first.get(r, pos), pos)
        last[r] = max(last.get(r, pos), pos)
        if t not in seen:
            seen.add(t)
            members.setdefault(r, []).append(t)

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
    if adjust is not None:
        adjust(buffers)
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

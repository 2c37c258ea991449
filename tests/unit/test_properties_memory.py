# SPDX-License-Identifier: Apache-2.0
"""Invariants of the memory planner and the stream pool, as properties over generated graphs (issue #26):
RESHAPE chains, in-place-capable ADDs, constants shared between operators, variable tensors, placement
rules moving activations to another arena, scratch blocks.

The planner's layout is checked by running the graph over its arenas byte by byte: every operator
checks that each input's bytes still hold that input's value, then writes its scratch and its outputs
(an alias step writes nothing: its output is its input's value). So no buffer live at the same time
as another may share its bytes, and an in-place write may only land on a value nobody reads later,
through any alias. The stream schedule is checked against its pool the same way."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings, strategies as st

from helia_aot.ir.graph import Tensor
from helia_aot.memory import arena_planner, streaming
from helia_aot.record import plan_model
from tests.unit import property_profile  # noqa: F401  (the derandomized profile)

ADD = arena_planner.IN_PLACE_ENTRIES[0]
SIZES = (8, 16, 24, 40, 64)
# Most activations one size, so ADDs (in place when they can) and RESHAPE chains of their operands abound.
ACTIVATION_SIZES = (16, 16, 16, 40)


def _step(position, inputs, outputs, entry="op", alias=False, scratch=0):
    return SimpleNamespace(position=position, op=SimpleNamespace(inputs=list(inputs), outputs=list(outputs)),
                           lowering=SimpleNamespace(alias=alias, scratch_bytes=scratch, entry=entry, state=[]))


class _Graph:
    """A graph under construction: int8 vectors, one operator per step."""

    def __init__(self):
        self.tensors, self.steps, self.inputs, self.outputs = [], [], [], []

    def tensor(self, size, constant=False, variable=False):
        data = np.zeros(size, np.int8) if constant else None
        self.tensors.append(Tensor(len(self.tensors), f"t{len(self.tensors)}", (size,), "int8", data=data,
                                   is_variable=variable))
        return len(self.tensors) - 1

    def step(self, inputs, outputs, **kwargs):
        self.steps.append(_step(len(self.steps), inputs, outputs, **kwargs))
        return outputs[0]

    def done(self):
        return SimpleNamespace(tensors=self.tensors, operators=[s.op for s in self.steps], inputs=self.inputs,
                               outputs=self.outputs), self.steps


@st.composite
def graphs(draw):
    """A valid schedule: every tensor written once, read only after it is written; RESHAPE outputs the size of
    their input, ADD (in-place capable) of two activations of one size."""
    g = _Graph()
    activations = []
    for _ in range(draw(st.integers(1, 2))):
        t = g.tensor(draw(st.sampled_from(ACTIVATION_SIZES)))
        g.inputs.append(t)
        activations.append(t)
    constants = [g.tensor(draw(st.sampled_from(SIZES)), constant=True) for _ in range(draw(st.integers(0, 2)))]
    variables = [g.tensor(draw(st.sampled_from(SIZES)), variable=True) for _ in range(draw(st.integers(0, 1)))]
    for _ in range(draw(st.integers(1, 14))):
        kind = draw(st.sampled_from(("op", "reshape", "reshape", "add", "add", "add")))
        if kind == "reshape":
            source = draw(st.sampled_from(activations))
            out = g.step([source], [g.tensor(g.tensors[source].nbytes)], alias=True, entry=None)
        elif kind == "add":
            first = draw(st.sampled_from(activations))
            same = [t for t in activations if g.tensors[t].nbytes == g.tensors[first].nbytes]
            out = g.step([first, draw(st.sampled_from(same))], [g.tensor(g.tensors[first].nbytes)], entry=ADD,
                         scratch=draw(st.sampled_from((0, 0, 8))))
        else:
            reads = draw(st.lists(st.sampled_from(activations), min_size=1, max_size=3))
            reads += draw(st.lists(st.sampled_from(constants), max_size=2)) if constants else []
            reads += draw(st.lists(st.sampled_from(variables), max_size=1)) if variables else []
            outs = [g.tensor(draw(st.sampled_from(ACTIVATION_SIZES + SIZES))) for _ in range(draw(st.integers(1, 2)))]
            out = g.step(reads, outs, scratch=draw(st.sampled_from((0, 0, 8, 24))))
            activations.extend(outs[1:])
        activations.append(out)
    g.outputs.append(activations[-1])
    g.outputs.extend(t for t in draw(st.lists(st.sampled_from(activations), max_size=2)) if t not in g.outputs)
    return g.done()


def _buffers_apart(arena: arena_planner.ArenaPlan) -> None:
    """No two buffers whose lifetimes meet share a byte."""
    for i, a in enumerate(arena.buffers):
        assert 0 <= a.offset and a.offset + a.size <= arena.arena_bytes, a
        for b in arena.buffers[i + 1:]:
            if a.first <= b.last and b.first <= a.last and a.size and b.size:
                assert a.offset + a.size <= b.offset or b.offset + b.size <= a.offset, (a, b)


def run_over_arenas(graph, steps, layout) -> None:
    """Run the schedule over the layout's arenas, one value tag per byte (see the module docstring)."""
    arenas = {None: [None] * layout.arena.arena_bytes}
    arenas.update({memory: [None] * plan.arena_bytes for memory, plan in layout.extra})
    value = {}

    def place(t):
        return layout.arena_of(t), layout.tensor_offset(t), graph.tensors[t].nbytes

    def meet(a, b):
        return a[0] == b[0] and a[1] < b[1] + b[2] and b[1] < a[1] + a[2] and a[2] and b[2]

    def write(where, tag):
        memory, offset, size = where
        arenas[memory][offset:offset + size] = [tag] * size

    def check(t, when):
        memory, offset, size = place(t)
        held = set(arenas[memory][offset:offset + size])
        assert held <= {value[t]}, f"{when}: tensor {t} (value of t{value[t]}) holds {held - {value[t]}}"

    activation = [not (t.is_constant or t.is_variable) for t in graph.tensors]
    for t in graph.inputs:
        value[t] = t
        write(place(t), t)
    in_place = set(layout.in_place)
    for s in steps:
        reads = [t for t in s.op.inputs if t >= 0 and activation[t]]
        for t in reads:
            check(t, f"step {s.position} reads")
        if s.lowering.alias:
            out, source = s.op.outputs[0], s.op.inputs[0]
            assert place(out) == place(source)
            value[out] = value[source]
            continue
        scratch = layout.arena.scratch_offset(s.position)
        if s.lowering.scratch_bytes:
            block = (None, scratch, s.lowering.scratch_bytes)
            assert not any(meet(block, place(t)) for t in [*reads, *s.op.outputs]), f"step {s.position} scratch"
            write(block, ("scratch", s.position))
        for out in s.op.outputs:
            for t in reads:
                if meet(place(out), place(t)):
                    # Only an in-place entry's output, on exactly the bytes of the input it was given.
                    given_bytes = {place(i) for o, i in in_place if o == out}
                    assert given_bytes == {place(out)} == {place(t)}, f"step {s.position}: t{out} over t{t}"
            value[out] = out
            write(place(out), out)
    for t in graph.outputs:
        check(t, "the end of the run")


def _persistent_apart(layout) -> None:
    spans = sorted((b.offset, b.offset + b.size) for b in layout.persistent)
    assert all(end <= start for (_, end), (start, _) in zip(spans, spans[1:]))
    assert all(end <= layout.persistent_bytes for _, end in spans)


@settings(max_examples=250)
@given(graphs(), st.sampled_from((1, 4, 16)), st.booleans())
def test_no_two_live_buffers_share_bytes_and_in_place_writes_kill_only_dead_values(graph_steps, alignment, in_place):
    graph, steps = graph_steps
    layout = arena_planner.plan_memory(graph, steps, alignment, in_place=in_place)
    _buffers_apart(layout.arena)
    _persistent_apart(layout)
    run_over_arenas(graph, steps, layout)
    if not in_place:
        assert layout.in_place == ()


@settings(max_examples=100)
@given(graphs(), st.sampled_from((1, 16)), st.data())
def test_placement_rules_keep_every_arena_apart(graph_steps, alignment, data):
    """memory_for (the placement rules) moving some activations to other arenas: each arena is sound on its
    own, and no tensor is in two."""
    graph, steps = graph_steps
    moved = data.draw(st.dictionaries(st.integers(0, len(graph.tensors) - 1), st.sampled_from(("SRAM", "DTCM"))))
    layout = arena_planner.plan_memory(graph, steps, alignment, lambda root, members: moved.get(root))
    assert layout.in_place == ()  # rules turn in-place sharing off
    for plan in (layout.arena, *(p for _, p in layout.extra)):
        _buffers_apart(plan)
    assert dict(layout.tensor_memory) == {r: m for r, m in moved.items() if r in dict(layout.tensor_memory)}
    run_over_arenas(graph, steps, layout)


def test_in_place_sharing_waits_for_every_reshape_of_the_dying_input():
    """a = ADD(x, x); r = RESHAPE(a); c = ADD(a, a); r2 = RESHAPE(r); d = ADD(c, r2): a's last direct reader
    is c, but r2 (a's bytes) is read by d after it, so c must not take a's bytes."""
    g = _Graph()
    x = g.tensor(16)
    g.inputs.append(x)
    a = g.step([x, x], [g.tensor(16)], entry=ADD)
    r = g.step([a], [g.tensor(16)], alias=True, entry=None)
    c = g.step([a, a], [g.tensor(16)], entry=ADD)
    r2 = g.step([r], [g.tensor(16)], alias=True, entry=None)
    d = g.step([c, r2], [g.tensor(16)], entry=ADD)
    g.outputs.append(d)
    graph, steps = g.done()
    assert arena_planner.in_place_aliases(graph, steps, {r: a, r2: r}) == {d: c}
    layout = arena_planner.plan_memory(graph, steps, 4)
    assert layout.tensor_offset(c) != layout.tensor_offset(a)
    run_over_arenas(graph, steps, layout)


def _first_fit_against_every_conflict(order, alignment):
    """First fit as the planner did it before issue #25: every placed buffer whose lifetime meets the new
    one, in offset order, walked until a gap fits. Quadratic, and the reference for the segment tree."""
    placed, arena = [], 0
    for buf in order:
        size = arena_planner._align(buf.size, alignment)
        offset = 0
        for p in sorted((p for p in placed if p.first <= buf.last and buf.first <= p.last), key=lambda p: p.offset):
            if offset + size <= p.offset:
                break
            offset = max(offset, p.offset + arena_planner._align(p.size, alignment))
        buf.offset = offset
        placed.append(buf)
        arena = max(arena, offset + size)
    return arena


@st.composite
def buffer_sets(draw):
    steps = draw(st.integers(1, 40))
    out = []
    for i in range(draw(st.integers(0, 80))):
        first = draw(st.integers(0, steps - 1))
        last = draw(st.integers(first, min(steps - 1, first + draw(st.sampled_from((0, 2, 8, steps))))))
        out.append(arena_planner.Buffer(f"b{i}", draw(st.sampled_from((0, 1, 7, 16, 24, 100, 256))), first, last,
                                        "tensor", tensor=i))
    return out


@settings(max_examples=150)
@given(buffer_sets(), st.sampled_from((1, 4, 16)), st.randoms(use_true_random=False))
def test_first_fit_by_segment_tree_is_first_fit_against_every_conflict(buffers, alignment, rng):
    order = list(buffers)
    rng.shuffle(order)
    arena = arena_planner._place(order, alignment)
    offsets = [b.offset for b in buffers]
    assert (arena, offsets) == (_first_fit_against_every_conflict(order, alignment), [b.offset for b in buffers])


# -- the stream pool --------------------------------------------------------------------------------------


@st.composite
def stream_candidates(draw):
    operators = draw(st.integers(1, 10))
    candidates = []
    for i in range(draw(st.integers(1, 8))):
        readers = tuple(sorted(draw(st.sets(st.integers(0, operators - 1), min_size=1, max_size=3))))
        candidates.append(streaming.Candidate(f"c{i}", f"sym{i}", draw(st.integers(1, 300)),
                                              draw(st.sampled_from((1, 4, 16))),
                                              draw(st.sampled_from(("SRAM", "SRAM", "MRAM"))), readers))
    # None: a pool just the largest constant's size, so units end exactly at its last byte.
    pool = draw(st.sampled_from((16, 64, 256, 1024, None)))
    return candidates, pool or max(c.bytes for c in candidates)


def check_schedule(schedule: streaming.Schedule, candidates, pool_bytes: int) -> None:
    """Each unit copied after the previous user of its pool bytes is done with them and waited on before
    its first reader; every candidate streamed once or dropped; source spans apart per memory."""
    streamed = [c for u in schedule.units for c in u.tensors]
    dropped = [c for c, _ in schedule.dropped]
    assert sorted(c.id for c in streamed + dropped) == sorted(c.id for c in candidates)
    for u in schedule.units:
        assert u.tensors and u.pool_offset % u.alignment == 0 and u.pool_offset + u.bytes <= pool_bytes
        readers = [r for c in u.tensors for r in c.readers]
        assert u.issue_position < u.wait_before == min(readers) and u.last_reader == max(readers)
        for c, offset in zip(u.tensors, u.offsets):
            assert offset % c.alignment == 0 and offset + c.bytes <= u.bytes
        assert len({c.memory for c in u.tensors}) == 1 and u.source_memory == u.tensors[0].memory
    for i, u in enumerate(schedule.units):
        for v in schedule.units[i + 1:]:
            if u.pool_offset < v.pool_offset + v.bytes and v.pool_offset < u.pool_offset + u.bytes:
                earlier, later = sorted((u, v), key=lambda w: (w.issue_position, w.id))
                assert later.issue_position >= earlier.last_reader, (
                    f"unit {later.id} is copied after operator {later.issue_position} into the pool bytes of "
                    f"unit {earlier.id}, still read by operator {earlier.last_reader}")
            if u.source_memory == v.source_memory:
                assert (u.source_offset + u.bytes <= v.source_offset
                        or v.source_offset + v.bytes <= u.source_offset)


@settings(max_examples=300)
@given(stream_candidates())
def test_stream_units_wait_for_their_pool_bytes_and_arrive_before_their_readers(drawn):
    candidates, pool_bytes = drawn
    check_schedule(streaming.compute(candidates, pool_bytes, "cpu"), candidates, pool_bytes)


def test_a_unit_left_by_a_constant_of_another_memory_ends_with_its_own_last_reader():
    """c1 (stored in MRAM) leaves c0's unit (SRAM): the unit's last reader is c0's, operator 0, as a plan read
    back derives it; the plan a conversion wrote was refused ('last_reader is stated as op1')."""
    c0 = streaming.Candidate("c0", "c0", 16, 16, "SRAM", (0,))
    c1 = streaming.Candidate("c1", "c1", 16, 16, "MRAM", (0, 1))
    schedule = streaming.compute([c0, c1], 256, "cpu")
    assert [(u.tensors, u.wait_before, u.last_reader) for u in schedule.units] == [([c0], 0, 0)]
    assert schedule.dropped == [(c1, "stored in MRAM, not SRAM like its unit")]
    check_schedule(schedule, [c0, c1], 256)


def test_a_unit_never_lands_on_a_shared_weight_before_its_last_reader():
    """w is read by operators 0 and 2; x first by operator 2, so its copy is issued after operator 1, while
    w's bytes are still to be read by operator 2: x must go beside w in the pool."""
    w = streaming.Candidate("w", "w", 64, 16, "SRAM", (0, 2))
    x = streaming.Candidate("x", "x", 64, 16, "SRAM", (2,))
    schedule = streaming.compute([w, x], 256, "cpu")
    assert [(u.tensors, u.issue_position, u.pool_offset) for u in schedule.units] == [([w], -1, 0), ([x], 1, 64)]
    check_schedule(schedule, [w, x], 256)


@settings(max_examples=150)
@given(stream_candidates())
def test_a_computed_schedule_stated_as_a_plan_is_accepted_as_it_is(drawn):
    """The schedule a conversion writes, read back from its plan (optimization.plan), passes every check of
    from_plan and gives the same units: the checks and the computation agree on what a sound schedule is."""
    candidates, pool_bytes = drawn
    computed = streaming.compute(candidates, pool_bytes, "cpu")
    operators = 1 + max(r for c in candidates for r in c.readers)
    op_ids = [f"op{i}" for i in range(operators)]
    given = plan_model.Schedule(source="plan", pool=None, units=[
        plan_model.ScheduleUnit(id=u.id, tensors=[c.id for c in u.tensors], pool_offset=u.pool_offset,
                                issue_after=op_ids[u.issue_position] if u.issue_position >= 0 else None,
                                engine="cpu", bytes=u.bytes, source_memory=u.source_memory, source_offset=None,
                                wait_before=op_ids[u.wait_before], last_reader=op_ids[u.last_reader])
        for u in computed.units])
    pool = SimpleNamespace(memory="DTCM", bytes=pool_bytes, alignment=16, engine="cpu")
    replayed = streaming.from_plan(given, candidates, pool, op_ids, {}, {})
    key = lambda u: (u.id, [c.id for c in u.tensors], u.offsets, u.bytes, u.issue_position, u.wait_before,  # noqa: E731
                     u.last_reader, u.pool_offset, u.source_memory, u.source_offset)
    assert [key(u) for u in replayed.units] == [key(u) for u in computed.units]
    check_schedule(replayed, candidates, pool_bytes)

# SPDX-License-Identifier: Apache-2.0
"""The report builder (helia_aot/record/plan_writer.py) on hand-made stage results: memory warnings at their
exact limits, the kernel-call index, unrecorded operators, totals, ratio and peak operator. Written to
kill the mutants mutmut left alive in plan_writer.py."""

from __future__ import annotations

from types import SimpleNamespace

from helia_aot.record import plan_writer
from helia_aot.memory import arena_planner as planner
from helia_aot.record.plan_model import Arena, KernelCall
from helia_aot.config.targets import Memory, Target

TARGET = Target("t", "cortex-m55", ("dsp", "mve"), (Memory("ROM", 1000, writable=False), Memory("RAM", 500),
                                                    Memory("DTCM", 300)), "RAM", "ROM")


def _step(position, op_id, entry="arm_x", alias=False, macs=0, scratch=0):
    return SimpleNamespace(position=position, op_id=op_id, op=SimpleNamespace(op_type="ADD", inputs=(), outputs=()),
                           lowering=SimpleNamespace(alias=alias, entry=entry, macs=macs, scratch_bytes=scratch))


def _report(arena=100, bound=80, peak_step=1, persistent=0, persistent_memory="RAM", const_bytes=10, steps=None,
            calls=None, warnings=()):
    steps = steps if steps is not None else [_step(0, "a", macs=5, scratch=3), _step(1, "b", macs=7)]
    code = [SimpleNamespace(calls=c) for c in (calls if calls is not None else [["k1"], ["k2", "k1"]])]
    layout = planner.MemoryLayout(planner.ArenaPlan([], arena, bound, 16, "size_desc", peak_step), {}, {},
                                  (), persistent, persistent_memory=persistent_memory)
    table = SimpleNamespace(total_bytes=const_bytes, operator_bytes={0: 4, 1: 6})
    options = SimpleNamespace(target=TARGET, prefix="m")
    plan = SimpleNamespace(interface="i", generator="g", model="mod", platform="p", kernel_library="kl")
    return plan_writer.build_report(plan, steps, code, layout, table, options, list(warnings))


def test_report_totals_calls_and_operators():
    r = _report(warnings=["repaired"])
    assert (r.generator, r.model, r.platform, r.kernel_library, r.module_prefix) == ("g", "mod", "p", "kl", "m")
    assert [(o.id, o.index, o.op_type, o.entry, o.macs, o.local_scratch_bytes, o.constant_bytes)
            for o in r.operators] == [("a", 0, "ADD", "arm_x", 5, 3, 4), ("b", 1, "ADD", "arm_x", 7, 0, 6)]
    assert r.total_macs == 12
    assert r.kernel_calls == [KernelCall("k1", ["a", "b"]), KernelCall("k2", ["b"])]
    assert r.unrecorded_operator_ids == []
    assert r.arenas == [Arena("RAM", "scratch", 100), Arena("ROM", "constant", 10), Arena("RAM", "persistent", 0)]
    m = r.memory
    assert (m.scratch_arena_bytes, m.lower_bound_bytes, m.ratio, m.peak_operator, m.constant_bytes, m.io_in_arena) \
        == (100, 80, 1.25, "b", 10, True)
    assert r.warnings == ["repaired"]


def test_report_ratio_rounds_to_four_places_and_is_one_without_a_bound():
    assert _report(arena=200, bound=3).memory.ratio == 66.6667
    assert _report(arena=0, bound=0).memory.ratio == 1.0
    assert _report(peak_step=0).memory.peak_operator == "a"
    assert _report(steps=[], calls=[]).memory.peak_operator is None


def test_unrecorded_operators_are_those_with_no_entry_no_call_and_no_alias():
    steps = [_step(0, "call", entry=None), _step(1, "none", entry=None), _step(2, "alias", entry=None, alias=True),
             _step(3, "entry")]
    r = _report(steps=steps, calls=[["k"], [], [], []])
    assert r.unrecorded_operator_ids == ["none"]


def test_scratch_and_constant_warnings_at_their_limits():
    assert _report(arena=500, const_bytes=1000).warnings == []
    r = _report(arena=501, const_bytes=1001, warnings=["repaired"])
    assert r.warnings == ["repaired",
                          "scratch arena 501 B exceeds RAM (500 B); set memory.scratch_memory to a larger writable memory of the target (`helia-aot targets` lists them) or try optimization.goal size",
                          "constants 1001 B exceed ROM (1000 B); set memory.constant_memory to a larger memory of the target (`helia-aot targets` lists them) or convert for a target with more memory"]


def test_persistent_warning_counts_the_scratch_arena_only_in_the_same_memory():
    # Persistent arena in the scratch memory (RAM, 500 B): both arenas count.
    assert _report(arena=300, persistent=200).warnings == []
    assert _report(arena=300, persistent=201).warnings == [
        "persistent arena 201 B and scratch arena 300 B exceed RAM (500 B)"
        "; set memory.persistent_memory to another writable memory of the target (`helia-aot targets` lists them)"]
    # In DTCM (300 B) it is alone there.
    assert _report(arena=400, persistent=300, persistent_memory="DTCM").warnings == []
    assert _report(arena=400, persistent=301, persistent_memory="DTCM").warnings == [
        "persistent arena 301 B exceed DTCM (300 B)"
        "; set memory.persistent_memory to another writable memory of the target (`helia-aot targets` lists them)"]
    # No persistent arena, no warning whatever the scratch arena.
    assert _report(arena=500, persistent=0).warnings == []

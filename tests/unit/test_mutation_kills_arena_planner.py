# SPDX-License-Identifier: Apache-2.0
"""In-place sharing (helia_aot/memory/arena_planner.py in_place_aliases) cases that mutants showed untested
(tests/MUTATION.md, 2026-12-02): two in-place chains side by side each keep their own lifetime, so the
shorter one can still be written over where it dies."""

from __future__ import annotations

from helia_aot.config import options as options_mod
from helia_aot.frontend import litert
from helia_aot.lowering import lower as lowering, verifier
from helia_aot.memory import arena_planner as planner
from tests.modelgen import ModelBuilder


def _add(b, name, lhs, rhs):
    out = b.tensor(name, (1, 16), "int8", 0.1, 0)
    b.op("ADD", [lhs, rhs], [out], {"fused_activation_function": "NONE"})
    return out


def test_two_in_place_chains_keep_their_own_lifetimes():
    """u, v = ADD(x, y); a = ADD(u, u); b = ADD(v, v); c = ADD(b, b); d = ADD(a, c). a over u and b over v
    (each input dies there); c over b although a (the other chain) lives on to d; d over a."""
    b = ModelBuilder()
    x = b.input("x", (1, 16), "int8", 0.05, -3)
    y = b.input("y", (1, 16), "int8", 0.05, -3)
    u, v = _add(b, "u", x, y), _add(b, "v", x, y)
    a = _add(b, "a", u, u)
    bb = _add(b, "b", v, v)
    c = _add(b, "c", bb, bb)
    b.output(_add(b, "d", a, c))
    graph, _ = verifier.verify(litert.load(b.build(), "chains", 0), "chains")
    opts = options_mod.resolve(None)
    graph = lowering.prepare(graph, opts, "chains")
    steps = lowering.lower(graph, opts)
    found = planner.in_place_aliases(graph, steps, {})
    names = {graph.tensors[o].name: graph.tensors[i].name for o, i in found.items()}
    assert names == {"a": "u", "b": "v", "c": "b", "d": "a"}

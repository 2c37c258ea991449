# SPDX-License-Identifier: Apache-2.0
"""Whole-graph rewrites that remove work without changing any output bit (optimization.rewrites).

Each pass lives in its own module and exposes `consider(graph, op)`: None when the operator is not
the pass's kind, a string saying why it does not fire, or (rewritten graph, Record). `apply` runs the
passes in order over the prepared graph, each until nothing more fires, and keeps the records in
Graph.rewrites for the plan (plan.json "rewrites"). Operators keep their source index, so a record
names operators as the plan does: removed ones by their id before the rewrites, the absorbing one by
its id after them.
"""

from __future__ import annotations

from dataclasses import replace

from helia_aot.ir.graph import Graph
from helia_aot.lowering.operator_ids import operator_ids
from helia_aot.lowering.rewrites import elide_copies, fold_clamp, fold_pad
from helia_aot.lowering.rewrites.graph_edit import Record

# Copies first (an identity QUANTIZE between a convolution and its RELU would hide the clamp), then PADs,
# then clamps.
PASSES = (elide_copies, fold_pad, fold_clamp)


def run_pass(graph: Graph, module) -> tuple[Graph, list[Record]]:
    """Apply one pass until it fires nowhere; operators are considered in execution order."""
    records: list[Record] = []
    changed = True
    while changed:
        changed = False
        for op in graph.operators:
            found = module.consider(graph, op)
            if found is None or isinstance(found, str):
                continue
            graph, record = found
            records.append(record)
            changed = True
            break
    return graph, records


def refusals(graph: Graph) -> list[tuple[str, int, str]]:
    """(pass, source operator index, reason) for every operator a pass looked at and left alone."""
    found = []
    for module in PASSES:
        for op in graph.operators:
            why = module.consider(graph, op)
            if isinstance(why, str):
                found.append((module.NAME, op.index, why))
    return found


def apply(graph: Graph, enabled: bool = True) -> Graph:
    """The graph with every pass applied (or unchanged when disabled); its `rewrites` lists the records
    as plan entries: {"rewrite", "removed": [operator ids], "into": operator id or None, "detail"}."""
    if not enabled:
        return replace(graph, rewrites=[])
    before = {op.index: op_id for op, (op_id, _) in zip(graph.operators, operator_ids(graph))}
    records: list[Record] = []
    for module in PASSES:
        graph, found = run_pass(graph, module)
        records += found
    after = {op.index: op_id for op, (op_id, _) in zip(graph.operators, operator_ids(graph))}
    entries = [{"rewrite": r.rewrite, "removed": [before[i] for i in r.removed],
                "into": after[r.into] if r.into is not None else None, "detail": r.detail} for r in records]
    return replace(graph, rewrites=entries)

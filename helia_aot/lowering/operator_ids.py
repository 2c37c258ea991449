# SPDX-License-Identifier: Apache-2.0
"""Operators' stable ids: what the plan, the report, `operators` rules and placement rules name an
operator by. Stable across re-exports of the same model because they come from output names."""

from __future__ import annotations

from helia_aot.ir.graph import Graph


def operator_ids(graph: Graph) -> list[tuple[str, str]]:
    """Stable ids "<subgraph>:<first output name>", #1/#2 on repeats, fallback "<op_type>@<pos>"."""
    names = [graph.tensors[op.outputs[0]].name if op.outputs else "" for op in graph.operators]
    counts: dict[str, int] = {}
    for n in names:
        if n:
            counts[n] = counts.get(n, 0) + 1
    seen: dict[str, int] = {}
    result = []
    for pos, (op, n) in enumerate(zip(graph.operators, names)):
        if not n:
            result.append((f"{graph.name}:{op.op_type}@{pos}", "fallback"))
        elif counts[n] > 1:
            seen[n] = seen.get(n, 0) + 1
            result.append((f"{graph.name}:{n}#{seen[n]}", "output_name"))
        else:
            result.append((f"{graph.name}:{n}", "output_name"))
    return result

# SPDX-License-Identifier: Apache-2.0
"""What the rewrite passes share: who reads a tensor, exact quantization equality, and the two
edits every pass makes (drop an operator and let its readers use another tensor, or let an
operator write another tensor). Edits return a new Graph; the input graph is never changed."""

from __future__ import annotations

from dataclasses import dataclass, replace

from helia_aot.ir.graph import Graph, Operator, Tensor


@dataclass(frozen=True)
class Record:
    """One rewrite that fired: the operators it removed and the one that absorbed their work (source
    operator indices, turned into plan ids by rewrites.apply)."""

    rewrite: str
    removed: tuple[int, ...]
    into: int | None
    detail: str


def readers(graph: Graph, tensor: int) -> list[Operator]:
    """Operators reading `tensor`, each once, in execution order."""
    return [op for op in graph.operators if tensor in op.inputs]


def reads_once(op: Operator, tensor: int) -> bool:
    return op.inputs.count(tensor) == 1


def producer(graph: Graph, tensor: int) -> Operator | None:
    for op in graph.operators:
        if tensor in op.outputs:
            return op
    return None


def same_quant(a: Tensor, b: Tensor) -> bool:
    """Bit-equal quantization (scales, zero points): the kernels derive their multipliers from the
    scales, so near-equal is not enough for a rewrite that must not change an output bit."""
    if a.quant is None or b.quant is None:
        return a.quant is None and b.quant is None
    return (tuple(float(s) for s in a.quant.scales) == tuple(float(s) for s in b.quant.scales)
            and tuple(int(z) for z in a.quant.zero_points) == tuple(int(z) for z in b.quant.zero_points))


def is_boundary(graph: Graph, tensor: int) -> bool:
    """A graph input or output: its name and bytes belong to the caller."""
    return tensor in graph.inputs or tensor in graph.outputs


def without(graph: Graph, removed: Operator, substitute: dict[int, Operator] | None = None) -> Graph:
    """The graph without `removed`, with operators replaced as `substitute` says (by source index)."""
    substitute = substitute or {}
    ops = [substitute.get(op.index, op) for op in graph.operators if op is not removed]
    return replace(graph, operators=ops)


def bypass(graph: Graph, op: Operator, source: int, result: int) -> Graph | None:
    """Drop `op`, a copy of tensor `source` into tensor `result`, by one of two edits: its readers read
    `source` (when `result` is not a graph output), or the producer of `source` writes `result` (when
    `source` is read by nothing else and is no graph input or output). None: neither edit is allowed."""
    if result not in graph.outputs:
        changed = {}
        for reader in readers(graph, result):
            changed[reader.index] = replace(reader, inputs=[source if t == result else t for t in reader.inputs])
        return without(graph, op, changed)
    maker = producer(graph, source)
    others = [r for r in readers(graph, source) if r is not op]
    if maker is None or is_boundary(graph, source) or others:
        return None
    return without(graph, op, {maker.index: replace(maker, outputs=[result if t == source else t
                                                                      for t in maker.outputs])})

# SPDX-License-Identifier: Apache-2.0
"""Golden data from LiteRT's reference kernels or TensorFlow Lite Micro, and the C harness that checks a module against it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from helia_aot.emit import c_syntax as codegen
from helia_aot.emit.interface import row_padding
from helia_aot.golden import references
from helia_aot.errors import UnsupportedModelError
from helia_aot.ir.graph import Graph

_NP_TO_C = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
            "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t", "bool": "uint8_t", "float32": "float"}


def reference_outputs(model_data: bytes, inputs: list[np.ndarray], reference: str = "litert") -> list[np.ndarray]:
    """One invocation of `reference` on a new interpreter: LiteRT with the reference op resolver
    (BUILTIN_REF), or TensorFlow Lite Micro (helia_aot/golden/references.py)."""
    return reference_sequence(model_data, [inputs], reference)[0]


def reference_sequence(model_data: bytes, sequence: list[list[np.ndarray]],
                       reference: str = "litert") -> list[list[np.ndarray]]:
    """Consecutive invocations of one interpreter of `reference` (LiteRT's reference op resolver, or
    TensorFlow Lite Micro), so variable tensors and resource variables carry from one to the next as in
    a module between resets: per invocation its inputs in, its outputs out."""
    try:
        return references.sequence_outputs(reference, model_data, sequence)
    except references.ReferenceRefused as refusal:
        raise UnsupportedModelError(f"golden data: {refusal}",
                                    "Choose the other test.reference, or convert without --test") from None


def random_input(rng: np.random.Generator, shape, dtype: str) -> np.ndarray:
    if dtype in ("int8", "uint8", "int16", "uint16"):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=np.int64).astype(dtype)
    if dtype in ("int32", "int64"):
        return rng.integers(-1000, 1000, size=shape, dtype=np.int64).astype(dtype)
    if dtype in ("uint32", "uint64"):
        return rng.integers(0, 2000, size=shape, dtype=np.int64).astype(dtype)
    if dtype == "bool":
        return rng.integers(0, 1, size=shape, endpoint=True).astype(bool)
    return rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)


# A float output computed in float counts its differences in steps of this fraction of its range over
# the golden samples (the FP32 single-operator bound), so `tolerance` applies to it as to codes.
FLOAT_STEP_OF_RANGE = 1e-5


def _float_step(graph: Graph, t: int, values: np.ndarray) -> float:
    """Size of one "code" of a float output, for tolerances: the scale of the DEQUANTIZE it comes from,
    else FLOAT_STEP_OF_RANGE of its range (1e-6 for a constant output)."""
    for op in graph.operators:
        if t in op.outputs and op.op_type == "DEQUANTIZE":
            q = graph.tensors[op.inputs[0]].quant
            if q is not None:
                return float(q.scale)
    spread = float(np.ptp(values.astype(np.float64))) * FLOAT_STEP_OF_RANGE
    return spread if 0 < spread < float("inf") else 1e-6


def write_test_data(out: Path, model_data: bytes, graph: Graph, prefix: str, test,
                    stateful: bool = False) -> list[str]:
    """Golden data for `test.num_samples` samples of `test.iterations` consecutive invocations each
    (one LiteRT interpreter per sample), and the C harness. `stateful`: the module keeps state, so
    the harness resets it before each sample and checks that after a reset the first invocation
    repeats exactly."""
    if graph.subgraph_index != 0:
        raise UnsupportedModelError(f"golden data needs subgraph 0, the conversion used subgraph "
                                    f"'{graph.name}' ({graph.subgraph_index})",
                                    "Convert without --test, or supply your own golden data")
    num, seed, tolerance, iterations = test.num_samples, test.seed, test.tolerance, test.iterations
    runs = num * iterations  # invocations, sample after sample
    rng = np.random.default_rng(seed)
    in_tensors = [graph.tensors[t] for t in graph.inputs]
    out_tensors = [graph.tensors[t] for t in graph.outputs]
    inputs = [np.stack([random_input(rng, t.shape, t.dtype) for _ in range(runs)]) for t in in_tensors]
    outputs = [[] for _ in out_tensors]
    padding = [row_padding(graph, t) for t in graph.outputs]
    for s in range(num):
        first = s * iterations
        sequence = [[x[r] for x in inputs] for r in range(first, first + iterations)]
        for results in reference_sequence(model_data, sequence, test.reference):
            for k, r in enumerate(results):
                outputs[k].append(references.as_declared(r, out_tensors[k].shape, padding[k]))
    outputs = [np.stack(o) for o in outputs]
    test_dir = out / "test"
    test_dir.mkdir(parents=True, exist_ok=True)
    arrays = {f"input_{i}": x for i, x in enumerate(inputs)}
    arrays.update({f"output_{i}": y for i, y in enumerate(outputs)})
    with open(test_dir / "golden.npz", "wb") as fh:
        # Fixed member order and no timestamps inside numpy's zip keep reruns byte-identical.
        np.savez(fh, **arrays)

    def entries(kind, tensors, values):
        result = []
        for i, (t, v) in enumerate(zip(tensors, values)):
            ctype = _NP_TO_C[t.dtype]
            result.append(dict(index=i, ctype=ctype, symbol=f"{prefix}_test_{kind}_{i}", count=int(v.size),
                               elements=int(t.num_elements), body=codegen.format_array_body(v, ctype),
                               is_float=ctype == "float",
                               wide=ctype in ("uint32_t", "int64_t", "uint64_t"),
                               step=codegen._c_float(_float_step(graph, graph.outputs[i], v))
                               if kind == "output" else "0.0f"))
        return result

    values = dict(prefix=prefix, PREFIX=prefix.upper(), num_samples=num, tolerance=tolerance,
                  inputs=entries("input", in_tensors, inputs), outputs=entries("output", out_tensors, outputs),
                  seed=seed, iterations=iterations, stateful=stateful,
                  sequenced=stateful or iterations > 1, reference=references.DISPLAY_NAMES[test.reference])
    (test_dir / f"{prefix}_test_data.c").write_text(codegen.render("test_data.c.j2", **values))
    (test_dir / f"{prefix}_test_main.c").write_text(codegen.render("test_main.c.j2", **values))
    return ["test/golden.npz", f"test/{prefix}_test_data.c", f"test/{prefix}_test_main.c"]

# SPDX-License-Identifier: Apache-2.0
"""GATHER, GATHER_ND, SCATTER_ND, DYNAMIC_UPDATE_SLICE, MIRROR_PAD, REVERSE_V2, REVERSE_SEQUENCE: the refusals (one
line naming the operator, the tensor and the rule), and run-time indices LiteRT rejects: model_run returns
KERNEL_ERROR for them, clean under ASan / UBSan, while in-range ones give LiteRT's outputs."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import run_reference
from tests.sanitizers import SANITIZERS

from .helpers import compile_c, portable_kernels_dir, require_gcc


def refusal(builder: ModelBuilder, tmp_path) -> str:
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(builder.build(), tmp_path / "out", target="host")
    message = str(info.value)
    assert "\n" not in message.split(". ")[0]
    return message


def single(op, inputs, out_shape, out_dtype="float32", options=None, quant=(None, None)):
    """A one-operator model: inputs are (name, shape, dtype) for run-time ones or (name, array, dtype, "const")."""
    b = ModelBuilder()
    refs = []
    for spec in inputs:
        if len(spec) == 4:
            refs.append(b.const(spec[0], np.asarray(spec[1]), spec[2]))
        else:
            q = quant if spec[2] in ("int8", "int16") else (None, None)
            refs.append(b.input(spec[0], spec[1], spec[2], *q))
    q = quant if out_dtype in ("int8", "int16") else (None, None)
    y = b.tensor("y", out_shape, out_dtype, *q)
    b.op(op, refs, [y], options)
    b.output(y)
    return b


# ---- refusals ----------------------------------------------------------------------------------------

def test_gather_constant_index_out_of_range_is_refused(tmp_path):
    b = single("GATHER", [("x", (4, 3), "float32"), ("idx", [1, 4], "int32", "const")], (2, 3), options={"axis": 0})
    message = refusal(b, tmp_path)
    assert "GATHER" in message and "'idx'" in message and "indices value 4 must be in [0, 4)" in message


def test_gather_batch_dims_above_axis_is_refused(tmp_path):
    b = single("GATHER", [("x", (2, 3), "float32"), ("idx", (2, 1), "int32")], (2, 1, 3),
               options={"axis": 0, "batch_dims": 1})
    assert "batch_dims 1 must be in [0, min(axis 0" in refusal(b, tmp_path)


# ---- run-time indices on the host ----------------------------------------------------------------------

HOST_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "model_model.h"

/* stdin: the input bytes of each input in order; stdout: the status, then the output bytes in hex. */
int main(void)
{
    model_model_context_t ctx;
    int32_t i, n;
    if (model_model_init(&ctx) != 0)
    {
        return 2;
    }
    for (i = 0; i < MODEL_NUM_INPUTS; i++)
    {
        n = model_model_input_bytes(i);
        if (fread(model_model_input(&ctx, i), 1, (size_t)n, stdin) != (size_t)n)
        {
            return 3;
        }
    }
    n = (int32_t)model_model_run(&ctx);
    printf("%d %d\n", (int)n, (int)ctx.failed_operator);
    for (i = 0; i < model_model_output_bytes(0); i++)
    {
        printf("%02x", ((unsigned char *)model_model_output(&ctx, 0))[i]);
    }
    printf("\n");
    return 0;
}
"""


@pytest.fixture(scope="module")
def host_build(tmp_path_factory):
    """Builds a model into a host program linked with the portable kernels (ASan + UBSan)."""
    gcc = require_gcc()
    kernels = portable_kernels_dir()
    root = tmp_path_factory.mktemp("indexing_host")
    count = [0]

    def build(builder: ModelBuilder):
        count[0] += 1
        out = root / f"m{count[0]}"
        helia_aot.convert(builder.build(), out, target="host", kernel_library="portable")
        main = out / "main.c"
        main.write_text(HOST_MAIN)
        sources = [str(p) for p in (out / "src").glob("*.c")] + [str(main)]
        sources += [str(p) for d in ("gather", "scatter", "pad", "reverse_sequence", "dynamic_update_slice")
                    for p in (kernels / "src" / d).glob("*.c")]
        exe = out / "run"
        proc = compile_c([gcc, "-std=c99", "-O1", "-g", "-Wall", "-Wextra", "-Werror", *SANITIZERS,
                          *sources, "-I", str(out / "include"), "-I",
                          str(kernels / "include"), "-o", str(exe)])
        assert proc.returncode == 0, proc.stderr[-3000:]
        return exe

    return build


def run_host(exe, inputs: list[np.ndarray], out_dtype) -> tuple[int, int, np.ndarray]:
    import subprocess
    proc = subprocess.run([str(exe)], input=b"".join(np.ascontiguousarray(a).tobytes() for a in inputs),
                          capture_output=True, check=False)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr.decode()[-3000:]
    head, data = proc.stdout.decode().split("\n")[:2]
    status, failed = (int(v) for v in head.split())
    return status, failed, np.frombuffer(bytes.fromhex(data), dtype=out_dtype)


KERNEL_ERROR = 3


@pytest.mark.parametrize("dtype,index_dtype", [("int8", "int64"), ("float32", "int32"), ("int16", "int32")])
def test_gather_runtime_indices(host_build, dtype, index_dtype):
    b = single("GATHER", [("x", (4, 3), dtype), ("idx", (2,), index_dtype)], (4, 2), dtype, {"axis": 1},
               quant=(0.5, 0))
    exe = host_build(b)
    x = (np.arange(12).reshape(4, 3) - 5).astype(dtype)
    good = np.array([2, 0], dtype=index_dtype)
    status, _, got = run_host(exe, [x, good], dtype)
    assert status == 0
    np.testing.assert_array_equal(got.reshape(4, 2), run_reference(b.build(), [x, good])[0])
    wide = [[2**40, 0], [0, -2**40], [2**32 + 1, 0]] if index_dtype == "int64" else []  # would alias in int32
    for bad in [[3, 0], [0, -1], [2**31 - 1, 0]] + wide:
        status, failed, _ = run_host(exe, [x, np.array(bad, dtype=index_dtype)], dtype)
        assert (status, failed) == (KERNEL_ERROR, 0), bad


def test_gather_nd_index_deeper_than_params_is_refused(tmp_path):
    b = single("GATHER_ND", [("x", (4, 3), "float32"), ("idx", (2, 3), "int32")], (2,))
    assert "GATHER_ND" in refusal(b, tmp_path) and "index depth 3 (last indices axis) must be in [1, params rank 2]" \
        in refusal(b, tmp_path)


@pytest.mark.parametrize("dtype,index_dtype", [("int16", "int64"), ("int32", "int32")])
def test_gather_nd_runtime_indices(host_build, dtype, index_dtype):
    b = single("GATHER_ND", [("x", (4, 3), dtype), ("idx", (2, 2), index_dtype)], (2,), dtype, quant=(0.5, 0))
    exe = host_build(b)
    x = (np.arange(12).reshape(4, 3) * 7 - 30).astype(dtype)
    good = np.array([[3, 2], [0, 1]], dtype=index_dtype)
    status, _, got = run_host(exe, [x, good], dtype)
    assert status == 0
    np.testing.assert_array_equal(got, run_reference(b.build(), [x, good])[0])
    for bad in ([[0, 3], [0, 0]], [[4, 0], [0, 0]], [[0, 0], [-1, 0]]):  # [0, 3] is in range flat, not per axis
        status, failed, _ = run_host(exe, [x, np.array(bad, dtype=index_dtype)], dtype)
        assert (status, failed) == (KERNEL_ERROR, 0), bad


def test_scatter_nd_runtime_shape_is_refused(tmp_path):
    b = single("SCATTER_ND", [("idx", (2, 1), "int32"), ("u", (2, 3), "float32"), ("shape", (2,), "int32")], (4, 3))
    message = refusal(b, tmp_path)
    assert "SCATTER_ND" in message and "'shape'" in message and "shape must be a constant tensor" in message


def test_scatter_nd_runtime_indices(host_build):
    b = single("SCATTER_ND", [("idx", (3, 1), "int32"), ("u", (3, 2), "float32"), ("shape", [4, 2], "int32", "const")],
               (4, 2))
    exe = host_build(b)
    u = np.arange(6, dtype=np.float32).reshape(3, 2)
    good = np.array([[3], [0], [3]], dtype=np.int32)
    status, _, got = run_host(exe, [good, u], np.float32)
    assert status == 0
    np.testing.assert_array_equal(got.reshape(4, 2), run_reference(b.build(), [good, u])[0])
    for bad in ([[4], [0], [0]], [[0], [-1], [0]]):
        status, failed, _ = run_host(exe, [np.array(bad, dtype=np.int32), u], np.float32)
        assert (status, failed) == (KERNEL_ERROR, 0), bad


def test_dynamic_update_slice_update_larger_than_operand_is_refused(tmp_path):
    b = single("DYNAMIC_UPDATE_SLICE", [("x", (4, 3), "float32"), ("u", (2, 4), "float32"), ("s", (2,), "int32")],
               (4, 3))
    message = refusal(b, tmp_path)
    assert "DYNAMIC_UPDATE_SLICE" in message and "'u'" in message and "must have the operand's rank and fit" in message


def test_dynamic_update_slice_clamps_int64_starts(host_build):
    b = single("DYNAMIC_UPDATE_SLICE", [("x", (4, 3), "int8"), ("u", (2, 2), "int8"), ("s", (2,), "int64")], (4, 3),
               "int8", quant=(0.5, 0))
    exe = host_build(b)
    x, u = np.zeros((4, 3), np.int8), np.ones((2, 2), np.int8)
    for start in ([2**40, -2**40], [1, 1], [-1, 7]):
        s = np.array(start, np.int64)
        status, _, got = run_host(exe, [x, u, s], np.int8)
        assert status == 0
        np.testing.assert_array_equal(got.reshape(4, 3), run_reference(b.build(), [x, u, s])[0])


def test_mirror_pad_reflect_wider_than_axis_is_refused(tmp_path):
    b = single("MIRROR_PAD", [("x", (4, 3), "float32"), ("pads", [[0, 0], [3, 0]], "int32", "const")], (4, 6),
               options={"mode": 0})
    message = refusal(b, tmp_path)
    assert "MIRROR_PAD" in message and "'pads'" in message and "REFLECT paddings (3, 0) on axis 1 of size 3" in message


def test_reverse_v2_non_contiguous_axes_are_refused(tmp_path):
    b = single("REVERSE_V2", [("x", (2, 3, 4), "float32"), ("axes", [0, 2], "int32", "const")], (2, 3, 4))
    message = refusal(b, tmp_path)
    assert "REVERSE_V2" in message and "'axes'" in message and "axis [0, 2] are not contiguous" in message


def test_reverse_sequence_same_axes_are_refused(tmp_path):
    b = single("REVERSE_SEQUENCE", [("x", (3, 4), "float32"), ("len", (3,), "int32")], (3, 4),
               options={"seq_dim": 0, "batch_dim": 0})
    message = refusal(b, tmp_path)
    assert "REVERSE_SEQUENCE" in message and "'x'" in message and "must be distinct axes" in message


def test_reverse_sequence_runtime_lengths(host_build):
    b = single("REVERSE_SEQUENCE", [("x", (3, 4), "int16"), ("len", (4,), "int64")], (3, 4), "int16",
               {"seq_dim": 0, "batch_dim": 1}, quant=(0.5, 0))
    exe = host_build(b)
    x = (np.arange(12).reshape(3, 4) - 6).astype(np.int16)
    for lengths in ([3, 0, -2**40, 2], [1, 2, 3, -1]):
        n = np.array(lengths, np.int64)
        status, _, got = run_host(exe, [x, n], np.int16)
        assert status == 0
        np.testing.assert_array_equal(got.reshape(3, 4), run_reference(b.build(), [x, n])[0])
    status, failed, _ = run_host(exe, [x, np.array([4, 0, 0, 0], np.int64)], np.int16)
    assert (status, failed) == (KERNEL_ERROR, 0)


# ---- folding at conversion (every input constant) matches LiteRT -----------------------------------------

FOLD_MODELS = {
    "GATHER": ([(np.arange(24.0).reshape(2, 3, 4), "float32"), (np.array([[2, 0], [1, 1]]), "int64")], (2, 3, 2),
               {"axis": 2, "batch_dims": 1}),
    "GATHER_ND": ([(np.arange(24.0).reshape(2, 3, 4), "float32"), (np.array([[1, 2], [0, 0]]), "int32")], (2, 4),
                  None),
    "SCATTER_ND": ([(np.array([[1], [1], [3]]), "int32"), (np.arange(6.0).reshape(3, 2), "float32"),
                    (np.array([4, 2]), "int32")], (4, 2), None),
    "DYNAMIC_UPDATE_SLICE": ([(np.zeros((3, 4)), "float32"), (np.ones((2, 2)), "float32"), (np.array([5, -1]), "int64")],
                             (3, 4), None),
    "MIRROR_PAD": ([(np.arange(6.0).reshape(2, 3), "float32"), (np.array([[1, 0], [2, 2]]), "int32")], (3, 7),
                   {"mode": 0}),
    "REVERSE_V2": ([(np.arange(24.0).reshape(2, 3, 4), "float32"), (np.array([-2, -1]), "int32")], (2, 3, 4), None),
    "REVERSE_SEQUENCE": ([(np.arange(12.0).reshape(3, 4), "float32"), (np.array([3, 0, -1, 2]), "int32")], (3, 4),
                         {"seq_dim": 0, "batch_dim": 1}),
}


@pytest.mark.parametrize("op", sorted(FOLD_MODELS))
def test_fold_matches_litert(op):
    from helia_aot import ops
    from helia_aot.frontend.litert import load
    from helia_aot.ops.base import OpContext
    inputs, out_shape, options = FOLD_MODELS[op]
    b = ModelBuilder()
    b.input("unused", (1,), "float32")  # the builder wants a model input; the operator reads constants only
    refs = [b.const(f"c{k}", np.asarray(v).astype(dtype), dtype) for k, (v, dtype) in enumerate(inputs)]
    y = b.tensor("y", out_shape, "float32")
    b.op(op, refs, [y], options)
    b.output(y)
    data = b.build()
    graph = load(data)
    ctx = OpContext(graph, graph.operators[0], "fold", None, None, None)
    module = ops.get(op)
    module.validate(ctx)
    np.testing.assert_array_equal(module.fold(ctx)[0], run_reference(data, [np.zeros(1, np.float32)])[0])

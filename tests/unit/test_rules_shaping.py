# SPDX-License-Identifier: Apache-2.0
"""The shaping operators' rules (issue #30): refusals end with the source of the rule they enforce, the catalog
prints it, and the rules relaxed to LiteRT's (quantization these operators never read: codes are moved whatever
the output's scale and zero point, and int16 needs no zero point 0) convert and match LiteRT on the host."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.errors import UnsupportedModelError
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import run_reference
from tests.sanitizers import SANITIZERS

from .helpers import compile_c, portable_kernels_dir, require_gcc
from .test_ops_indexing import HOST_MAIN, run_host

SHAPING = ("RESHAPE", "SQUEEZE", "EXPAND_DIMS", "TRANSPOSE", "SLICE", "STRIDED_SLICE", "PAD", "PADV2", "MIRROR_PAD",
           "PACK", "UNPACK", "SPLIT", "SPLIT_V", "TILE", "BROADCAST_TO", "GATHER", "GATHER_ND", "SCATTER_ND",
           "DEPTH_TO_SPACE", "SPACE_TO_DEPTH", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "REVERSE_V2",
           "REVERSE_SEQUENCE", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR", "SHAPE", "DILATE", "DYNAMIC_UPDATE_SLICE")


def test_every_shaping_variant_declares_its_rules_and_no_quantization_operand_rule():
    seen = set()
    for op_type, variant in ops.catalog():
        if op_type not in SHAPING:
            continue
        seen.add(op_type)
        assert variant.rules, f"{op_type} [{variant.name}] declares no rule"
        # Codes are moved: no operand asks for a scale, a zero point 0 or per-tensor quantization.
        words = {w for o in (*variant.inputs, *variant.outputs) for w, _ in o.rule_sources()}
        assert words <= {"constant"}, f"{op_type} [{variant.name}]: {sorted(words)}"
    assert seen == set(SHAPING)


def _refusal(b: ModelBuilder, tmp_path) -> str:
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(b.build(), tmp_path / "out", target="host")
    message = str(info.value.args[0])
    assert "\n" not in message
    return message


def _one(op, x_shape, y_shape, dtype="int8", extra=(), options=None, xq=(0.05, 1), yq=(0.05, 1)):
    b = ModelBuilder()
    x = b.input("x", x_shape, dtype, *(xq if dtype in ("int8", "int16") else (None, None)))
    inputs = [x] + [b.const(name, np.asarray(v, np.int32)) for name, v in extra]
    y = b.tensor("y", y_shape, dtype, *(yq if dtype in ("int8", "int16") else (None, None)))
    b.op(op, inputs, [y], options)
    b.output(y)
    return b


@pytest.mark.parametrize("builder,text,tag", [
    (lambda: _one("TRANSPOSE", (1, 2, 3, 4, 2), (2, 4, 3, 2, 1), extra=[("perm", [4, 3, 2, 1, 0])]),
     "rank 5 input is not supported", "(kernel limit: arm_transpose_s8 / _s16 / _f32 / _f16)"),
    (lambda: _one("STRIDED_SLICE", (4, 3), (4, 3), extra=[("b", [0, 0]), ("e", [4, 3]), ("s", [0, 1])]),
     "stride 0 on axis 0", "(LiteRT and TFLM: strided_slice.cc ResizeOutputTensor"),
    (lambda: _one("PAD", (2, 2), (1, 3), extra=[("paddings", [[0, -1], [1, 0]])]),
     "negative paddings", "(LiteRT: pad.cc GetPadParams)"),
    (lambda: _one("SPACE_TO_BATCH_ND", (1, 4, 4, 1), (4, 2, 2, 1), extra=[("bs", [2, 2]), ("p", [[0, 0], [0, 0]])],
                  yq=(0.1, 1)),
     "input and output must share scale and zero point", "(LiteRT: batch_to_space_nd.cc / space_to_batch_nd.cc Prepare; "
     "TFLM unchecked)"),
    (lambda: _one("SQUEEZE", (2, 1, 3), (2, 3), options={"squeeze_dims": [0]}),
     "squeeze_dims axis 0 has size 2", "(LiteRT and TFLM: squeeze.cc Prepare (LiteRT and micro))"),
    (lambda: _one("RESIZE_BILINEAR", (1, 2, 2, 1), (1, 4, 4, 1), extra=[("size", [4, 4])],
                  options={"align_corners": True, "half_pixel_centers": True}),
     "align_corners and half_pixel_centers are both set", "(LiteRT and TFLM: resize_bilinear.cc Prepare"),
])
def test_a_refusal_ends_with_the_source_of_its_rule(tmp_path, builder, text, tag):
    message = _refusal(builder(), tmp_path)
    assert text in message and tag in message


def test_padv2_value_quantized_otherwise_than_the_output_is_refused_as_litert_does(tmp_path):
    b = ModelBuilder()
    x = b.input("x", (2, 2), "int8", 0.05, 1)
    v = b.const("v", np.asarray([3], np.int8), "int8", 0.1, 1)
    y = b.tensor("y", (3, 2), "int8", 0.05, 1)
    b.op("PADV2", [x, b.const("paddings", np.asarray([[1, 0], [0, 0]], np.int32)), v], [y])
    b.output(y)
    message = _refusal(b, tmp_path)
    assert "constant value quantization 0.1/1 differs from the output's 0.05/1" in message
    assert message.endswith("(LiteRT: pad.cc EvalInt; TFLM unchecked)")  # TFLM checks int8 alone


def test_operators_command_prints_the_shaping_rules_with_their_sources():
    proc = subprocess.run([sys.executable, "-m", "helia_aot.cli", "operators", "PAD", "TRANSPOSE", "GATHER"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    rule = lines.index("    rule  non-negative paddings")
    assert lines[rule + 1].startswith("          from LiteRT pad.cc GetPadParams: left and right padding >= 0")
    rank = lines.index("    rule  rank <= 4")
    assert lines[rank + 1].startswith("          from kernel limit arm_")
    assert "lifted by an inline-C" in lines[rank + 1] or "lifted by an inline-C" in lines[rank + 2]
    assert "          from LiteRT gather.cc Gather: an index outside the axis fails the invoke" in proc.stdout


# ---- relaxed rules: the cases converted and run on the host match LiteRT

@pytest.fixture(scope="module")
def host_run(tmp_path_factory):
    """Converts a one-input model, builds it with the portable kernels (ASan + UBSan) and runs one input."""
    gcc = require_gcc()
    kernels = portable_kernels_dir()
    root = tmp_path_factory.mktemp("rules_shaping")
    count = [0]

    def run(builder: ModelBuilder, x: np.ndarray, out_dtype) -> np.ndarray:
        count[0] += 1
        out = root / f"m{count[0]}"
        helia_aot.convert(builder.build(), out, target="host", kernel_library="portable")
        main = out / "main.c"
        main.write_text(HOST_MAIN)
        sources = [str(p) for p in (out / "src").glob("*.c")] + [str(main)]
        sources += [str(p) for d in ("pad", "transpose", "gather", "reshape", "support")
                    for p in (kernels / "src" / d).glob("*.c")]
        exe = out / "run"
        proc = compile_c([gcc, "-std=c99", "-O1", "-g", "-Wall", "-Wextra", "-Werror", *SANITIZERS, *sources,
                          "-I", str(out / "include"), "-I", str(kernels / "include"), "-lm", "-o", str(exe)])
        assert proc.returncode == 0, proc.stderr[-3000:]
        status, _, got = run_host(exe, [x], out_dtype)
        assert status == 0
        return got

    return run


@pytest.mark.parametrize("op,dtype,x_shape,y_shape,extra,options", [
    # LiteRT's pad.cc copies the codes and pads with the output's zero point whatever the input's quantization.
    ("PAD", "int8", (2, 3), (3, 5), [("paddings", [[1, 0], [1, 1]])], None),
    ("PAD", "int16", (2, 3), (3, 5), [("paddings", [[1, 0], [1, 1]])], None),
    ("TRANSPOSE", "int16", (2, 3, 4), (4, 2, 3), [("perm", [2, 0, 1])], None),
    ("RESHAPE", "int8", (2, 3, 4), (6, 4), [("shape", [6, 4])], None),
    ("RESIZE_NEAREST_NEIGHBOR", "int16", (1, 2, 3, 2), (1, 3, 5, 2), [("size", [3, 5])], None),
    ("GATHER", "int8", (3, 4), (3, 2), [("indices", [3, 1])], {"axis": 1}),
])
def test_codes_moved_under_another_output_quantization_match_litert(host_run, op, dtype, x_shape, y_shape, extra,
                                                                     options):
    # Output scale and zero point differ from the input's, and int16 carries a nonzero zero point: rules helia-aot
    # once enforced that neither reference does.
    zero = 3 if dtype == "int16" else -4
    b = _one(op, x_shape, y_shape, dtype, extra, options, xq=(0.02, zero), yq=(0.05, zero + 5))
    rng = np.random.default_rng(7)
    x = rng.integers(-100, 100, x_shape).astype(dtype)
    want = run_reference(b.build(), [x])[0]
    got = host_run(b, x, dtype)
    np.testing.assert_array_equal(got.reshape(want.shape), want)

# SPDX-License-Identifier: Apache-2.0
"""Cases the last mutants of the 31-unit run showed untested (tests/MUTATION.md, 2026-12-03): the portable
library is planned with plain-C dispatch and its own cost table, the MVE float depthwise sizer's convolution
route, ns-cmsis-nn's MVE 1 x N buffer for a single window padded on the right only, and the float32 GELU
fold (approximate and exact) against LiteRT."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import helia_aot
from helia_aot.library import cost_model
from helia_aot.library import ns_cmsis_nn_scratch as sizes
from helia_aot.library.ns_cmsis_nn_scratch import ConvGeometry
from tests.modelgen import ModelBuilder
from tests.modelgen.litert import run_reference

from .helpers import compile_c, ns_cmsis_nn_dir, require_gcc
from .test_constant_folds import _fold


# ---- the portable library (library/kernel_library.py resolve) -----------------------------------------

def _int8_depthwise_3x3() -> bytes:
    """x (1, 8, 8, 8) -> DEPTHWISE_CONV_2D 3x3 SAME: on a core with MVE the portable library has two directly
    callable entries for it with a measured cost (arm_depthwise_conv_3x3_s8 and our Helium 3x3 one)."""
    b = ModelBuilder()
    x = b.input("x", (1, 8, 8, 8), scale=0.5, zero_point=-3)
    y = b.tensor("y", (1, 8, 8, 8), scale=0.5, zero_point=1)
    w = b.const("w", np.ones((1, 3, 3, 8), np.int8), dtype="int8", scale=[0.25] * 8, zero_point=0,
                quantized_dimension=3)
    bias = b.const("b", np.arange(8, dtype=np.int32), dtype="int32", scale=[0.125] * 8, zero_point=0)
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], {"padding": "SAME", "stride_w": 1, "stride_h": 1,
                                                  "depth_multiplier": 1})
    b.output(y)
    return b.build()


def test_the_portable_library_is_planned_as_plain_c_with_its_own_cost_table(tmp_path):
    """Guards the build resolve() gives the portable kernels: they follow ns-cmsis-nn's plain-C dispatch
    (kernels/portable), so the plan records build "plain" and the kernel choice weighs entries with the
    portable-plain tables measured for the core (a Cortex-M55 here). Without it the plan would record no build
    and the choice find no table, leaving every operator on its default entry."""
    result = helia_aot.convert(_int8_depthwise_3x3(), tmp_path / "o", prefix="m", target="corstone300",
                               kernel_library="portable")
    library = result.plan["kernel_library"]
    assert (library["name"], library["build"], library["scratch"]) == ("portable", "plain", False)
    table = cost_model.table_for("portable", "plain", "cortex-m55")
    assert table is not None and (table.library, table.build, table.core) == ("portable", "plain", "cortex-m55")
    summary = result.report["kernel_choice"]
    assert summary is not None and summary["cost_table"] == table.name


# ---- the MVE float depthwise as a convolution (ns_cmsis_nn_scratch._depthwise_wrapper_float) ----------------

# (kh, kw, output channels, stride, pad): every filter width differs from the channel count, and every count
# reaches both compilers' thresholds (gcc 1, armclang 8).
_ONE_IN_CH_SHAPES = [(3, 3, 8, 1, 1), (3, 3, 12, 2, 0), (5, 3, 8, 1, 2), (3, 5, 16, 1, 0), (1, 1, 8, 1, 0),
                     (1, 1, 10, 2, 0), (2, 4, 9, 1, 1)]


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


@pytest.mark.parametrize("elem, sizer, conv_sizer", [(4, sizes.depthwise_wrapper_f32, sizes.convolve_wrapper_f32),
                                                     (2, sizes.depthwise_wrapper_f16, sizes.convolve_wrapper_f16)])
@pytest.mark.parametrize("compiler", ["gcc", "armclang"])
def test_mve_one_input_channel_float_depthwise_is_its_convolution_plus_the_relaid_filter(elem, sizer, conv_sizer,
                                                                                         compiler):
    """Guards the filter geometry of the MVE float depthwise sizer's convolution route: with MVE-FP a depthwise
    layer of one input channel (and output channels at the compiler's threshold or above) runs as the convolution
    with filter (output channels, kh, kw, 1), its filter re-laid out in ctx->buf (output channels rounded up to
    one 16-byte vector, times kh x kw elements) ahead of that convolution's own buffer. The host build compiles
    only the plain-C branch, so test_scratch_sizes.py cannot hold this one to the C."""
    lanes = 16 // elem
    for kh, kw, out_c, stride, pad in _ONE_IN_CH_SHAPES:
        h, w = 9, 10
        oh, ow = (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1
        g = ConvGeometry(stride, stride, pad, pad)
        in_dims, out_dims = (1, h, w, 1), (1, oh, ow, out_c)
        conv = conv_sizer("mve", g, in_dims, (out_c, kh, kw, 1), out_dims)
        want = _round_up(out_c, lanes) * kh * kw * elem + conv
        got = sizer("mve", g, out_c, in_dims, (1, kh, kw, out_c), out_dims, compiler)
        assert got == want, (kh, kw, out_c, stride, pad)
    # One by hand: an unpadded 3x3 f32 layer to 8 channels; the re-laid filter takes 8 x 3 x 3 floats and the
    # convolution (neither 1x1 nor 1 x N) packs F32_CONV_TILE_ROWS patches of 3 x 3 x 1 floats.
    g = ConvGeometry(1, 1, 0, 0)
    assert sizes.depthwise_wrapper_f32("mve", g, 8, (1, 9, 10, 1), (1, 3, 3, 8), (1, 7, 8, 8)) == \
        8 * 3 * 3 * 4 + sizes.F32_CONV_TILE_ROWS * 3 * 3 * 1 * 4


# ---- ns-cmsis-nn's MVE 1 x N convolution buffer (ns_cmsis_nn_scratch.convolve_1_x_n_s8_mve) ----------------

def _one_x_n_shapes():
    """1 x N int8 convolutions arm_convolve_wrapper_s8 sends to arm_convolve_1_x_n_s8 ((stride x channels) % 4
    == 0), TFLite VALID and SAME, narrow inputs so that some have one output and an odd total padding."""
    shapes = []
    for w, kw, stride, cin, same in itertools.product((1, 2, 3, 4, 5, 7), (2, 3, 4, 5), (1, 2, 3), (2, 4, 8),
                                                      (False, True)):
        if (stride * cin) % 4:
            continue
        if same:
            ow = -(-w // stride)
            pad = max((ow - 1) * stride + kw - w, 0) // 2
        else:
            if w < kw:
                continue
            ow, pad = (w - kw) // stride + 1, 0
        shapes.append((w, kw, stride, cin, pad, ow))
    return shapes


@pytest.mark.parametrize("w, kw, stride, cin, padding", [
    (2, 3, 2, 2, "SAME"), (3, 4, 3, 4, "SAME"), (1, 2, 1, 4, "SAME"), (3, 2, 2, 2, "VALID"), (5, 4, 2, 8, "VALID")])
def test_a_single_1_x_n_window_padded_on_the_right_only_needs_one_window_of_scratch(w, kw, stride, cin, padding):
    """Guards the left-padding count of the MVE 1 x N sizer where the layer has no padding: a layer of one output
    and an odd total padding ((ow - 1) x stride + kw - w = +-1: SAME padding one column on the right only, or
    VALID leaving the last input column unread) is one right-padded output and no left-padded one, so
    arm_convolve_1_x_n_s8's buffer is one window, kw x channels int8 values; counting a left-padded output too
    breaks the sizer's output count and sends the size to the general convolution's im2col buffer instead."""
    ow = -(-w // stride) if padding == "SAME" else (w - kw) // stride + 1
    assert ow == 1 and (ow - 1) * stride + kw - w in (-1, 1)  # one output, odd total padding: TFLite pads 0 left
    g = ConvGeometry(stride, 1, 0, 0)
    in_dims, filter_dims, out_dims = (1, 1, w, cin), (6, 1, kw, cin), (1, 1, ow, 6)
    assert sizes.is_convolve_1_x_n(g, in_dims, filter_dims)  # the wrapper sends it to arm_convolve_1_x_n_s8
    size = sizes.convolve_wrapper_s8("mve", g, in_dims, filter_dims, out_dims)
    assert size == kw * cin and size != sizes.convolve_s8_mve(in_dims, filter_dims)


ONE_X_N_PROGRAM = r"""
#include <stdio.h>
#include "arm_nnfunctions.h"
static const int cases[][6] = { %(cases)s };
int main(void)
{
    unsigned i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    {
        const int *c = cases[i]; /* w, kw, stride, cin, pad, ow */
        cmsis_nn_conv_params cp = {0, 0, {c[2], 1}, {c[4], 0}, {1, 1}, {-128, 127}};
        cmsis_nn_dims in = {1, 1, c[0], c[3]};
        cmsis_nn_dims f = {6, 1, c[1], c[3]};
        cmsis_nn_dims o = {1, 1, c[5], 6};
        printf("%%d %%d %%d\n", (int)arm_convolve_wrapper_s8_get_buffer_size(&cp, &in, &f, &o),
               (int)arm_convolve_wrapper_s8_get_buffer_size_mve(&cp, &in, &f, &o),
               (int)arm_convolve_wrapper_s8_get_buffer_size_dsp(&cp, &in, &f, &o));
    }
    return 0;
}
"""


def test_1_x_n_sizes_of_narrow_inputs_match_ns_cmsis_nn(tmp_path):
    """The plain, MVE and DSP wrapper sizes of narrow 1 x N layers (single outputs, odd total paddings, no
    padding and SAME padding) against ns-cmsis-nn's own functions, which test_scratch_sizes.py's shapes (six or
    more columns, padding 0 or 1) do not reach."""
    ns = ns_cmsis_nn_dir()
    gcc = require_gcc()
    shapes = _one_x_n_shapes()
    src = tmp_path / "one_x_n.c"
    src.write_text(ONE_X_N_PROGRAM % {"cases": ", ".join("{" + ", ".join(map(str, s)) + "}" for s in shapes)})
    exe = tmp_path / "one_x_n"
    proc = compile_c([gcc, "-std=c99", "-O0", str(src),
                      str(ns / "Source/ConvolutionFunctions/arm_convolve_get_buffer_sizes_s8.c"),
                      "-I", str(ns / "Include"), "-o", str(exe)])
    assert proc.returncode == 0, proc.stderr
    run = compile_c([str(exe)])
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert len(lines) == len(shapes)
    single_right_padded = 0
    for (w, kw, stride, cin, pad, ow), line in zip(shapes, lines):
        g = ConvGeometry(stride, 1, pad, 0)
        dims = (1, 1, w, cin), (6, 1, kw, cin), (1, 1, ow, 6)
        want = [sizes.convolve_wrapper_s8(build, g, *dims) for build in ("plain", "mve", "dsp")]
        assert [int(v) for v in line.split()] == want, (w, kw, stride, cin, pad, ow)
        single_right_padded += ow == 1 and pad == 0 and ((ow - 1) * stride + kw - w) % 2 != 0
    assert single_right_padded >= 4  # the shapes reach the case the 1 x N sizer treats specially


# ---- the float32 GELU fold (ops/gelu.py _float_gelu) ------------------------------------------------------

@pytest.mark.parametrize("approximate", [True, False])
def test_float32_gelu_fold_is_litert_gelu(approximate):
    """Guards the float formula GELU folds a constant input with (the tanh form's x + 0.044715 x^3, the erfc
    form): conversion-time values against LiteRT's GELU on the same float32 inputs, most of them away from 0
    and +-1 where a wrong power of x could still agree. LiteRT evaluates tanh / erfc with Eigen's float
    approximations, a few ulp from NumPy's; where 1 + tanh cancels (x near -5) that is a few 1e-7 absolute,
    while a wrong cubic term moves outputs of order 1 by 1e-2 or more."""
    b = ModelBuilder()
    x = b.input("x", (4, 16), "float32")
    y = b.tensor("y", (4, 16), "float32")
    b.op("GELU", [x], [y], {"approximate": approximate})
    b.output(y)
    data = b.build()
    values = np.random.default_rng(11).uniform(-5.0, 5.0, (4, 16)).astype(np.float32)
    values[0, :8] = [-3.5, -2.0, -0.75, -0.3, 0.2, 0.6, 1.5, 2.5]
    want = run_reference(data, [values])[0]
    got = _fold(data, [values])[0]
    assert got.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=5e-6)

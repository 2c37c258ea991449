# SPDX-License-Identifier: Apache-2.0
"""helia_aot.library.ns_cmsis_nn_scratch against ns-cmsis-nn's own *_get_buffer_size functions.

A host build compiles the plain-C sizers, and the _mve/_dsp variants are ordinary functions there,
so one small program checks the MVE, DSP and plain-C models for many shapes."""

from __future__ import annotations

import itertools
import random

from helia_aot.library import ns_cmsis_nn_scratch as sizes
from helia_aot.library.ns_cmsis_nn_scratch import ConvGeometry

from .helpers import compile_c, ns_cmsis_nn_dir, require_gcc

SOURCES = [
    "Source/ConvolutionFunctions/arm_convolve_get_buffer_sizes_s8.c",
    "Source/ConvolutionFunctions/arm_depthwise_conv_get_buffer_sizes_s8.c",
    "Source/FullyConnectedFunctions/arm_fully_connected_get_buffer_sizes_s8.c",
    "Source/PoolingFunctions/arm_avgpool_get_buffer_sizes_s8.c",
]


def _cases():
    rng = random.Random(7)
    cases = []
    for kh, kw, stride, pad, cin in itertools.product((1, 3, 5), (1, 3, 4), (1, 2), (0, 1), (1, 3, 8, 16)):
        h = rng.choice((1, 5, 9))
        w = rng.choice((6, 10, 17))
        cout = rng.choice((1, 4, 12, 130))
        oh = max(1, (h + 2 * pad - kh) // stride + 1)
        ow = max(1, (w + 2 * pad - kw) // stride + 1)
        cases.append((h, w, cin, kh, kw, cout, stride, pad, oh, ow))
    return cases


def _expected(case) -> list[int]:
    h, w, cin, kh, kw, cout, stride, pad, oh, ow = case
    g = ConvGeometry(stride, stride, pad, pad)
    ind, fd, od = (1, h, w, cin), (cout, kh, kw, cin), (1, oh, ow, cout)
    dw_out = cin if cout % 2 else cin * 2
    dw_f, dw_o = (1, kh, kw, dw_out), (1, oh, ow, dw_out)
    return [
        sizes.convolve_wrapper_s8("plain", g, ind, fd, od),
        sizes.convolve_wrapper_s8("mve", g, ind, fd, od),
        sizes.convolve_wrapper_s8("dsp", g, ind, fd, od),
        sizes.convolve_s8("plain", ind, fd),
        sizes.convolve_s8_mve(ind, fd),
        sizes.depthwise_wrapper_s8("plain", g, ind, dw_f, dw_o),
        sizes.depthwise_wrapper_s8_mve_variant(g, ind, dw_f, dw_o),
        sizes.depthwise_wrapper_s8_dsp_variant(g, ind, dw_f, dw_o),
        sizes.depthwise_conv_s8_opt("mve", ind, dw_f),
        sizes.depthwise_conv_s8_opt("dsp", ind, dw_f),
        sizes.fully_connected_s8("plain", (cin * h, 1, 1, cout)),
        sizes.fully_connected_s8("mve", (cin * h, 1, 1, cout)),
        sizes.avgpool_s8("plain", ow, cin),
        sizes.avgpool_s8("dsp", ow, cin),
        sizes.avgpool_s8("mve", ow, cin),
    ]


PROGRAM = r"""
#include <stdio.h>
#include "arm_nnfunctions.h"
#include "arm_nnsupportfunctions.h" /* declares the _mve/_dsp depthwise opt sizers */
static const int cases[][10] = { %(cases)s };
int main(void)
{
    unsigned i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    {
        const int *c = cases[i];
        const int dw_out = (c[5] %% 2) ? c[2] : c[2] * 2;
        cmsis_nn_conv_params cp = {0, 0, {c[6], c[6]}, {c[7], c[7]}, {1, 1}, {-128, 127}};
        cmsis_nn_dw_conv_params dp = {0, 0, dw_out / c[2], {c[6], c[6]}, {c[7], c[7]}, {1, 1}, {-128, 127}};
        cmsis_nn_dims in = {1, c[0], c[1], c[2]};
        cmsis_nn_dims f = {c[5], c[3], c[4], c[2]};
        cmsis_nn_dims o = {1, c[8], c[9], c[5]};
        cmsis_nn_dims dwf = {1, c[3], c[4], dw_out};
        cmsis_nn_dims dwo = {1, c[8], c[9], dw_out};
        cmsis_nn_dims fcf = {c[2] * c[0], 1, 1, c[5]};
        printf("%%d %%d %%d %%d %%d %%d %%d %%d %%d %%d %%d %%d %%d %%d %%d\n",
               (int)arm_convolve_wrapper_s8_get_buffer_size(&cp, &in, &f, &o),
               (int)arm_convolve_wrapper_s8_get_buffer_size_mve(&cp, &in, &f, &o),
               (int)arm_convolve_wrapper_s8_get_buffer_size_dsp(&cp, &in, &f, &o),
               (int)arm_convolve_s8_get_buffer_size(&in, &f),
               (int)arm_convolve_s8_get_buffer_size_mve(&in, &f),
               (int)arm_depthwise_conv_wrapper_s8_get_buffer_size(&dp, &in, &dwf, &dwo),
               (int)arm_depthwise_conv_wrapper_s8_get_buffer_size_mve(&dp, &in, &dwf, &dwo),
               (int)arm_depthwise_conv_wrapper_s8_get_buffer_size_dsp(&dp, &in, &dwf, &dwo),
               (int)arm_depthwise_conv_s8_opt_get_buffer_size_mve(&in, &dwf),
               (int)arm_depthwise_conv_s8_opt_get_buffer_size_dsp(&in, &dwf),
               (int)arm_fully_connected_s8_get_buffer_size(&fcf),
               (int)arm_fully_connected_s8_get_buffer_size_mve(&fcf),
               (int)arm_avgpool_s8_get_buffer_size(c[9], c[2]),
               (int)arm_avgpool_s8_get_buffer_size_dsp(c[9], c[2]),
               (int)arm_avgpool_s8_get_buffer_size_mve(c[9], c[2]));
    }
    return 0;
}
"""


def test_python_sizes_match_ns_cmsis_nn(tmp_path):
    ns = ns_cmsis_nn_dir()
    gcc = require_gcc()
    cases = _cases()
    src = tmp_path / "sizes.c"
    src.write_text(PROGRAM % {"cases": ", ".join("{" + ", ".join(map(str, c)) + "}" for c in cases)})
    exe = tmp_path / "sizes"
    proc = compile_c([gcc, "-std=c99", "-O0", str(src), *[str(ns / s) for s in SOURCES], "-I", str(ns / "Include"),
                      "-o", str(exe)])
    assert proc.returncode == 0, proc.stderr
    run = compile_c([str(exe)])
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert len(lines) == len(cases)
    nonzero = 0
    for case, line in zip(cases, lines):
        got = [int(v) for v in line.split()]
        assert got == _expected(case), f"shape {case}"
        nonzero += sum(1 for v in got if v)
    assert nonzero > len(cases)  # the comparison exercised real sizes, not only zeros


F32_PROGRAM = r"""
#include <stdio.h>
#include "arm_nnfunctions.h"
static const int cases[][10] = { %(cases)s };
int main(void)
{
    unsigned i;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    {
        const int *c = cases[i];
        const int dw_out = (c[5] %% 2) ? c[2] : c[2] * 2;
        const cmsis_nn_conv_params_f32 cp = {{c[6], c[6]}, {c[7], c[7]}, {1, 1}, {-1.0f, 1.0f},
                                             ARM_NN_WEIGHT_FORMAT_STANDARD};
        const cmsis_nn_dw_conv_params_f32 dp = {dw_out / c[2], {c[6], c[6]}, {c[7], c[7]}, {1, 1}, {-1.0f, 1.0f}};
        const cmsis_nn_dims in = {1, c[0], c[1], c[2]};
        const cmsis_nn_dims f = {c[5], c[3], c[4], c[2]};
        const cmsis_nn_dims o = {1, c[8], c[9], c[5]};
        const cmsis_nn_dims dwf = {1, c[3], c[4], dw_out};
        const cmsis_nn_dims dwo = {1, c[8], c[9], dw_out};
        printf("%%d %%d\n", (int)arm_convolve_wrapper_f32_get_buffer_size(&cp, &in, &f, &o),
               (int)arm_depthwise_conv_wrapper_f32_get_buffer_size(&dp, &in, &dwf, &dwo));
    }
    return 0;
}
"""


def _f32_cases():
    cases = _cases()
    # Single-row inputs reach the 1 x N sizes (and the 1 x 3 / 1 x 5 shapes that take none).
    for kw, stride, pad in itertools.product((2, 3, 5, 7), (1, 2), (0, 1)):
        cases.append((1, 16, 4, 1, kw, 6, stride, pad, 1, (16 + 2 * pad - kw) // stride + 1))
    return cases


def run_f32_sizers(tmp_path, cases) -> list[str]:
    """ns-cmsis-nn's float buffer sizers on F32_PROGRAM's case rows, one output line per case."""
    ns = ns_cmsis_nn_dir()
    gcc = require_gcc()
    src = tmp_path / "sizes_f32.c"
    src.write_text(F32_PROGRAM % {"cases": ", ".join("{" + ", ".join(map(str, c)) + "}" for c in cases)})
    exe = tmp_path / "sizes_f32"
    proc = compile_c([gcc, "-std=c99", "-O0", "-DARM_NN_ENABLE_F32=1", str(src),
                      str(ns / "Source/NNSupportFunctions/arm_get_buffer_size_f32.c"), "-I", str(ns / "Include"),
                      "-o", str(exe)])
    assert proc.returncode == 0, proc.stderr
    run = compile_c([str(exe)])
    assert run.returncode == 0
    return run.stdout.splitlines()


def test_python_float32_sizes_match_ns_cmsis_nn(tmp_path):
    """The plain-C float sizers (the MVE one-input-channel depthwise branch is compiled only for MVE)."""
    cases = _f32_cases()
    lines = run_f32_sizers(tmp_path, cases)
    assert len(lines) == len(cases)
    nonzero = 0
    for case, line in zip(cases, lines):
        h, w, cin, kh, kw, cout, stride, pad, oh, ow = case
        g = ConvGeometry(stride, stride, pad, pad)
        dw_out = cin if cout % 2 else cin * 2
        expected = [sizes.convolve_wrapper_f32("plain", g, (1, h, w, cin), (cout, kh, kw, cin), (1, oh, ow, cout)),
                    sizes.depthwise_wrapper_f32("plain", g, dw_out // cin, (1, h, w, cin), (1, kh, kw, dw_out),
                                                (1, oh, ow, dw_out))]
        got = [int(v) for v in line.split()]
        assert got == expected, f"shape {case}"
        nonzero += sum(1 for v in got if v)
    assert nonzero > len(cases)


def test_the_build_wrapper_is_its_builds_variant():
    """ns-cmsis-nn's arm_depthwise_conv_wrapper_s8_get_buffer_size returns the _mve helper's size in an MVE build
    and the _dsp helper's in a DSP build: the per-build model the compiler calls must agree with the variants
    the test above holds to the C (which a host build can only compile as plain C). Needs no ns-cmsis-nn."""
    for h, w, cin, kh, kw, cout, stride, pad, oh, ow in _cases():
        g = ConvGeometry(stride, stride, pad, pad)
        dw_out = cin if cout % 2 else cin * 2
        ind, dw_f, dw_o = (1, h, w, cin), (1, kh, kw, dw_out), (1, oh, ow, dw_out)
        assert sizes.depthwise_wrapper_s8("dsp", g, ind, dw_f, dw_o) == \
            sizes.depthwise_wrapper_s8_dsp_variant(g, ind, dw_f, dw_o), (h, w, cin, kh, kw, cout, stride, pad)
        assert sizes.depthwise_wrapper_s8("mve", g, ind, dw_f, dw_o) == \
            sizes.depthwise_wrapper_s8_mve_variant(g, ind, dw_f, dw_o), (h, w, cin, kh, kw, cout, stride, pad)

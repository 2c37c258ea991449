# SPDX-License-Identifier: Apache-2.0
"""Our DSP-extension kernels (kernels/dsp) against the portable reference, on QEMU: thousands of random
int8 3x3 depthwise calls (tall, narrow and wide planes, channel counts that are not multiples of 4,
strides 1 to 3, leading and trailing padding 0 to 2, batches, offsets, clamps, multipliers and shifts of
both signs, biases beyond the fast requantization, NULL bias) compared byte for byte in the firmware,
with guard bytes, on every DSP core QEMU runs here (Cortex-M4 on mps2-an386, M7 on mps2-an500, M33 on
mps2-an505), with the pixel-major path forced on and off and without the asm pair loop. Plus the
instruction bench on the Cortex-M4: our kernel must beat the library's entries on every kws / vww
depthwise layer with the same output, against the portable kernels always and against ns-cmsis-nn's
DSP build when HELIA_NS_CMSIS_NN_DIR is set. The same for the general convolution helia_dsp_convolve_s8
(random filters up to 5x5 and 10x4, strides 1 to 3, dilations 1 and 2, depths 1 to 40, with and without
weight sums; its bench on kws's and vww's first layers and resnet's 3x3 layers)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from bench_lib import dsp, kernels, toolchain  # noqa: E402
from tests.skip_policy import NS_CMSIS_NN_NOT_CONFIGURED  # noqa: E402

SKIP_REASON = "optional tool missing: arm-none-eabi-gcc/qemu-system-arm"
CALLS = 2000
OURS = "helia_dsp_depthwise_conv_3x3_s8"
LIBRARY_ENTRIES = ("arm_depthwise_conv_3x3_s8", "arm_depthwise_conv_s8_opt", "arm_depthwise_conv_s8")
LAYERS = 10  # kws 25x5x64 and vww's nine distinct depthwise shapes


def _need_arm_tools() -> None:
    if shutil.which(toolchain.ARM_CC) is None or shutil.which(toolchain.QEMU) is None:
        pytest.skip(SKIP_REASON)


def _check_parity(result: dict) -> None:
    assert result["calls"] == CALLS, result["text"][-2000:]
    assert result["outputs"] > 100 * CALLS  # the calls wrote real outputs, not empty shapes
    assert result["mismatches"] == 0, result["text"][-3000:]
    assert result["refusal_failures"] == 0, result["text"][-3000:]


@pytest.mark.parametrize("seed", [1, 2])
def test_depthwise_3x3_matches_portable_reference_on_cortex_m4(tmp_path, seed):
    _need_arm_tools()
    _check_parity(dsp.parity(tmp_path, CALLS, seed))


# The kernel serves every core with the DSP extension and without Helium: run it on each board here.
_OTHER_CORES = [name for name in ("cortex_m7", "cortex_m33") if name in dsp.CORES]


@pytest.mark.parametrize("core_name", _OTHER_CORES)
def test_depthwise_3x3_matches_portable_reference_on_other_dsp_cores(tmp_path, core_name):
    _need_arm_tools()
    _check_parity(dsp.parity(tmp_path, CALLS, 3, core=dsp.CORES[core_name]))


@pytest.mark.parametrize("seed, defines", [
    (4, ("HELIA_DSP_DW3X3_FEW_PIXELS=0",)),  # every output channel group by group
    (5, ("HELIA_DSP_DW3X3_FEW_PIXELS=1000000",)),  # pixel by pixel wherever the requantization allows
    (6, ("HELIA_DSP_DW3X3_PAIRS=0",)),  # without the asm pair loop: what a build without optimization runs
], ids=["group_major", "pixel_major", "no_pairs"])
def test_depthwise_3x3_each_path_matches_portable_reference(tmp_path, seed, defines):
    _need_arm_tools()
    _check_parity(dsp.parity(tmp_path, CALLS, seed, defines))


def _bench_beats_library(tmp_path, backend: str) -> None:
    rows = dsp.bench(tmp_path, backend)
    assert all(row["same_output"] for row in rows), [row for row in rows if not row["same_output"]]
    by_layer: dict[str, dict[str, int]] = {}
    for row in rows:
        by_layer.setdefault(row["layer"], {})[row["entry"]] = row["instructions"]
    assert len(by_layer) == LAYERS
    for layer, counts in by_layer.items():
        for entry in LIBRARY_ENTRIES:
            assert 0 < counts[OURS] < counts[entry], (backend, layer, entry, counts)


def test_bench_beats_portable_entries_with_same_output(tmp_path):
    _need_arm_tools()
    _bench_beats_library(tmp_path, kernels.PORTABLE)


def test_bench_beats_ns_cmsis_nn_dsp_entries_with_same_output(tmp_path):
    """ns-cmsis-nn v7.29.2's DSP build, as a module for the Cortex-M4 links it (kernels/dsp/README.md
    has the table)."""
    _need_arm_tools()
    if toolchain.ns_cmsis_nn_root() is None:
        pytest.skip(NS_CMSIS_NN_NOT_CONFIGURED)
    _bench_beats_library(tmp_path, kernels.NS_CMSIS_NN)


# helia_dsp_convolve_1x1_s8: thousands of random int8 1x1 convolutions (odd pixel and channel counts, depths
# 1 to 320 and not multiples of 4, batches, offsets, clamps, multipliers and shifts of both signs, biases
# past the short requantization's bound, with and without weight sums, NULL bias) on every DSP core here,
# and the bench on the kws / vww pointwise layers.
OURS_1X1 = "helia_dsp_convolve_1x1_s8"
LIBRARY_1X1_ENTRIES = ("arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8")
LAYERS_1X1 = 11  # kws 25x5x64 -> 64 and vww's nine distinct pointwise shapes, plus its 7-row band of 48x48x8


@pytest.mark.parametrize("seed", [11, 12])
def test_convolve_1x1_matches_portable_reference_on_cortex_m4(tmp_path, seed):
    _need_arm_tools()
    _check_parity(dsp.parity(tmp_path, CALLS, seed, kernel="conv_1x1"))


@pytest.mark.parametrize("core_name", _OTHER_CORES)
def test_convolve_1x1_matches_portable_reference_on_other_dsp_cores(tmp_path, core_name):
    _need_arm_tools()
    _check_parity(dsp.parity(tmp_path, CALLS, 13, kernel="conv_1x1", core=dsp.CORES[core_name]))


def _bench_1x1_beats_library(tmp_path, backend: str) -> None:
    rows = dsp.bench(tmp_path, backend, kernel="conv_1x1")
    assert all(row["same_output"] for row in rows), [row for row in rows if not row["same_output"]]
    by_layer: dict[str, dict[str, int]] = {}
    for row in rows:
        by_layer.setdefault(row["layer"], {})[row["entry"]] = row["instructions"]
    assert len(by_layer) == LAYERS_1X1
    for layer, counts in by_layer.items():
        for entry in LIBRARY_1X1_ENTRIES:
            assert 0 < counts[OURS_1X1] < counts[entry], (backend, layer, entry, counts)


def test_bench_1x1_beats_portable_entries_with_same_output(tmp_path):
    _need_arm_tools()
    _bench_1x1_beats_library(tmp_path, kernels.PORTABLE)


def test_bench_1x1_beats_ns_cmsis_nn_dsp_entries_with_same_output(tmp_path):
    """ns-cmsis-nn v7.29.2's DSP build, as a module for the Cortex-M4 links it (kernels/dsp/README.md has
    the table)."""
    _need_arm_tools()
    if toolchain.ns_cmsis_nn_root() is None:
        pytest.skip(NS_CMSIS_NN_NOT_CONFIGURED)
    _bench_1x1_beats_library(tmp_path, kernels.NS_CMSIS_NN)


# helia_dsp_convolve_s8 (kernels/dsp/test/conv_parity.c, conv_bench.c): the general int8 CONV_2D.
CONV_OURS = "helia_dsp_convolve_s8"
CONV_LIBRARY_ENTRIES = ("arm_convolve_s8", "arm_convolve_wrapper_s8")
CONV_LAYERS = 7  # kws's and vww's first layers, resnet's five 3x3 layers after its first


@pytest.mark.parametrize("seed", [1, 2])
def test_convolve_matches_portable_reference_on_cortex_m4(tmp_path, seed):
    _need_arm_tools()
    _check_parity(dsp.parity(tmp_path, CALLS, seed, kernel="conv"))


@pytest.mark.parametrize("core_name", _OTHER_CORES)
def test_convolve_matches_portable_reference_on_other_dsp_cores(tmp_path, core_name):
    _need_arm_tools()
    _check_parity(dsp.parity(tmp_path, CALLS, 3, kernel="conv", core=dsp.CORES[core_name]))


@pytest.mark.parametrize("seed, defines", [
    (4, ("HELIA_DSP_CONV_GATHER_MAX=0",)),  # every filter read in place: the path of deep filters
    (5, ("HELIA_DSP_CONV_ASM=0",)),  # without the asm word loop: what a build without optimization runs
], ids=["in_place", "no_asm"])
def test_convolve_each_path_matches_portable_reference(tmp_path, seed, defines):
    _need_arm_tools()
    _check_parity(dsp.parity(tmp_path, CALLS, seed, defines, kernel="conv"))


def _conv_bench_beats_library(tmp_path, backend: str) -> None:
    rows = dsp.bench(tmp_path, backend, kernel="conv")
    assert all(row["same_output"] for row in rows), [row for row in rows if not row["same_output"]]
    by_layer: dict[str, dict[str, int]] = {}
    for row in rows:
        by_layer.setdefault(row["layer"], {})[row["entry"]] = row["instructions"]
    assert len(by_layer) == CONV_LAYERS
    for layer, counts in by_layer.items():
        for entry in CONV_LIBRARY_ENTRIES:
            assert 0 < counts[CONV_OURS] < counts[entry], (backend, layer, entry, counts)


def test_convolve_bench_beats_portable_entries_with_same_output(tmp_path):
    _need_arm_tools()
    _conv_bench_beats_library(tmp_path, kernels.PORTABLE)


def test_convolve_bench_beats_ns_cmsis_nn_dsp_entries_with_same_output(tmp_path):
    """ns-cmsis-nn v7.29.2's DSP build, as a module for the Cortex-M4 links it (kernels/dsp/README.md
    has the table)."""
    _need_arm_tools()
    if toolchain.ns_cmsis_nn_root() is None:
        pytest.skip(NS_CMSIS_NN_NOT_CONFIGURED)
    _conv_bench_beats_library(tmp_path, kernels.NS_CMSIS_NN)

# SPDX-License-Identifier: Apache-2.0
"""Our Helium kernels (kernels/helium) against the portable reference, on QEMU mps3-an547: thousands of
random int8 3x3 depthwise calls (shapes, strides, paddings, offsets, clamps, multipliers and shifts of
both signs, channel counts that are not multiples of 8 or 16) compared byte for byte in the firmware,
with the kernel's window and with smaller ones (many column chunks and row bands); and
thousands of random 1x1 convolutions (odd pixel and channel counts, depths that are not multiples of
16, with and without precomputed weight sums and bias) and general convolutions (filters up to 5x5,
strides up to 3, dilation 2, leading and trailing padding, batches); and the hybrid layers' kernels against
their own plain C (int8 convolutions to int32 sums; float rows quantized symmetrically, with NaNs,
infinities, subnormals and half-points; int32 sums rescaled to floats, with NaNs, infinities, subnormal and
cancelling constants; int16 transposed convolutions); and thousands of random int8 fully connected calls
(any depth and output count, batches, input and filter offsets, with and without kernel sums). Plus the
instruction benches: each Helium kernel must beat the library entry it replaces on every kws / vww (ad01
for the fully connected kernel) layer and give the same output."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from bench_lib import helium, kernels, toolchain  # noqa: E402

SKIP_REASON = "optional tool missing: arm-none-eabi-gcc/qemu-system-arm"
CALLS = 2000


def _need_arm_tools() -> None:
    if shutil.which(toolchain.ARM_CC) is None or shutil.which(toolchain.QEMU) is None:
        pytest.skip(SKIP_REASON)


@pytest.mark.parametrize("seed, defines", [
    (1, ()),
    (3, ()),
    # smaller windows: chunks of at most 10 window columns and bands of 6 rows; and of one output column
    (2, ("HELIA_MVE_DW3X3_WINDOW_BYTES=480",)),
    (4, ("HELIA_MVE_DW3X3_WINDOW_BYTES=144",)),
], ids=["seed1", "seed3", "small_window", "one_column_window"])
def test_depthwise_3x3_matches_portable_reference(tmp_path, seed, defines):
    _need_arm_tools()
    result = helium.parity(tmp_path, CALLS, seed, defines)
    assert result["calls"] == CALLS, result["text"][-2000:]
    assert result["outputs"] > 100 * CALLS  # the calls wrote real outputs, not empty shapes
    assert result["mismatches"] == 0, result["text"][-3000:]
    assert result["refusal_failures"] == 0, result["text"][-3000:]


@pytest.mark.parametrize("seed, defines", [
    (11, ()),
    (12, ()),
    # without the depth-8 and depth-16 asm loops: what a build without optimization (-O0) runs there
    (13, ("HELIA_MVE_1X1_QUADS=0",)),
], ids=["seed11", "seed12", "no_quads"])
def test_convolve_1x1_matches_portable_reference(tmp_path, seed, defines):
    _need_arm_tools()
    result = helium.parity(tmp_path, CALLS, seed, defines, kernel="conv_1x1")
    assert result["calls"] == CALLS, result["text"][-2000:]
    assert result["outputs"] > 100 * CALLS
    assert result["mismatches"] == 0, result["text"][-3000:]
    assert result["refusal_failures"] == 0, result["text"][-3000:]


@pytest.mark.parametrize("seed", [21, 22])
def test_convolve_matches_portable_reference(tmp_path, seed):
    _need_arm_tools()
    result = helium.parity(tmp_path, CALLS, seed, kernel="conv")
    assert result["calls"] == CALLS, result["text"][-2000:]
    assert result["outputs"] > 50 * CALLS
    assert result["mismatches"] == 0, result["text"][-3000:]
    assert result["refusal_failures"] == 0, result["text"][-3000:]


@pytest.mark.parametrize("seed", [31, 32])
def test_convolve_s8_s32_matches_its_plain_c(tmp_path, seed):
    """helia_mve_convolve_s8_s32 (the hybrid layers' integer part) against its plain C, int32 for int32."""
    _need_arm_tools()
    result = helium.parity(tmp_path, CALLS, seed, kernel="conv_s32")
    assert result["calls"] == CALLS, result["text"][-2000:]
    assert result["outputs"] > 100 * CALLS
    assert result["mismatches"] == 0, result["text"][-3000:]
    assert result["refusal_failures"] == 0, result["text"][-3000:]


@pytest.mark.parametrize("seed", [41, 42])
def test_quantize_symmetric_matches_its_plain_c(tmp_path, seed):
    """helia_mve_quantize_symmetric_f32_s8 (the hybrid layers' run-time input quantization) against its
    plain C: every int8 output and the scale's bits, NaNs, infinities, subnormals and half-points drawn."""
    _need_arm_tools()
    result = helium.parity(tmp_path, CALLS, seed, kernel="quantize")
    assert result["calls"] == CALLS, result["text"][-2000:]
    assert result["outputs"] > 100 * CALLS
    assert result["mismatches"] == 0, result["text"][-3000:]
    assert result["refusal_failures"] == 0, result["text"][-3000:]


@pytest.mark.parametrize("seed", [51, 52])
def test_rescale_matches_its_plain_c(tmp_path, seed):
    """helia_mve_rescale_s32_f32 (the hybrid layers' float rescale, bias and clamp) against its plain C:
    every float's bits, with NaNs, infinities, subnormal and cancelling constants drawn."""
    _need_arm_tools()
    result = helium.parity(tmp_path, CALLS, seed, kernel="rescale")
    assert result["calls"] == CALLS, result["text"][-2000:]
    assert result["outputs"] > 100 * CALLS
    assert result["mismatches"] == 0, result["text"][-3000:]
    assert result["refusal_failures"] == 0, result["text"][-3000:]


@pytest.mark.parametrize("seed", [61, 62])
def test_transpose_conv_s16_matches_its_plain_c(tmp_path, seed):
    """helia_mve_transpose_conv_s16 (int16 TRANSPOSE_CONV, int64 accumulator) against its plain C, int16
    for int16, filters past the int32 bound included."""
    _need_arm_tools()
    result = helium.parity(tmp_path, CALLS, seed, kernel="transpose_conv_s16")
    assert result["calls"] == CALLS, result["text"][-2000:]
    assert result["outputs"] > 100 * CALLS
    assert result["mismatches"] == 0, result["text"][-3000:]
    assert result["refusal_failures"] == 0, result["text"][-3000:]


@pytest.mark.parametrize("seed, defines", [
    (71, ()),
    (72, ()),
    # without the asm group loop: what a build without optimization (-O0) runs for every group
    (73, ("HELIA_MVE_FC_ASM=0",)),
], ids=["seed71", "seed72", "no_asm"])
def test_fully_connected_matches_portable_reference(tmp_path, seed, defines):
    _need_arm_tools()
    result = helium.parity(tmp_path, CALLS, seed, defines, kernel="fully_connected")
    assert result["calls"] == CALLS, result["text"][-2000:]
    assert result["outputs"] > 20 * CALLS
    assert result["mismatches"] == 0, result["text"][-3000:]
    assert result["refusal_failures"] == 0, result["text"][-3000:]


def test_bench_fully_connected_beats_the_library_entry_with_same_output(tmp_path):
    """Against the portable kernels here; tools/helium_bench.py measures ns-cmsis-nn's MVE build too
    (kernels/helium/README.md has the table)."""
    _need_arm_tools()
    rows = helium.bench(tmp_path, kernels.PORTABLE, kernel="fully_connected")
    assert all(row["same_output"] for row in rows), [row for row in rows if not row["same_output"]]
    by_layer: dict[str, dict[str, int]] = {}
    for row in rows:
        by_layer.setdefault(row["layer"], {})[row["entry"]] = row["instructions"]
    assert len(by_layer) == 6
    for layer, counts in by_layer.items():
        assert 0 < counts["helia_mve_fully_connected_s8"] < counts["arm_fully_connected_s8"], (layer, counts)


def test_bench_convolve_beats_the_library_entry_with_same_output(tmp_path):
    _need_arm_tools()
    rows = helium.bench(tmp_path, kernels.PORTABLE, kernel="conv")
    assert all(row["same_output"] for row in rows), [row for row in rows if not row["same_output"]]
    by_layer: dict[str, dict[str, int]] = {}
    for row in rows:
        by_layer.setdefault(row["layer"], {})[row["entry"]] = row["instructions"]
    assert len(by_layer) == 8
    for layer, counts in by_layer.items():
        assert 0 < counts["helia_mve_convolve_s8"] < counts["arm_convolve_s8"], (layer, counts)


def test_bench_1x1_beats_the_library_entry_with_same_output(tmp_path):
    """Against the portable kernels here; tools/helium_bench.py measures ns-cmsis-nn's MVE build too
    (kernels/helium/README.md has the table)."""
    _need_arm_tools()
    rows = helium.bench(tmp_path, kernels.PORTABLE, kernel="conv_1x1")
    assert all(row["same_output"] for row in rows), [row for row in rows if not row["same_output"]]
    by_layer: dict[str, dict[str, int]] = {}
    for row in rows:
        by_layer.setdefault(row["layer"], {})[row["entry"]] = row["instructions"]
    assert len(by_layer) == 11  # kws's and vww's shapes, and one band of vww's patch-run 48x48x8 -> 16
    for layer, counts in by_layer.items():
        assert 0 < counts["helia_mve_convolve_1x1_s8"] < counts["arm_convolve_1x1_s8_fast"], (layer, counts)


def test_bench_beats_scalar_3x3_with_same_output(tmp_path):
    _need_arm_tools()
    rows = helium.bench(tmp_path, kernels.PORTABLE)
    assert all(row["same_output"] for row in rows), [row for row in rows if not row["same_output"]]
    by_layer: dict[str, dict[str, int]] = {}
    for row in rows:
        by_layer.setdefault(row["layer"], {})[row["entry"]] = row["instructions"]
    assert len(by_layer) == 10
    for layer, counts in by_layer.items():
        ours = counts["helia_mve_depthwise_conv_3x3_s8"]
        assert 0 < ours < counts["arm_depthwise_conv_3x3_s8"], (layer, counts)

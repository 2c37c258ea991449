# SPDX-License-Identifier: Apache-2.0
"""TFLM Signal operators SignalRfft, SignalFilterBankSpectralSubtraction, SignalPCAN and
SignalFilterBankLog: what they lower to (kernel entry, constants, state) and the models they refuse,
each refusal naming its rule."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from helia_aot.ops.shared import signal_fft as fft_tables
from tests.modelgen import ModelBuilder

from .helpers import function_body


def convert(tmp_path, data: bytes):
    result = helia_aot.convert(data, tmp_path / "m", prefix="m", target="corstone300")
    model_c = (tmp_path / "m" / "src" / "m_model.c").read_text()
    consts = (tmp_path / "m" / "src" / "m_constants.c").read_text()
    return result, model_c, consts


def refused(tmp_path, data: bytes, match: str):
    with pytest.raises(UnsupportedModelError, match=match):
        helia_aot.convert(data, tmp_path / "x", prefix="m", target="corstone300")


# ---- SignalRfft ----------------------------------------------------------------------------------------

def rfft_model(dtype="int16", in_shape=(480,), out_shape=(514,), options=None, out_dtype=None) -> bytes:
    b = ModelBuilder()
    x = b.input("x", in_shape, dtype)
    y = b.tensor("y", out_shape, out_dtype or dtype)
    b.custom_op("SignalRfft", [x], [y], options if options is not None else
                {"T": {"int16": 7, "int32": 2, "float32": 0}[dtype], "fft_length": 512})
    b.output(y)
    return b.build()


@pytest.mark.parametrize("dtype, suffix, ctype", [("int16", "s16", "int16_t"), ("int32", "s32", "int32_t"),
                                                  ("float32", "f32", "float")])
def test_rfft_lowers_to_its_kernel_with_kiss_fft_tables(tmp_path, dtype, suffix, ctype):
    result, model_c, consts = convert(tmp_path, rfft_model(dtype, (2, 480), (2, 514)))
    op = result.plan["operators"][0]
    assert (op["variant"], op["kernel"]["entry"]) == (dtype, f"helia_signal_rfft_{suffix}")
    assert op["kernel"]["local_scratch_bytes"] == 2 * 512 * (2 if dtype == "int16" else 4)
    body = function_body(model_c, 0)
    assert f"helia_signal_rfft_{suffix}(&cfg, input + f * 480, 480," in body
    assert "output + f * 514" in body and "f < 2;" in body
    assert '#include "helia_signal.h"' in model_c
    assert "const int32_t m_op0_factors[8]" in consts and f"const {ctype} m_op0_twiddles[512]" in consts
    assert f"const {ctype} m_op0_split_twiddles[256]" in consts
    assert [c["id"] for c in result.plan["tensors"]] == ["main:y/factors", "main:y/twiddles", "main:y/split_twiddles"]
    assert op["fixed"] == {"fft": "kiss fft radices 4 x 4 x 4 x 4"}
    assert fft_tables.factor_table(256).tolist() == [4, 64, 4, 16, 4, 4, 4, 1]


@pytest.mark.parametrize("options, match", [
    ({"T": 7}, r"custom options \['T'\] have no value for 'fft_length' \(TFLM reads it at position 1, past the map\)"),
    # fft_length is read at position 1 of ['T', 'extra', 'fft_length']: extra's 1
    ({"T": 7, "fft_length": 512, "extra": 1}, r"fft_length \(read from 'extra', at its position\) = 1 must be"),
    ({"T": 2, "fft_length": 512}, "custom option T = 2 does not name the tensors' type int16"),
    ({"T": 7, "fft_length": 513}, "custom option fft_length = 513 must be even"),
    ({"T": 7, "fft_length": 0}, r"custom option fft_length = 0 must be an integer in 2\.\."),
    ({"T": 7, "fft_length": 256}, "input frames of 480 samples exceed fft_length 256"),
])
def test_rfft_refuses_options_tflm_cannot_run(tmp_path, options, match):
    refused(tmp_path, rfft_model(options=options, out_shape=(514,)), match)


def test_rfft_refuses_an_output_that_is_not_the_bins(tmp_path):
    refused(tmp_path, rfft_model(out_shape=(512,)), r"output \[512\] must be \[514\]: each frame's fft_length / 2 \+ 1")
    refused(tmp_path, rfft_model(in_shape=(2, 480), out_shape=(3, 514)), r"output \[3, 514\] must be \[2, 514\]")
    refused(tmp_path, rfft_model(in_shape=(2, 480), out_shape=(1028,)), "must have the same rank")


def test_rfft_generic_radix_gets_its_work_pairs(tmp_path):
    # N = 14: a 7-point complex FFT, kiss fft's generic butterfly (TFLM's build crashes there; see the module)
    data = rfft_model(in_shape=(14,), out_shape=(16,), options={"T": 7, "fft_length": 14})
    result, _, _ = convert(tmp_path, data)
    assert result.plan["operators"][0]["kernel"]["local_scratch_bytes"] == (2 * 14 + 2 * 7) * 2
    assert result.plan["operators"][0]["fixed"] == {"fft": "kiss fft radices 7"}


def test_rfft_refuses_mixed_types(tmp_path):
    refused(tmp_path, rfft_model(out_dtype="int32"), "match no variant")


# ---- SignalFilterBankSpectralSubtraction ---------------------------------------------------------------

SUBTRACTION = dict(alternate_one_minus_smoothing=15401, alternate_smoothing=983, clamping=False,
                   min_signal_remaining=819, num_channels=40, one_minus_smoothing=15975, smoothing=409,
                   smoothing_bits=10, spectral_subtraction_bits=14)


def subtraction_model(options=None, shapes=((40,), (40,), (40,))) -> bytes:
    b = ModelBuilder()
    x = b.input("x", shapes[0], "uint32")
    y = b.tensor("y", shapes[1], "uint32")
    noise = b.tensor("noise", shapes[2], "uint32")
    b.custom_op("SignalFilterBankSpectralSubtraction", [x], [y, noise], SUBTRACTION if options is None else options)
    b.output(y)
    b.output(noise)
    return b.build()


def test_spectral_subtraction_keeps_its_noise_estimate_in_the_persistent_arena(tmp_path):
    options = dict(SUBTRACTION, smoothing=-1, clamping=True)
    result, model_c, _ = convert(tmp_path, subtraction_model(options))
    op = result.plan["operators"][0]
    assert op["kernel"]["entry"] == "helia_signal_filter_bank_spectral_subtraction_u32"
    assert result.plan["memory"]["persistent_buffers"] == [
        {"name": f"{op['id']}/noise_estimate", "tensor": "", "offset": 0, "bytes": 160, "initial": "zero"}]
    body = function_body(model_c, 0)
    assert "(uint32_t *)(persistent + 0)" in body
    # TFLM's int32 -1 is the uint32 coefficient 4294967295; clamping is 1
    assert "40, 4294967295u, 15975u, 983u, 15401u, 819u, 10u, 14u, 1" in body
    assert "memset(ctx->persistent + 0, 0, 160);" in model_c
    header = (tmp_path / "m" / "include" / "m_model.h").read_text()
    assert "m_model_reset" in header


@pytest.mark.parametrize("options, shapes, match", [
    (dict(SUBTRACTION, num_channels=32), None, r"input has 40 elements, custom option num_channels is 32"),
    (dict(SUBTRACTION, smoothing_bits=32), None, r"custom option smoothing_bits = 32 must be an integer in 0\.\.31"),
    (dict(SUBTRACTION, spectral_subtraction_bits=-1), None, r"spectral_subtraction_bits = -1 must be .* in 0\.\.63"),
    (dict(SUBTRACTION, clamping=3), None, "custom option clamping = 3 must be a bool"),
    ({k: v for k, v in SUBTRACTION.items() if k != "smoothing"}, None, r"spectral_subtraction_bits' \(TFLM reads it at position 8, past the map\)"),
    (None, ((1, 40), (1, 40), (1, 40)), r"input must have rank 1 \(TFLM's kernel requires it\)"),
    (None, ((40,), (40,), (39,)), "noise_estimate has 39 elements"),
])
def test_spectral_subtraction_refusals(tmp_path, options, shapes, match):
    refused(tmp_path, subtraction_model(options, shapes or ((40,), (40,), (40,))), match)


# ---- SignalPCAN ----------------------------------------------------------------------------------------

def pcan_model(options=None, channels=(40, 40, 40), lut_entries=125, rank2=False) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, channels[0]) if rank2 else (channels[0],), "uint32")
    noise = b.input("noise", (channels[1],), "uint32")
    lut = b.const("lut", np.arange(lut_entries, dtype=np.int16))
    y = b.tensor("y", (1, channels[2]) if rank2 else (channels[2],), "uint32")
    b.custom_op("SignalPCAN", [x, noise, lut], [y], {"snr_shift": 6} if options is None else options)
    b.output(y)
    return b.build()


def test_pcan_calls_its_kernel_with_the_lut_constant(tmp_path):
    result, model_c, consts = convert(tmp_path, pcan_model(lut_entries=130))
    assert result.plan["operators"][0]["kernel"]["entry"] == "helia_signal_pcan_u32"
    body = function_body(model_c, 0)
    assert "helia_signal_pcan_u32(" in body and "m_t2," in body and "6, (uint32_t *)(arena + " in body
    assert body.rstrip().endswith("40);")
    assert "const int16_t m_t2[130]" in consts
    assert result.plan["memory"]["persistent_bytes"] == 0  # stateless


@pytest.mark.parametrize("kwargs, match", [
    (dict(options={"snr_shift": 64}), r"custom option snr_shift = 64 must be an integer in 0\.\.63"),
    (dict(options={}), r"no value for 'snr_shift' \(TFLM reads it at position 0, past the map\)"),
    (dict(lut_entries=124), "gain_lut has 124 entries; .* a uint32 estimate needs 125"),
    (dict(channels=(40, 39, 40)), "noise_estimate has 39 elements, the input 40"),
    (dict(channels=(40, 40, 41)), "output has 41 elements, the input 40"),
    (dict(rank2=True), r"input must have rank 1"),
])
def test_pcan_refusals(tmp_path, kwargs, match):
    refused(tmp_path, pcan_model(**kwargs), match)


# ---- SignalFilterBankLog -------------------------------------------------------------------------------

def log_model(options=None, in_shape=(40,), out_shape=(40,), out_dtype="int16") -> bytes:
    b = ModelBuilder()
    x = b.input("x", in_shape, "uint32")
    y = b.tensor("y", out_shape, out_dtype)
    b.custom_op("SignalFilterBankLog", [x], [y],
                {"input_correction_bits": 3, "output_scale": 64} if options is None else options)
    b.output(y)
    return b.build()


def test_log_calls_its_kernel_with_the_options(tmp_path):
    result, model_c, _ = convert(tmp_path, log_model({"input_correction_bits": 31, "output_scale": -2147483648}))
    assert result.plan["operators"][0]["kernel"]["entry"] == "helia_signal_filter_bank_log_u32"
    body = function_body(model_c, 0)
    # INT32_MIN spelled so C reads it as an int (TFLM converts it to the uint32 2^31)
    assert "helia_signal_filter_bank_log_u32((uint32_t *)(arena + 0), 40,\n        (-2147483647 - 1), 31u, " in body


@pytest.mark.parametrize("kwargs, match", [
    (dict(options={"input_correction_bits": 32, "output_scale": 64}),
     r"custom option input_correction_bits = 32 must be an integer in 0\.\.31"),
    (dict(options={"output_scale": 64}), r"input_correction_bits \(read from 'output_scale', at its position\) = 64"),
    (dict(options={"input_correction_bits": 3, "output_scale": 1 << 31}), "custom option output_scale = 2147483648"),
    (dict(out_shape=(41,)), "output has 41 elements, the input 40"),
    (dict(in_shape=(2, 20), out_shape=(2, 20)), "input must have rank 1"),
    (dict(out_dtype="int32"), "match no variant"),
])
def test_log_refusals(tmp_path, kwargs, match):
    refused(tmp_path, log_model(**kwargs), match)

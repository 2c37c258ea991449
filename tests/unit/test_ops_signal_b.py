# SPDX-License-Identifier: Apache-2.0
"""TFLM Signal operators SignalRfft, SignalFilterBankSpectralSubtraction, SignalPCAN and
SignalFilterBankLog: what they lower to (kernel entry, constants, state) and the models they refuse,
each refusal naming its rule."""

from __future__ import annotations

import pytest

import helia_aot
from helia_aot.errors import UnsupportedModelError
from helia_aot.ops import signal_fft_common as fft_tables
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
    ({"T": 7}, r"custom options must hold exactly the attributes \['T', 'fft_length'\] \(missing \['fft_length'\]\)"),
    ({"T": 7, "fft_length": 512, "extra": 1}, r"unexpected \['extra'\]"),
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


def test_rfft_refuses_mixed_types(tmp_path):
    refused(tmp_path, rfft_model(out_dtype="int32"), "match no variant")

# SPDX-License-Identifier: Apache-2.0
"""The tail of TFLM's audio front end in one module, as the audio preprocessor chains it:
SignalFilterBankSpectralSubtraction (its noise estimate kept across runs) -> SignalPCAN (reading that
estimate) -> SignalFilterBankLog, beside a SignalRfft of the frame, with the preprocessor's options,
over a 60-frame sequence: every frame's outputs bit-identical to TensorFlow Lite Micro's (one
interpreter, state carried), and the first frame's repeated after <prefix>_model_reset."""

from __future__ import annotations

import numpy as np

from tests.e2e import harness, tflm
from tests.modelgen import ModelBuilder

FRAMES = 60
CHANNELS = 40
SUBTRACTION = dict(alternate_one_minus_smoothing=15401, alternate_smoothing=983, clamping=False,
                   min_signal_remaining=819, num_channels=CHANNELS, one_minus_smoothing=15975, smoothing=409,
                   smoothing_bits=10, spectral_subtraction_bits=14)


def gain_lut() -> np.ndarray:
    """A PCAN gain table of the preprocessor's shape: per octave b, c0 falling from 32767, c1 < 0, c2 > 0."""
    lut = [32636, 32633, 32630]
    for b in range(2, 33):
        c0 = int(32767 / (1 + (b / 12.0) ** 6))
        lut += [c0, -c0 // 8, c0 // 32, 0]
    return np.array(lut[:125], dtype=np.int16)


def chain_model() -> bytes:
    b = ModelBuilder()
    frame = b.input("frame", (480,), "int16")
    energy = b.input("energy", (CHANNELS,), "uint32")
    bins = b.tensor("bins", (514,), "int16")
    b.custom_op("SignalRfft", [frame], [bins], {"T": 7, "fft_length": 512})
    cleaned = b.tensor("cleaned", (CHANNELS,), "uint32")
    noise = b.tensor("noise", (CHANNELS,), "uint32")
    b.custom_op("SignalFilterBankSpectralSubtraction", [energy], [cleaned, noise], SUBTRACTION)
    lut = b.const("gain_lut", gain_lut())
    normalized = b.tensor("normalized", (CHANNELS,), "uint32")
    b.custom_op("SignalPCAN", [cleaned, noise, lut], [normalized], {"snr_shift": 6})
    features = b.tensor("features", (CHANNELS,), "int16")
    b.custom_op("SignalFilterBankLog", [normalized], [features], {"input_correction_bits": 3, "output_scale": 64})
    for t in (bins, noise, features):
        b.output(t)
    return b.build()


def frames(seed: int) -> list[list[np.ndarray]]:
    """Speech-like frames: tones and noise whose loudness rises and falls, with filter bank levels that
    follow it, so the noise estimate both lags and overshoots."""
    rng = np.random.default_rng(seed)
    t = np.arange(480)
    result = []
    for k in range(FRAMES):
        loud = 0.05 + 0.9 * (k % 20 < 8)
        audio = loud * 12000 * np.sin(2 * np.pi * (300 + 40 * k) * t / 16000) + rng.normal(0, 300, 480)
        level = (loud * rng.uniform(200, 3000, CHANNELS)).astype(np.uint32)
        result.append([np.clip(audio, -32768, 32767).astype(np.int16), level])
    return result


def test_front_end_tail_matches_tflm_over_a_sequence_and_after_reset(e2e, record_property):
    model = tflm.TflmModel(name="signal_b_chain", kind="tflm", model_bytes=chain_model(), seed=1740, tolerance=0)
    model.__dict__["samples"] = frames(1740)
    outputs = e2e.host_outputs(model, e2e.portable_host_library())  # checks the reset repeats the first frame
    want = model.tflm_reference
    assert len(outputs) == len(want) == FRAMES
    diffs = harness.per_output_max_diff(outputs, want)
    record_property("max_abs_diff", diffs)
    e2e.record("signal front end tail vs TFLM", model.name, max_abs_diff=diffs, samples=FRAMES)
    assert diffs == [0, 0, 0]
    # the sequence is not trivial: the estimate moves, features vary from frame to frame
    noise = np.stack([w[1] for w in want])
    assert len({tuple(n) for n in noise.tolist()}) > FRAMES // 2
    assert np.ptp(np.stack([w[2] for w in want])) > 100

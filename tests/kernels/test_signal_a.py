# SPDX-License-Identifier: Apache-2.0
"""helia_signal_window_s16, _fft_auto_scale_s16, _energy_s16_u32, _filter_bank_u32_u64 and
_filter_bank_square_root_u64_u32 (TFLM's SignalWindow, SignalFftAutoScale, SignalEnergy, SignalFilterBank,
SignalFilterBankSquareRoot): the portable kernels against Python references written from the arithmetic,
and bit for bit against TensorFlow Lite Micro running the same data through single-operator models.
ns-cmsis-nn has no such kernels, so there is no parity test."""

from __future__ import annotations

import math

import numpy as np
import pytest

import kernel_build as kb
from helia_aot.golden import references
from tests.modelgen.builder import ModelBuilder

U32, U64 = (1 << 32) - 1, (1 << 64) - 1


class SignalDriver:
    def __init__(self, program):
        self.program = program

    def run(self, records: list[str]) -> list[tuple[int, list[int]]]:
        text = kb.run_program(self.program, "\n".join(records) + "\n")
        results = []
        for line in text.strip().splitlines():
            values = [int(v) for v in line.split()]
            results.append((values[0], values[1:]))
        assert len(results) == len(records)
        return results


@pytest.fixture(scope="module")
def driver(build_root, portable_library):
    return SignalDriver(kb.link_program([kb.DRIVER_DIR / "signal_a_driver.c"], [portable_library],
                                        [kb.PORTABLE_INCLUDE], build_root / "signal_a_driver"))


def _ints(values) -> str:
    return " ".join(str(int(v)) for v in np.asarray(values, dtype=object).reshape(-1))


# --------------------------------------------------------------------------- references (the arithmetic)


def window_ref(x, w, shift):
    """Per block of len(w) samples: floor(x * w / 2^shift), saturated to int16."""
    x = [int(v) for v in x]
    w = [int(v) for v in w]
    out = [(v * w[i % len(w)]) >> shift for i, v in enumerate(x)]  # Python's >> rounds toward -inf
    return [min(max(v, -32768), 32767) for v in out]


def _int16(v: int) -> int:
    return (v + 32768) % 65536 - 32768


def fft_auto_scale_ref(x):
    """TFLM's peak (int16: negating -32768 gives -32768 back), the headroom 15 - bit length of a positive
    peak (0 for a peak <= 0), and the samples times 2^headroom wrapped to int16."""
    peak = 0
    for v in (int(s) for s in x):
        if v > peak:
            peak = v
        elif -v > peak:
            peak = _int16(-v)
    scale = max(15 - peak.bit_length(), 0) if peak > 0 else 0
    return scale, [_int16(int(v) << scale) for v in x]


def energy_ref(spectrum, start, end, out_size):
    s = [int(v) for v in spectrum]
    return [(s[2 * i] ** 2 + s[2 * i + 1] ** 2) % (1 << 32) if start <= i < end else 0 for i in range(out_size)]


def filter_bank_ref(x, w, uw, freq, first, width, channels):
    """Channel c sums weight * energy over its band; its unweights (1 - weight) go to channel c + 1;
    channel 0 is not output. Everything modulo 2^64, negative weights as their 64-bit two's complement."""
    sums = [0] * (channels + 2)
    for c in range(channels + 1):
        for j in range(int(width[c])):
            energy = int(x[int(freq[c]) + j])
            sums[c] += (int(w[int(first[c]) + j]) % (1 << 64)) * energy
            sums[c + 1] += (int(uw[int(first[c]) + j]) % (1 << 64)) * energy
    return [s % (1 << 64) for s in sums[1:channels + 1]]


def rounded_sqrt(n: int) -> int:
    """floor(sqrt(n)), plus one when n - floor^2 exceeds the floor (round to nearest), capped: below 2^32 the
    result stays 16 bits (0xFFFF is not rounded up), above it 32 bits."""
    root = math.isqrt(n)
    cap = 0xFFFF if n < (1 << 32) else 0xFFFFFFFF
    if n - root * root > root and root != cap:
        root += 1
    return root % (1 << 32)


def square_root_ref(x, shift):
    return [rounded_sqrt(int(v)) >> shift for v in x]


# --------------------------------------------------------------------------- TFLM through one-operator models


def tflm_run(model: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return references.TflmRunner(model).run(inputs)


def window_model(shape, w, shift) -> bytes:
    b = ModelBuilder()
    x = b.input("x", shape, "int16")
    c = b.const("w", np.asarray(w, dtype=np.int16))
    y = b.tensor("y", shape, "int16")
    b.custom_op("SignalWindow", [x, c], [y], {"shift": int(shift)})
    b.output(y)
    return b.build()


def fft_auto_scale_model(n) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (n,), "int16")
    y = b.tensor("y", (n,), "int16")
    s = b.tensor("scale", (), "int32")
    b.custom_op("SignalFftAutoScale", [x], [y, s], {})
    b.output(y)
    b.output(s)
    return b.build()


def energy_model(bins, start, end, out_size) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (2 * bins,), "int16")
    y = b.tensor("y", (out_size,), "uint32")
    b.custom_op("SignalEnergy", [x], [y], {"end_index": int(end), "start_index": int(start)})
    b.output(y)
    return b.build()


def filter_bank_model(n, w, uw, freq, first, width, channels) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (n,), "uint32")
    consts = [b.const(name, np.asarray(v, dtype=np.int16)) for name, v in
              (("w", w), ("uw", uw), ("freq", freq), ("first", first), ("width", width))]
    y = b.tensor("y", (channels,), "uint64")
    b.custom_op("SignalFilterBank", [x, *consts], [y], {"num_channels": int(channels)})
    b.output(y)
    return b.build()


def square_root_model(n, shift) -> bytes:
    b = ModelBuilder()
    x = b.input("x", (n,), "uint64")
    s = b.const("shift", np.asarray(shift, dtype=np.int32).reshape(()))
    y = b.tensor("y", (n,), "uint32")
    b.custom_op("SignalFilterBankSquareRoot", [x, s], [y], {})
    b.output(y)
    return b.build()


# --------------------------------------------------------------------------- SignalWindow


def _window_cases(rng):
    cases = [(480, 1, 12), (16, 3, 0), (7, 2, 31), (5, 4, 15)]
    result = []
    for size, blocks, shift in cases:
        w = rng.integers(-32768, 32768, size=size)
        x = rng.integers(-32768, 32768, size=size * blocks)
        x[:4] = [-32768, 32767, -32768, 0][:min(4, x.size)]
        w[:2] = [-32768, -32768][:min(2, w.size)]
        result.append((x, w, shift))
    return result


def test_window_matches_reference_and_tflm(driver):
    rng = np.random.default_rng(170)
    cases = _window_cases(rng)
    got = driver.run([f"window {len(w)} {len(x)} {s} {_ints(w)} {_ints(x)}" for x, w, s in cases])
    for (x, w, shift), (status, out) in zip(cases, got):
        assert status == 0
        assert out == window_ref(x, w, shift)
        blocks = len(x) // len(w)
        tflm = tflm_run(window_model((blocks, len(w)), w, shift), [np.asarray(x, np.int16).reshape(blocks, len(w))])
        assert out == tflm[0].reshape(-1).tolist()
    # saturation is reached on both sides in these cases (the test would not see a missing clamp otherwise)
    outs = [v for _, (_, out) in zip(cases, got) for v in out]
    assert -32768 in outs and 32767 in outs


@pytest.mark.parametrize("record", ["window 0 0 1", "window 2 3 1 1 1 1 1 1", "window 2 2 32 1 1 1 1",
                                    "window 2 2 -1 1 1 1 1"])
def test_window_refuses_bad_arguments(driver, record):
    assert driver.run([record])[0][0] == -1


def test_window_accepts_an_empty_input_and_both_shift_limits(driver):
    # No samples is zero whole blocks: valid, nothing written; shifts 0 and 31 are the range's ends.
    got = driver.run(["window 2 0 1 5 5", "window 1 1 0 3 -7", "window 1 1 31 32767 -32768"])
    assert got == [(0, []), (0, [-21]), (0, [-1])]


# --------------------------------------------------------------------------- SignalFftAutoScale


def _auto_scale_frames(rng):
    frames = [np.zeros(8, np.int64), np.array([0, 1, -1, 0]), np.array([3, -100, 50]),
              np.array([-32768, 5, 3, -2]), np.array([7, -32768, 100, -200]), np.array([-32768, -5, -3]),
              np.array([16384, -16384]), np.array([16383, -16384]), np.array([-1, -1, -1]), np.array([32767]),
              np.array([], dtype=np.int64)]
    for bits in range(1, 16):
        frames.append(rng.integers(-(1 << bits) + 1, 1 << bits, size=int(rng.integers(1, 40))))
    frames.append(rng.integers(-32768, 32768, size=480))
    return frames


def test_fft_auto_scale_matches_reference_and_tflm(driver):
    frames = _auto_scale_frames(np.random.default_rng(171))
    got = driver.run([f"fft_auto_scale {len(f)} {_ints(f)}" for f in frames])
    scales = set()
    for frame, (status, values) in zip(frames, got):
        assert status == 0
        scale, out = values[0], values[1:]
        assert (scale, out) == fft_auto_scale_ref(frame), frame
        scales.add(scale)
        if len(frame):
            want = tflm_run(fft_auto_scale_model(len(frame)), [np.asarray(frame, np.int16)])
            assert out == want[0].tolist() and scale == int(want[1]), frame
    assert len(scales) >= 12  # the frames reach most exponents


def test_fft_auto_scale_silent_frame_keeps_exponent_zero(driver):
    # TFLM's MostSignificantBit32(0) is 32 on GCC/Clang builds: exponent 0, not 15.
    assert driver.run(["fft_auto_scale 3 0 0 0"])[0] == (0, [0, 0, 0, 0])


# --------------------------------------------------------------------------- SignalEnergy


def test_energy_matches_reference_and_tflm(driver):
    rng = np.random.default_rng(172)
    cases = [(257, 5, 241, 257), (257, 0, 257, 257), (9, 2, 7, 8), (4, 3, 1, 4), (6, 0, 0, 6)]
    records, spectra = [], []
    for bins, start, end, out_size in cases:
        s = rng.integers(-32768, 32768, size=2 * bins)
        s[:4] = [-32768, -32768, 32767, -32768][:len(s[:4])]
        spectra.append(s)
        records.append(f"energy {bins} {start} {end} {out_size} {_ints(s)}")
    for (bins, start, end, out_size), s, (status, out) in zip(cases, spectra, driver.run(records)):
        assert status == 0
        assert out == energy_ref(s, start, end, out_size)
        want = tflm_run(energy_model(bins, start, end, out_size), [np.asarray(s, np.int16)])[0].tolist()
        # TFLM writes only bins start..end-1; the kernel zeroes the rest.
        assert out[start:end] == want[start:end]
    assert (1 << 31) in driver.run(["energy 1 0 1 1 -32768 -32768"])[0][1]  # 2^30 + 2^30 wraps nowhere in uint32


@pytest.mark.parametrize("record", ["energy 2 0 3 3 1 2 3 4", "energy 2 0 2 1 1 2 3 4", "energy 2 -1 2 2 1 2 3 4"])
def test_energy_refuses_out_of_range_bins(driver, record):
    assert driver.run([record])[0][0] == -1


# --------------------------------------------------------------------------- SignalFilterBank


def _filter_bank_config(rng, bins, channels):
    """A triangular-looking bank as TFLM's Python front end lays one out: consecutive bands, weight
    offsets running through one table, random weights (negative ones too, which wrap in uint64)."""
    widths = rng.integers(0, 6, size=channels + 1)
    freq = np.zeros(channels + 1, np.int64)
    first = np.zeros(channels + 1, np.int64)
    position = offset = 0
    for c in range(channels + 1):
        freq[c] = min(position, bins - int(widths[c]))
        first[c] = offset
        position += max(int(widths[c]) - 1, 1)
        offset += int(widths[c])
    w = rng.integers(-4096, 4097, size=max(offset, 1))
    uw = rng.integers(-4096, 4097, size=max(offset, 1))
    return w, uw, freq, first, widths


def test_filter_bank_matches_reference_and_tflm(driver):
    rng = np.random.default_rng(173)
    for bins, channels in ((257, 40), (33, 6), (10, 1), (5, 0)):
        w, uw, freq, first, width = _filter_bank_config(rng, bins, channels)
        assert (freq + width <= bins).all()
        x = rng.integers(0, 1 << 32, size=bins, dtype=np.uint64)
        x[:3] = [U32, U32, 0][:len(x[:3])]
        record = (f"filter_bank {bins} {len(w)} {channels} {_ints(x)} {_ints(w)} {_ints(uw)} {_ints(freq)} "
                  f"{_ints(first)} {_ints(width)}")
        status, out = driver.run([record])[0]
        assert status == 0
        assert out == filter_bank_ref(x, w, uw, freq, first, width, channels)
        if channels:
            model = filter_bank_model(bins, w, uw, freq, first, width, channels)
            assert out == tflm_run(model, [x.astype(np.uint32)])[0].tolist()


def test_filter_bank_refuses_bands_outside_the_arrays(driver):
    # channel 1's band runs past the 4 input bins; channel 0's weights past the 2 weights
    assert driver.run(["filter_bank 4 2 1 1 2 3 4 1 1 1 1 0 3 0 0 1 2"])[0][0] == -1
    assert driver.run(["filter_bank 4 2 1 1 2 3 4 1 1 1 1 0 0 0 1 3 2"])[0][0] == -1
    # in range: channel 1 = its own weight on bin 0 plus channel 0's unweight on bin 0
    assert driver.run(["filter_bank 4 2 1 1 2 3 4 1 1 1 1 0 0 0 1 1 1"])[0] == (0, [2])


# --------------------------------------------------------------------------- SignalFilterBankSquareRoot


def _square_root_inputs(rng):
    edges = [0, 1, 2, 3, 4, 8, 15, 16, 17, 65535 * 65535, 65535 * 65535 + 65535, 65535 * 65535 + 65536,
             U32 - 1, U32, 1 << 32, (1 << 32) + 1, (1 << 40) + 12345, U64 - 1, U64,
             ((1 << 32) - 1) ** 2 + (1 << 32) - 2, (1 << 62) - 1]
    rand = [int(v) for v in rng.integers(0, 1 << 63, size=40, dtype=np.uint64)]
    rand += [int(v) for v in rng.integers(0, 1 << 32, size=40, dtype=np.uint64)]
    rand += [int(v) for v in rng.integers(0, 1 << 20, size=20, dtype=np.uint64)]
    return np.array(edges + rand, dtype=np.uint64)


@pytest.mark.parametrize("shift", [0, 1, 7, 15, 31])
def test_square_root_matches_reference_and_tflm(driver, shift):
    x = _square_root_inputs(np.random.default_rng(174 + shift))
    status, out = driver.run([f"square_root {len(x)} {shift} {_ints(x)}"])[0]
    assert status == 0
    assert out == square_root_ref(x, shift)
    assert out == tflm_run(square_root_model(len(x), shift), [x])[0].tolist()


def test_rounded_sqrt_reference_rounds_to_nearest():
    # the reference itself, on values whose rounding is known: sqrt(12) = 3.46 -> 3, sqrt(13) = 3.61 -> 4
    assert [rounded_sqrt(n) for n in (0, 1, 2, 3, 12, 13, 4294836225, 4294901760)] == [0, 1, 1, 2, 3, 4, 65535,
                                                                                      65535]


@pytest.mark.parametrize("shift", [-1, 32])
def test_square_root_refuses_shift_out_of_range(driver, shift):
    assert driver.run([f"square_root 1 {shift} 4"])[0][0] == -1


def test_square_root_accepts_no_channels_and_both_shift_limits(driver):
    # A bank of no channels is a valid (empty) call, as is each end of the shift range 0..31.
    assert driver.run(["square_root 0 7", "square_root 1 0 4", "square_root 1 31 4"]) == [(0, []), (0, [2]), (0, [0])]

# SPDX-License-Identifier: Apache-2.0
"""TFLM Signal kernels of issue 17 (second half): helia_signal_rfft_s16 / _s32 / _f32,
helia_signal_filter_bank_spectral_subtraction_u32, helia_signal_pcan_u32 and
helia_signal_filter_bank_log_u32 against the Python references (signal_b_reference.py), and the
references against TensorFlow Lite Micro's own kernels on one-operator models (signal_b_tflm.py),
on random inputs and on the options of TFLM's audio preprocessor. Driver: c/signal_b_driver.c."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import kernel_build as kb
import signal_b_reference as ref
import signal_b_tflm as tflm
from records import parse

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from helia_aot.ops.shared import signal_fft as fft_tables  # noqa: E402
from tests.skip_policy import models_not_available  # noqa: E402

TFLM_TYPE_CODES = {"int16": 7, "int32": 2, "float32": 0}  # the options' "T" (schema TensorType)
DRIVER_TYPES = {"int16": 16, "int32": 32, "float32": 0}
PREPROCESSOR = "audio_preprocessor_int8.tflite"


class Driver:
    def __init__(self, program: Path):
        self.program = program

    def run(self, records: list[str]):
        return parse(kb.run_program(self.program, "\n".join(records) + "\n"))


@pytest.fixture(scope="module")
def driver(build_root, portable_library) -> Driver:
    return Driver(kb.link_program([kb.DRIVER_DIR / "signal_b_driver.c"], [portable_library], [kb.PORTABLE_INCLUDE],
                                  build_root / "signal_b_driver"))


@pytest.fixture(scope="module")
def preprocessor_options() -> dict[str, dict]:
    """The custom options of TFLM's audio preprocessor, by custom code (skipped without the model)."""
    folder = Path(os.environ.get("HELIA_TFLM_MODELS_DIR", kb.REPO_ROOT.parent / "shared" / "models" / "tflm"))
    path = folder / PREPROCESSOR
    if not path.is_file():
        pytest.skip(models_not_available(f"TFLM model {path}", "HELIA_TFLM_MODELS_DIR to the folder holding TFLM's "
                                         "example models"))
    from ai_edge_litert import schema_py_generated as schema
    from flatbuffers import flexbuffers
    model = schema.ModelT.InitFromPackedBuf(path.read_bytes(), 0)
    found = {}
    for op in model.subgraphs[0].operators:
        code = model.operatorCodes[op.opcodeIndex].customCode
        if code:
            found[code.decode()] = dict(flexbuffers.Loads(bytes(op.customOptions)))
            if code == b"SignalPCAN":
                found["gain_lut"] = np.frombuffer(bytes(model.buffers[model.subgraphs[0].tensors[op.inputs[2]].buffer]
                                                        .data), dtype="<i2").copy()
    return found


def arr(values) -> str:
    values = np.asarray(values).reshape(-1)
    if values.dtype == np.float32:
        values = values.view(np.int32)
    return " ".join([str(values.size)] + [str(int(v)) for v in values])


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def as_type(values, dtype: str) -> np.ndarray:
    return np.asarray(values, dtype=np.int64).astype(np.int32).view(np.float32) if dtype == "float32" \
        else np.asarray(values).astype(dtype)


# ---- SignalRfft ----------------------------------------------------------------------------------------

# (fft_length, input_length): radix 4 and 2 (the preprocessor's 512 of 480), 3, 5, mixed, N = 4, a
# partial frame; radices kiss fft computes with its generic butterfly (7, 11, 1 for N = 2), which TFLM
# crashes on (its allocation is patched out), checked against the reference only.
RFFT_SHAPES = [(512, 480), (256, 256), (64, 64), (48, 40), (40, 30), (120, 97), (160, 100), (20, 20), (16, 9),
               (8, 5), (4, 4), (6, 6), (30, 30), (18, 11)]
GENERIC_SHAPES = [(14, 14), (2, 2), (44, 40), (84, 80)]


def random_frames(rng, dtype: str, length: int, count: int, amplitude: float = 1.0) -> list[np.ndarray]:
    if dtype == "float32":
        return [rng.uniform(-amplitude, amplitude, length).astype(np.float32) for _ in range(count)]
    info = np.iinfo(dtype)
    hi = max(int(info.max * amplitude), 1)
    return [rng.integers(-hi - 1, hi, length, endpoint=True).astype(dtype) for _ in range(count)]


def square_frames(dtype: str, length: int, fft_length: int) -> list[np.ndarray]:
    """Full-scale square waves: bins up to 2/pi of full scale, so the split's (a + b) / 2 exceeds the
    sample range before it is halved (int16 halves the C int sum, int32 wraps first; TFLM does both)."""
    top, bottom = (1.0, -1.0) if dtype == "float32" else (np.iinfo(dtype).max, np.iinfo(dtype).min)
    t = np.arange(length)
    frames = []
    for k in sorted({1, 2, 3, max(fft_length // 8, 1), max(fft_length // 4 - 1, 1), fft_length // 3}):
        for phase in (0.0, 0.25, 0.5):
            wave = np.cos(2 * np.pi * k * t / fft_length + phase * np.pi)
            frames.append(np.where(wave >= 0, top, bottom).astype(dtype))
    return frames


def rfft_record(dtype: str, fft_length: int, frames: list[np.ndarray]) -> str:
    n = fft_length // 2
    return (f"rfft {DRIVER_TYPES[dtype]} {fft_length} {arr(fft_tables.factor_table(n))} "
            f"{arr(fft_tables.twiddles(n, dtype))} {arr(fft_tables.split_twiddles(n, dtype))} "
            f"{len(frames)} {frames[0].size} {arr(np.concatenate(frames))}")


@pytest.mark.parametrize("dtype", ["int16", "int32", "float32"])
def test_rfft_matches_reference(driver, dtype):
    rng = np.random.default_rng(170 + DRIVER_TYPES[dtype])
    records, wants = [], []
    for fft_length, length in RFFT_SHAPES + GENERIC_SHAPES:
        for amplitude in (1.0, 0.01):  # full scale wraps in the fixed-point sums; small stays exact
            frames = random_frames(rng, dtype, length, 3, amplitude)
            records.append(rfft_record(dtype, fft_length, frames))
            wants.append([ref.rfft(f, fft_length, dtype) for f in frames])
        frames = square_frames(dtype, length, fft_length)
        records.append(rfft_record(dtype, fft_length, frames))
        wants.append([ref.rfft(f, fft_length, dtype) for f in frames])
    results = iter(driver.run(records))
    for want_frames in wants:
        for want in want_frames:
            got = next(results)
            assert got.status == 0
            assert same_bits(as_type(got.values, dtype), want)


@pytest.mark.parametrize("dtype", ["int16", "int32", "float32"])
def test_rfft_reference_matches_tflm(dtype):
    rng = np.random.default_rng(180 + DRIVER_TYPES[dtype])
    for fft_length, length in RFFT_SHAPES:
        model = tflm.custom_model("SignalRfft", {"T": TFLM_TYPE_CODES[dtype], "fft_length": fft_length},
                                  [(dtype, [length], None)], [(dtype, [fft_length + 2])])
        frames = random_frames(rng, dtype, length, 3) + random_frames(rng, dtype, length, 2, 0.001) \
            + square_frames(dtype, length, fft_length)
        for frame, got in zip(frames, tflm.run(model, [[f] for f in frames])):
            assert same_bits(ref.rfft(frame, fft_length, dtype), got[0]), (fft_length, length)


def test_rfft_kernel_matches_tflm_on_the_preprocessor_options(driver, preprocessor_options):
    options = preprocessor_options["SignalRfft"]
    fft_length = options["fft_length"]
    assert options["T"] == TFLM_TYPE_CODES["int16"]
    rng = np.random.default_rng(190)
    frames = random_frames(rng, "int16", 480, 20) + random_frames(rng, "int16", 480, 10, 1 / 64) \
        + square_frames("int16", 480, fft_length)
    model = tflm.custom_model("SignalRfft", options, [("int16", [480], None)], [("int16", [fft_length + 2])])
    wants = tflm.run(model, [[f] for f in frames])
    for got, want in zip(driver.run([rfft_record("int16", fft_length, frames)]), wants):
        assert same_bits(as_type(got.values, "int16"), want[0])


@pytest.mark.parametrize("fft_length", [512, 240, 60])
def test_rfft_is_a_fourier_transform(driver, fft_length):
    # Against NumPy's FFT, independently of kiss fft: float32 close to rfft(x), int16 close to rfft(x) / N.
    rng = np.random.default_rng(200 + fft_length)
    x = rng.uniform(-1, 1, fft_length).astype(np.float32)
    got = as_type(driver.run([rfft_record("float32", fft_length, [x])])[0].values, "float32")
    want = np.fft.rfft(x.astype(np.float64))
    np.testing.assert_allclose(got[0::2] + 1j * got[1::2], want, atol=1e-4 * fft_length)
    q = rng.integers(-8000, 8000, fft_length).astype(np.int16)
    got16 = driver.run([rfft_record("int16", fft_length, [q])])[0].values.astype(np.float64)
    want16 = np.fft.rfft(q.astype(np.float64)) / fft_length
    assert np.max(np.abs(got16[0::2] + 1j * got16[1::2] - want16)) < 12  # rounding at each of log N stages


def test_rfft_tables_are_kiss_fft_plans():
    assert fft_tables.factors(256) == [(4, 64), (4, 16), (4, 4), (4, 1)]
    assert fft_tables.factors(240) == [(4, 60), (4, 15), (3, 5), (5, 1)]
    assert fft_tables.factors(6) == [(2, 3), (3, 1)]
    assert fft_tables.factors(22) == [(2, 11), (11, 1)]
    assert fft_tables.factors(1) == [(1, 1)]
    assert fft_tables.largest_generic_radix(42) == 7 and fft_tables.largest_generic_radix(240) == 0
    tw = fft_tables.twiddles(4, "int16")
    assert tw.tolist() == [[32767, 0], [0, -32767], [-32767, 0], [0, 32767]]
    assert fft_tables.scratch_elements(28) == 2 * 28 + 2 * 7


# ---- SignalFilterBankSpectralSubtraction ---------------------------------------------------------------

def subtraction_record(options: dict, frames: list[np.ndarray]) -> str:
    o = options
    return (f"subtract {o['num_channels']} {o['smoothing']} {o['one_minus_smoothing']} {o['alternate_smoothing']} "
            f"{o['alternate_one_minus_smoothing']} {o['min_signal_remaining']} {o['smoothing_bits']} "
            f"{o['spectral_subtraction_bits']} {int(o['clamping'])} {len(frames)} {arr(np.concatenate(frames))}")


def random_subtraction_options(rng, channels: int, clamping: bool) -> dict:
    bits = int(rng.integers(8, 20))
    smoothing = int(rng.integers(0, 1 << bits))
    alternate = int(rng.integers(0, 1 << bits))
    return dict(num_channels=channels, smoothing=smoothing, one_minus_smoothing=(1 << bits) - smoothing,
                alternate_smoothing=alternate, alternate_one_minus_smoothing=(1 << bits) - alternate,
                min_signal_remaining=int(rng.integers(0, 1 << bits)), smoothing_bits=int(rng.integers(0, 16)),
                spectral_subtraction_bits=bits, clamping=clamping)


def subtraction_frames(rng, channels: int, count: int, top: int) -> list[np.ndarray]:
    """Frames whose level rises and falls, so the estimate both lags and overshoots the signal."""
    level = rng.integers(1, top, channels)
    frames = []
    for k in range(count):
        gain = 1.0 if k % 7 < 4 else 0.05
        frames.append(np.minimum(level * gain * rng.uniform(0.5, 1.5, channels), 0xFFFFFFFF).astype(np.uint32))
    return frames


def test_spectral_subtraction_matches_reference(driver):
    rng = np.random.default_rng(210)
    cases = []
    for channels, clamping, top in ((40, False, 1 << 16), (40, True, 1 << 16), (7, True, 1 << 31),
                                    (1, False, 1 << 32), (33, False, 1 << 24)):
        options = random_subtraction_options(rng, channels, clamping)
        cases.append((options, subtraction_frames(rng, channels, 20, top)))
    # Wrap-around: shifts that overflow uint32 and coefficients whose products overflow uint64.
    wrap = dict(num_channels=5, smoothing=0xFFFFFFFF, one_minus_smoothing=0xFFFFFFF0, alternate_smoothing=3,
                alternate_one_minus_smoothing=0x80000000, min_signal_remaining=0xFFFFFFFF, smoothing_bits=31,
                spectral_subtraction_bits=63, clamping=True)
    cases.append((wrap, [rng.integers(0, 1 << 32, 5, dtype=np.uint64).astype(np.uint32) for _ in range(20)]))
    records = [subtraction_record(o, f) for o, f in cases]
    results = iter(driver.run(records))
    for options, frames in cases:
        for want_out, want_noise in ref.spectral_subtraction(frames, options):
            out, noise = next(results), next(results)
            assert out.values.tolist() == want_out.tolist()
            assert noise.values.tolist() == want_noise.tolist()


def spectral_subtraction_tflm(options: dict, frames: list[np.ndarray]) -> list[list[np.ndarray]]:
    c = options["num_channels"]
    model = tflm.custom_model("SignalFilterBankSpectralSubtraction", options, [("uint32", [c], None)],
                              [("uint32", [c]), ("uint32", [c])])
    return tflm.run(model, [[f] for f in frames])


def test_spectral_subtraction_reference_matches_tflm_over_a_sequence():
    rng = np.random.default_rng(220)
    for channels, clamping in ((40, False), (40, True), (9, True)):
        options = random_subtraction_options(rng, channels, clamping)
        frames = subtraction_frames(rng, channels, 20, 1 << 20)
        for (out, noise), got in zip(ref.spectral_subtraction(frames, options), spectral_subtraction_tflm(options,
                                                                                                          frames)):
            assert same_bits(out, got[0]) and same_bits(noise, got[1])


def test_spectral_subtraction_kernel_matches_tflm_on_the_preprocessor_options(driver, preprocessor_options):
    options = preprocessor_options["SignalFilterBankSpectralSubtraction"]
    rng = np.random.default_rng(230)
    frames = subtraction_frames(rng, options["num_channels"], 20, 1 << 14)
    wants = spectral_subtraction_tflm(options, frames)
    results = driver.run([subtraction_record(options, frames)])
    for k, want in enumerate(wants):
        assert results[2 * k].values.tolist() == want[0].tolist()
        assert results[2 * k + 1].values.tolist() == want[1].tolist()


# ---- SignalPCAN ----------------------------------------------------------------------------------------

def pcan_inputs(rng, channels: int):
    """Signal and noise levels over every octave of uint32 (each gain_lut segment) and 0 .. 2."""
    octave = rng.integers(0, 33, channels)
    noise = np.array([int(rng.integers(0, 3)) if b == 0 else int(rng.integers(1 << (b - 1), 1 << b, dtype=np.uint64))
                      for b in octave], dtype=np.uint64).astype(np.uint32)
    signal = rng.integers(0, 1 << 32, channels, dtype=np.uint64).astype(np.uint32) >> rng.integers(0, 32, channels)
    return signal.astype(np.uint32), noise


def test_pcan_matches_reference(driver):
    rng = np.random.default_rng(240)
    cases = []
    for channels, shift in ((40, 6), (17, 0), (64, 63), (3, 31), (128, 12)):
        lut = rng.integers(-32768, 32768, 125).astype(np.int16)
        cases.append((*pcan_inputs(rng, channels), lut, shift))
    records = [f"pcan {s} {arr(x)} {arr(n)} {arr(lut)}" for x, n, lut, s in cases]
    for got, (x, n, lut, s) in zip(driver.run(records), cases):
        assert got.values.tolist() == ref.pcan(x, n, lut, s).tolist()


def pcan_tflm(x, noise, lut, snr_shift):
    c = x.size
    model = tflm.custom_model("SignalPCAN", {"snr_shift": snr_shift},
                              [("uint32", [c], None), ("uint32", [c], None), ("int16", [lut.size], lut)],
                              [("uint32", [c])])
    return tflm.run(model, [[x, noise]])[0][0]


def test_pcan_reference_matches_tflm():
    rng = np.random.default_rng(250)
    for channels, shift in ((40, 6), (12, 0), (25, 40)):
        lut = rng.integers(-32768, 32768, 125).astype(np.int16)
        x, noise = pcan_inputs(rng, channels)
        assert same_bits(ref.pcan(x, noise, lut, shift), pcan_tflm(x, noise, lut, shift))


def test_pcan_kernel_matches_tflm_on_the_preprocessor_options(driver, preprocessor_options):
    lut, shift = preprocessor_options["gain_lut"], preprocessor_options["SignalPCAN"]["snr_shift"]
    rng = np.random.default_rng(260)
    for _ in range(5):
        x, noise = pcan_inputs(rng, 40)
        got = driver.run([f"pcan {shift} {arr(x)} {arr(noise)} {arr(lut)}"])[0]
        assert got.values.tolist() == pcan_tflm(x, noise, lut, shift).tolist()


# ---- SignalFilterBankLog -------------------------------------------------------------------------------

def log_inputs(rng, channels: int) -> np.ndarray:
    x = rng.integers(0, 1 << 32, channels, dtype=np.uint64) >> rng.integers(0, 33, channels).astype(np.uint64)
    x[: min(channels, 4)] = [0, 1, 2, 3][: min(channels, 4)]
    return x.astype(np.uint32)


LOG_OPTIONS = [(64, 3), (1, 0), (32767, 31), (-5, 4), (1 << 20, 7), (2147483647, 1)]  # (output_scale, bits)


def test_log_matches_reference(driver):
    rng = np.random.default_rng(270)
    cases = [(scale, bits, log_inputs(rng, 50)) for scale, bits in LOG_OPTIONS]
    records = [f"log {scale} {bits} {arr(x)}" for scale, bits, x in cases]
    for got, (scale, bits, x) in zip(driver.run(records), cases):
        assert got.values.tolist() == ref.filter_bank_log(x, scale, bits).tolist()


def log_tflm(x, output_scale, bits):
    model = tflm.custom_model("SignalFilterBankLog", {"input_correction_bits": bits, "output_scale": output_scale},
                              [("uint32", [x.size], None)], [("int16", [x.size])])
    return tflm.run(model, [[x]])[0][0]


def test_log_reference_matches_tflm():
    rng = np.random.default_rng(280)
    for scale, bits in LOG_OPTIONS:
        x = log_inputs(rng, 64)
        assert same_bits(ref.filter_bank_log(x, scale, bits), log_tflm(x, scale, bits)), (scale, bits)


def test_log_kernel_matches_tflm_on_the_preprocessor_options(driver, preprocessor_options):
    options = preprocessor_options["SignalFilterBankLog"]
    scale, bits = options["output_scale"], options["input_correction_bits"]
    rng = np.random.default_rng(290)
    x = np.concatenate([log_inputs(rng, 200), np.arange(0, 4096, dtype=np.uint32)])
    got = driver.run([f"log {scale} {bits} {arr(x)}"])[0]
    assert got.values.tolist() == log_tflm(x, scale, bits).tolist()


def test_log_table_is_the_log2_correction():
    # Spot values of round(65536 (log2(1 + f) - f)): none at the ends, its maximum near f = 0.44.
    table = ref.LOG2_CORRECTION
    assert table[0] == 0 and table[128] == 0 and len(table) == 129
    assert max(table) == table[57] == 5641


# ---- argument checks -----------------------------------------------------------------------------------

JUNK16, JUNK32 = -23131, -1515870811  # the driver's 0xA5 fill, as int16 / int32


def test_out_of_range_arguments_return_minus_one_and_write_nothing(driver):
    x = np.arange(8, dtype=np.int16)
    odd = (f"rfft 16 7 {arr(fft_tables.factor_table(3))} {arr(fft_tables.twiddles(3, 'int16'))} "
           f"{arr(fft_tables.split_twiddles(3, 'int16'))} 1 7 {arr(np.arange(7))}")
    long_input = (f"rfft 16 4 {arr(fft_tables.factor_table(2))} {arr(fft_tables.twiddles(2, 'int16'))} "
                  f"{arr(fft_tables.split_twiddles(2, 'int16'))} 1 8 {arr(x)}")
    options = dict(num_channels=3, smoothing=1, one_minus_smoothing=1, alternate_smoothing=1,
                   alternate_one_minus_smoothing=1, min_signal_remaining=1, smoothing_bits=32,
                   spectral_subtraction_bits=14, clamping=False)
    too_wide = dict(options, smoothing_bits=10, spectral_subtraction_bits=64)
    lut = np.zeros(125, dtype=np.int16)
    records = [odd, long_input, subtraction_record(options, [np.ones(3, np.uint32)]),
               subtraction_record(too_wide, [np.ones(3, np.uint32)]),
               f"pcan 64 {arr([1, 2])} {arr([1, 2])} {arr(lut)}", f"pcan -1 {arr([1, 2])} {arr([1, 2])} {arr(lut)}",
               f"log 64 32 {arr([5, 6])}"]
    results = driver.run(records)
    assert [r.status for r in results] == [-1] * 9
    assert set(results[0].values.tolist()) == {JUNK16} and set(results[1].values.tolist()) == {JUNK16}
    for r in results[2:8]:
        assert set(r.values.tolist()) == {JUNK32 & 0xFFFFFFFF}
    assert set(results[8].values.tolist()) == {JUNK16}
    # and in range they succeed
    assert driver.run([f"log 64 31 {arr([5, 6])}", f"pcan 63 {arr([1, 2])} {arr([1, 2])} {arr(lut)}"])[0].status == 0

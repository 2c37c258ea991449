# SPDX-License-Identifier: Apache-2.0
"""TensorFlow Lite Micro's audio front end (micro_speech's audio_preprocessor_int8.tflite: the Signal
operators and the int32 arithmetic around them), compiled whole and run on the host under ASan/UBSan with
the portable kernels, against TFLM's own interpreter, bit for bit:

- the four 1 s clips framed as the micro_speech pipeline frames them (frame i = samples [320 i, 320 i + 480),
  zero-padded at the end; 49 frames), the state reset before each clip and carried across its frames;
- then, after one more reset, 100 random frames (loudness varying from frame to frame, silent and
  full-scale ones among them) as one sequence.

One process runs every frame (tests/e2e/c/frontend_harness.c resets the module where TFLM is reset), so
the reset is exercised for real, not only a fresh start. Where the module departs from TFLM, the first
operator to do so is named."""

from __future__ import annotations

import pathlib
import subprocess
import wave

import numpy as np
import pytest

import helia_aot
from helia_aot.golden import references
from tests.e2e import harness, tflm
from tests.skip_policy import models_not_available

MODEL = "audio_preprocessor_int8"
CLIPS = ("yes_1000ms", "no_1000ms", "silence_1000ms", "noise_1000ms")
FRAME, STEP, FRAMES_PER_CLIP = 480, 320, 49
FEATURES = 40
RANDOM_FRAMES = 100
SEED = 1717


def read_clip(path: pathlib.Path) -> np.ndarray:
    with wave.open(str(path), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 16000), path
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.int16)


def clip_frames(audio: np.ndarray) -> list[np.ndarray]:
    """The micro_speech framing: 49 windows of 480 samples every 320, zero-padded past the clip's end."""
    padded = np.zeros(STEP * (FRAMES_PER_CLIP - 1) + FRAME, dtype=np.int16)
    padded[:min(len(audio), len(padded))] = audio[:len(padded)]
    return [padded[STEP * i:STEP * i + FRAME].reshape(1, FRAME) for i in range(FRAMES_PER_CLIP)]


def random_frames(rng: np.random.Generator) -> list[np.ndarray]:
    """Noise whose amplitude is 2^k, k drawn per frame (every FFT auto-scale exponent occurs), with a silent
    frame, a full-scale one holding -32768, and tones."""
    frames = []
    for i in range(RANDOM_FRAMES):
        if i == 7:
            x = np.zeros(FRAME, dtype=np.int64)
        elif i == 23:
            x = rng.integers(-32768, 32768, size=FRAME)
            x[::37] = -32768
        elif i % 10 == 5:
            t = np.arange(FRAME)
            x = np.round(rng.uniform(100, 30000) * np.sin(2 * np.pi * rng.uniform(50, 7900) * t / 16000))
        else:
            amplitude = 1 << int(rng.integers(0, 16))
            x = rng.integers(-amplitude, amplitude, size=FRAME)
        frames.append(np.clip(x, -32768, 32767).astype(np.int16).reshape(1, FRAME))
    return frames


def sequences(models_dir: pathlib.Path) -> list[tuple[str, list[np.ndarray]]]:
    """(name, frames) of every sequence, each starting from a reset."""
    result = [(clip, clip_frames(read_clip(models_dir / f"{clip}.wav"))) for clip in CLIPS]
    result.append(("random", random_frames(np.random.default_rng(SEED))))
    return result


def tflm_features(model_bytes: bytes, seqs) -> list[list[np.ndarray]]:
    """TFLM's features: one interpreter, reset before each sequence, as the module."""
    runner = references.TflmRunner(model_bytes)
    result = []
    for _, frames in seqs:
        runner.reset()
        result.append([runner.run([f])[0].reshape(-1).copy() for f in frames])
    return result


def build_module(root: pathlib.Path, model_bytes: bytes, library: harness.KernelLibrary) -> pathlib.Path:
    module = root / "module"
    helia_aot.convert(model_bytes, module, prefix=harness.PREFIX, target="host")
    exe = root / "audio_frontend"
    harness.run_command([harness.HOST_CC, *harness.HOST_CFLAGS, *library.define_flags, "-I", str(module / "include"),
                         *library.include_flags, "-I", str(harness.REPO_ROOT / "tests" / "c"),  # driver_io.h
                         *harness.module_sources(module),
                         str(harness.C_DIR / "frontend_harness.c"), str(library.archive), "-lm", "-o", str(exe)],
                        "build the audio front end harness", timeout=harness.COMPILE_TIMEOUT_S)
    return exe


def module_features(exe: pathlib.Path, seqs) -> list[list[np.ndarray]]:
    frames = [(k == 0, f) for _, fs in seqs for k, f in enumerate(fs)]
    payload = bytearray(np.uint32(len(frames)).tobytes())
    for reset, f in frames:
        payload += bytes([1 if reset else 0]) + np.ascontiguousarray(f, dtype=np.int16).tobytes()
    proc = subprocess.run([str(exe)], input=bytes(payload), capture_output=True, timeout=harness.HOST_RUN_TIMEOUT_S,
                          env={**harness.os.environ, **harness.SANITIZER_ENV})
    stderr = proc.stderr.decode("utf-8", "replace")
    assert not any(marker in stderr for marker in harness.SANITIZER_MARKERS), stderr[-4000:]
    assert proc.returncode == 0, stderr[-4000:]
    out = np.frombuffer(proc.stdout, dtype=np.int8)
    assert out.size == FEATURES * len(frames), f"{out.size} bytes for {len(frames)} frames"
    out = out.reshape(len(frames), FEATURES)
    result, start = [], 0
    for _, fs in seqs:
        result.append([out[start + k].copy() for k in range(len(fs))])
        start += len(fs)
    return result


@pytest.fixture(scope="module")
def frontend(e2e, tmp_path_factory):
    path = tflm.models_dir() / f"{MODEL}.tflite"
    if not path.is_file():
        pytest.skip(models_not_available(f"TFLM model {path}", f"{tflm.TFLM_MODELS_ENV} to the folder holding "
                                         "TFLM's example models and clips"))
    model_bytes = path.read_bytes()
    seqs = sequences(tflm.models_dir())
    exe = build_module(tmp_path_factory.mktemp("audio_frontend"), model_bytes, e2e.portable_host_library())
    return model_bytes, seqs, module_features(exe, seqs), tflm_features(model_bytes, seqs)


def _first_divergence(e2e, model_bytes: bytes, frames: list[np.ndarray]) -> str:
    model = tflm.TflmModel(name=f"{MODEL}_diagnosis", kind="tflm", model_bytes=model_bytes, seed=SEED, tolerance=0)
    model.__dict__["samples"] = [[f] for f in frames]
    first = harness.first_divergence(tflm.operator_diffs(e2e, model, e2e.portable_host_library()))
    return str(first) if first else "none (only at the model output)"


@pytest.mark.parametrize("sequence", [*CLIPS, "random"])
def test_features_match_tflm_bit_for_bit(e2e, frontend, sequence, record_property):
    model_bytes, seqs, got, want = frontend
    k = [name for name, _ in seqs].index(sequence)
    frames = seqs[k][1]
    diffs = [int(np.max(np.abs(g.astype(np.int64) - w.astype(np.int64)))) for g, w in zip(got[k], want[k])]
    record_property("max_abs_diff", max(diffs))
    e2e.record("audio front end vs TFLM", sequence, max_abs_diff=max(diffs), frames=len(frames),
               differing_frames=sum(d > 0 for d in diffs))
    if max(diffs) > 0:
        first = next(i for i, d in enumerate(diffs) if d)
        pytest.fail(f"{sequence}: {sum(d > 0 for d in diffs)} of {len(frames)} frames differ from TFLM (max |diff| "
                    f"{max(diffs)}, first frame {first}); first operator to differ: "
                    f"{_first_divergence(e2e, model_bytes, frames[:first + 1])}")
    # Features that carry information: they vary over the sequence and span most of int8 (quiet random
    # frames all give -128, hence a quarter).
    assert len({tuple(w.tolist()) for w in want[k]}) > len(frames) // 4
    assert int(np.ptp(np.stack(want[k]).astype(np.int64))) > 100


def test_clip_state_carries_and_resets(frontend):
    """The same frame gives other features later in a clip (spectral subtraction and PCAN adapt), and the
    first frame of each clip is what a fresh TFLM interpreter gives (the module's reset is complete)."""
    model_bytes, seqs, got, _ = frontend
    for (name, frames), features in zip(seqs, got):
        fresh = references.TflmRunner(model_bytes).run([frames[0]])[0].reshape(-1)
        assert features[0].tolist() == fresh.tolist(), name
    silence_frames, silence = seqs[2][1], got[2]
    runner = references.TflmRunner(model_bytes)
    again = [runner.run([silence_frames[0]])[0].reshape(-1) for _ in range(3)]
    assert again[0].tolist() != again[2].tolist(), "TFLM's front end should adapt to a repeated frame"
    assert silence[0].tolist() == again[0].tolist()


def test_ns_cmsis_nn_build_gives_the_same_features(e2e, ns_cmsis_nn_root, frontend, tmp_path):
    """Built against ns-cmsis-nn (which has no Signal kernels: the harness's library carries ours, as
    Bazel's //kernels:ns_cmsis_nn_with_signal does), the front end gives the portable build's features,
    bit for bit, on every sequence."""
    model_bytes, seqs, portable, _ = frontend
    exe = build_module(tmp_path, model_bytes, e2e.ns_cmsis_nn_host_library(ns_cmsis_nn_root))
    got = module_features(exe, seqs)
    for (name, _), g, p in zip(seqs, got, portable):
        differing = [i for i, (a, b) in enumerate(zip(g, p)) if a.tolist() != b.tolist()]
        assert not differing, f"{name}: frames {differing[:10]} differ between ns-cmsis-nn and portable builds"

# SPDX-License-Identifier: Apache-2.0
"""models/micro_speech/speech_data.py, the example's build-time data: TFLM's framing (the part the four
1 s clips never reach: zero padding past the end), the .wav checks, and the label check against TFLM."""

from __future__ import annotations

import importlib.util
import os
import wave
from pathlib import Path

import numpy as np
import pytest
from tests.skip_policy import models_not_available

_REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("speech_data", _REPO / "models" / "micro_speech" / "speech_data.py")
speech_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(speech_data)


def _tflm_dir() -> Path:
    if os.environ.get("HELIA_TFLM_MODELS_DIR"):
        return Path(os.environ["HELIA_TFLM_MODELS_DIR"])
    mlperf = Path(os.environ.get("HELIA_MODELS_DIR", _REPO.parent / "shared" / "models" / "mlperf-tiny"))
    return mlperf.parent / "tflm"


def _write_wav(path: Path, samples: np.ndarray, channels: int = 1, rate: int = 16000) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.astype("<i2").tobytes())
    return path


def test_frames_are_480_samples_every_320_zero_padded_past_the_end():
    samples = np.arange(1, 15701, dtype=np.int16)  # 15700 samples: frame 48 runs 140 past the end
    for index in (0, 1, 47):
        np.testing.assert_array_equal(speech_data.frame(samples, index), samples[320 * index:320 * index + 480])
    last = speech_data.frame(samples, 48)
    np.testing.assert_array_equal(last[:340], samples[15360:])
    assert not last[340:].any() and last.shape == (480,) and last.dtype == np.int16
    assert not speech_data.frame(samples[:100], 1).any()


def test_read_wav_takes_16_khz_mono_and_refuses_others(tmp_path):
    samples = np.array([0, 1, -1, 32767, -32768], dtype=np.int16)
    np.testing.assert_array_equal(speech_data.read_wav(_write_wav(tmp_path / "ok.wav", samples)), samples)
    with pytest.raises(SystemExit, match="not 16 kHz mono"):
        speech_data.read_wav(_write_wav(tmp_path / "stereo.wav", np.zeros(8, np.int16), channels=2))
    with pytest.raises(SystemExit, match="8000 Hz"):
        speech_data.read_wav(_write_wav(tmp_path / "8k.wav", samples, rate=8000))


def test_clips_c_holds_every_sample_and_the_table(tmp_path):
    text = speech_data.clips_c([("a", np.array([1, -2, 3], np.int16)), ("b", np.array([-32768], np.int16))])
    assert "static const int16_t clip_a[3] = {\n    1, -2, 3\n};" in text
    assert "static const int16_t clip_b[1] = {\n    -32768\n};" in text
    assert '{"a", clip_a, 3},' in text and '{"b", clip_b, 1},' in text
    assert "const int32_t speech_num_clips = 2;" in text


def test_clip_arguments_need_a_c_name_and_a_known_label():
    assert speech_data._clip_arg("yes_1000ms=/x/yes.wav:yes") == ("yes_1000ms", Path("/x/yes.wav"), "yes")
    assert speech_data._clip_arg("n=/x/n.wav") == ("n", Path("/x/n.wav"), None)
    for bad in ("1x=/a.wav", "x=/a.wav:maybe", "x="):
        with pytest.raises(Exception, match="--clip"):
            speech_data._clip_arg(bad)


def test_expected_fails_when_tflm_labels_a_clip_otherwise(tmp_path, capsys):
    folder = _tflm_dir()
    if not (folder / "audio_preprocessor_int8.tflite").is_file():
        pytest.skip(models_not_available(f"TFLM's micro_speech models in {folder}", "HELIA_TFLM_MODELS_DIR"))
    args = ["expected", "--preprocessor", str(folder / "audio_preprocessor_int8.tflite"),
            "--classifier", str(folder / "micro_speech_quantized.tflite"), "--out", str(tmp_path / "e.c")]
    assert speech_data.main(args + ["--clip", f"yes_1000ms={folder / 'yes_1000ms.wav'}:no"]) == 1
    assert "labels yes_1000ms 'yes'" in capsys.readouterr().err
    assert not (tmp_path / "e.c").exists()
    assert speech_data.main(args + ["--clip", f"yes_1000ms={folder / 'yes_1000ms.wav'}:yes"]) == 0
    text = (tmp_path / "e.c").read_text()
    assert "{-128, -128, 127, -128}, /* yes_1000ms */" in text  # TFLM's scores (the shared README's)
    assert "speech_expected_labels[1] = {2};" in text

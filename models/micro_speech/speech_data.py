# SPDX-License-Identifier: Apache-2.0
"""Build-time data of the micro_speech example: the test clips as C arrays, and TensorFlow Lite
Micro's features and scores for them (the golden test's reference).

  speech_data.py clips --out speech_clips.c --clip NAME=WAV[:LABEL] ...
  speech_data.py expected --preprocessor P.tflite --classifier C.tflite --out speech_expected.c \
      --clip NAME=WAV:LABEL ...

The pipeline is TFLM's micro_speech example (../shared/models/tflm/README.md): frame i = samples
[320 i, 320 i + 480) of the clip, zero-padded at the end, i = 0..48; the preprocessor is reset before
each clip and run on every frame in order (its noise estimates carry from frame to frame); the 49 x 40
int8 features, frame after frame, are the classifier's input. `expected` runs that pipeline in TFLM's
interpreter and fails when TFLM's label for a clip is not the LABEL given (the README's).
"""

from __future__ import annotations

import argparse
import sys
import wave
from pathlib import Path

import numpy as np

SAMPLE_RATE = 16000
FRAME_SAMPLES = 480  # 30 ms
FRAME_STRIDE = 320  # 20 ms
NUM_FRAMES = 49
NUM_FEATURES = 40
# The classifier's outputs, in order.
LABELS = ("silence", "unknown", "yes", "no")


def read_wav(path: Path) -> np.ndarray:
    """The samples of a 16 kHz mono 16-bit PCM .wav file."""
    with wave.open(str(path), "rb") as clip:
        if (clip.getnchannels(), clip.getsampwidth(), clip.getframerate()) != (1, 2, SAMPLE_RATE):
            raise SystemExit(f"{path}: not 16 kHz mono 16-bit PCM (channels {clip.getnchannels()}, "
                             f"{8 * clip.getsampwidth()} bits, {clip.getframerate()} Hz)")
        return np.frombuffer(clip.readframes(clip.getnframes()), dtype="<i2").astype(np.int16)


def frame(samples: np.ndarray, index: int) -> np.ndarray:
    """Frame `index` of a clip: FRAME_SAMPLES samples from FRAME_STRIDE * index, zeros past the end."""
    out = np.zeros(FRAME_SAMPLES, dtype=np.int16)
    part = samples[FRAME_STRIDE * index:FRAME_STRIDE * index + FRAME_SAMPLES]
    out[:len(part)] = part
    return out


def tflm_pipeline(preprocessor: bytes, classifier: bytes, clips: list[np.ndarray]):
    """TFLM's (features [NUM_FRAMES, NUM_FEATURES] int8, scores [len(LABELS)] int8) per clip."""
    from helia_aot.golden import references

    front = references.TflmRunner(preprocessor)
    back = references.TflmRunner(classifier)
    results = []
    for samples in clips:
        front.reset()
        features = np.stack([front.run([frame(samples, i)])[0].reshape(NUM_FEATURES)
                             for i in range(NUM_FRAMES)]).astype(np.int8)
        scores = back.run([features.reshape(1, NUM_FRAMES * NUM_FEATURES)])[0].reshape(len(LABELS))
        results.append((features, scores.astype(np.int8)))
    return results


def _c_rows(values: np.ndarray, per_line: int = 16) -> str:
    flat = [str(int(v)) for v in np.asarray(values).reshape(-1)]
    return ",\n".join("    " + ", ".join(flat[i:i + per_line]) for i in range(0, len(flat), per_line))


def _header(what: str) -> str:
    return ("/* SPDX-License-Identifier: Apache-2.0 */\n"
            f"/* Generated at build time by models/micro_speech/speech_data.py: {what}. Not committed. */\n"
            "#include <stdint.h>\n\n#include \"speech_data.h\"\n\n")


def clips_c(clips: list[tuple[str, np.ndarray]]) -> str:
    text = _header("TFLM's micro_speech test clips (Apache-2.0) as C arrays")
    for name, samples in clips:
        text += f"static const int16_t clip_{name}[{len(samples)}] = {{\n{_c_rows(samples, 12)}\n}};\n\n"
    text += f"const int32_t speech_num_clips = {len(clips)};\n"
    text += "const speech_clip_t speech_clips[] = {\n" + "".join(
        f"    {{\"{name}\", clip_{name}, {len(samples)}}},\n" for name, samples in clips) + "};\n"
    return text


def expected_c(names: list[str], labels: list[str], results) -> str:
    text = _header("TensorFlow Lite Micro's features and scores for the test clips")
    text += f"const int8_t speech_expected_features[{len(names)}][SPEECH_FEATURE_BYTES] = {{\n"
    text += "".join(f"    {{ /* {name} */\n{_c_rows(features, 20)}\n    }},\n"
                    for name, (features, _) in zip(names, results)) + "};\n\n"
    text += f"const int8_t speech_expected_scores[{len(names)}][SPEECH_NUM_LABELS] = {{\n"
    text += "".join(f"    {{{', '.join(str(int(s)) for s in scores)}}}, /* {name} */\n"
                    for name, (_, scores) in zip(names, results)) + "};\n\n"
    text += f"const int32_t speech_expected_labels[{len(names)}] = {{" + ", ".join(
        str(LABELS.index(label)) for label in labels) + "};\n"
    return text


def _clip_arg(text: str) -> tuple[str, Path, str | None]:
    name, _, rest = text.partition("=")
    path, _, label = rest.partition(":")
    if not name.isidentifier() or not path:
        raise argparse.ArgumentTypeError(f"--clip {text!r}: expected NAME=WAV[:LABEL], NAME a C identifier")
    if label and label not in LABELS:
        raise argparse.ArgumentTypeError(f"--clip {text!r}: label must be one of {', '.join(LABELS)}")
    return name, Path(path), label or None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=("clips", "expected"))
    parser.add_argument("--clip", action="append", type=_clip_arg, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--preprocessor", type=Path)
    parser.add_argument("--classifier", type=Path)
    args = parser.parse_args(argv)
    clips = [(name, read_wav(path)) for name, path, _ in args.clip]
    if args.kind == "clips":
        args.out.write_text(clips_c(clips), encoding="utf-8")
        return 0
    if not args.preprocessor or not args.classifier or any(label is None for *_, label in args.clip):
        parser.error("expected needs --preprocessor, --classifier and a LABEL on every --clip")
    results = tflm_pipeline(args.preprocessor.read_bytes(), args.classifier.read_bytes(),
                            [samples for _, samples in clips])
    labels = [label for *_, label in args.clip]
    for (name, _), label, (_, scores) in zip(clips, labels, results):
        found = LABELS[int(np.argmax(scores))]
        if found != label:
            print(f"error: TensorFlow Lite Micro labels {name} '{found}' (scores {scores.tolist()}), "
                  f"not '{label}'", file=sys.stderr)
            return 1
    args.out.write_text(expected_c([name for name, _ in clips], labels, results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

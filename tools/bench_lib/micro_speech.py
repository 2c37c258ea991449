# SPDX-License-Identifier: Apache-2.0
"""micro_speech (models/micro_speech): TensorFlow Lite Micro's keyword spotter as two helia-aot modules,
measured on QEMU like the models: instructions per audio frame (the stateful preprocessor, mean over a
clip's 49 frames) and per 1 s clip (49 frames and the classifier), for each of TFLM's four clips. The
firmware is the example's golden test (speech_golden.c), so each run also checks the features and scores
against TFLM's, bit for bit."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import helia_aot

from . import toolchain
from .kernels import KernelLibrary
from .toolchain import BenchError

EXAMPLE_DIR = toolchain.REPO / "models" / "micro_speech"
TFLM_MODELS_ENV = "HELIA_TFLM_MODELS_DIR"
# The example's modules: prefix -> TFLM model file.
MODULES = {"audio_preprocessor": "audio_preprocessor_int8.tflite", "micro_speech": "micro_speech_quantized.tflite"}
# TFLM's clips and the label TFLM gives each (the shared models' README).
CLIPS = {"yes_1000ms": "yes", "no_1000ms": "no", "silence_1000ms": "silence", "noise_1000ms": "silence"}
PIPELINE_SOURCES = ("speech_features.c", "speech_classify.c", "speech_golden.c")
METHOD = ("models/micro_speech's golden firmware (both modules, the pipeline and TFLM's four clips, all -O2) on "
          "QEMU mps3-an547 with -icount shift=0: per clip, the preprocessor reset and its 49 frames, then the "
          "classifier, each timed with SysTick. Per frame = the 49 frames' instructions / 49; per clip = the 49 "
          "frames + the classifier. 'TFLM' says whether every feature and score equalled TFLM's.")

_CLIP_LINE = re.compile(r"^speech_golden: (\w+): instructions per frame (\d+) \(preprocessor, mean of 49\), "
                        r"per clip (\d+) \((\d+) in 49 frames, (\d+) in the classifier\)$")
_PASS = "speech_golden: PASS: 4 clips"


def models_dir() -> Path:
    """HELIA_TFLM_MODELS_DIR, else the tflm folder beside HELIA_MODELS_DIR, else <repo>/../shared/models/tflm."""
    if os.environ.get(TFLM_MODELS_ENV):
        return Path(os.environ[TFLM_MODELS_ENV])
    if os.environ.get("HELIA_MODELS_DIR"):
        return Path(os.environ["HELIA_MODELS_DIR"]).parent / "tflm"
    return toolchain.REPO.parent / "shared" / "models" / "tflm"


def available() -> bool:
    folder = models_dir()
    return all((folder / name).is_file() for name in [*MODULES.values(), *(f"{c}.wav" for c in CLIPS)])


def _speech_data():
    sys.path.insert(0, str(EXAMPLE_DIR))
    try:
        import speech_data
    finally:
        sys.path.remove(str(EXAMPLE_DIR))
    return speech_data


def prepare(work: Path) -> Path:
    """Converts both modules and writes the clips and TFLM's features and scores as C; returns the folder."""
    folder, out = models_dir(), work / "micro_speech"
    for prefix, name in MODULES.items():
        helia_aot.convert(folder / name, out / prefix, prefix=prefix, target="corstone300")
    data = _speech_data()
    clips = [(name, data.read_wav(folder / f"{name}.wav")) for name in CLIPS]
    results = data.tflm_pipeline((folder / MODULES["audio_preprocessor"]).read_bytes(),
                                 (folder / MODULES["micro_speech"]).read_bytes(), [s for _, s in clips])
    (out / "speech_clips.c").write_text(data.clips_c(clips), encoding="utf-8")
    (out / "speech_expected.c").write_text(data.expected_c(list(CLIPS), list(CLIPS.values()), results),
                                           encoding="utf-8")
    return out


def instructions(out: Path, library: KernelLibrary) -> dict:
    """Builds the golden firmware against `library`, runs it, returns the figures per clip."""
    build = out / f"{library.backend}{library.optimization}"
    # The library's include directories carry helia_signal.h (the preprocessor's Signal kernels) and its
    # archives their code, for ns-cmsis-nn too (kernels.build).
    core = library.core
    includes = ["-I", str(EXAMPLE_DIR), *(f for d in library.include_dirs for f in ("-I", str(d))),
                *core.runtime_flags()]
    includes += [flag for prefix in MODULES for flag in ("-I", str(out / prefix / "include"))]
    flags = core.common_cflags + toolchain.optimization_flags(library.optimization) + includes + toolchain.OUR_WARNINGS
    sources = [src for prefix in MODULES for src in sorted((out / prefix / "src").glob("*.c"))]
    sources += [EXAMPLE_DIR / name for name in PIPELINE_SOURCES]
    sources += [out / "speech_clips.c", out / "speech_expected.c"]
    sources += core.runtime_sources()
    objects = toolchain.parallel_map(
        lambda src: toolchain.compile_c(src, build / f"{src.parent.name}__{src.stem}.o",
                                        flags + ["-DSPEECH_COUNT_INSTRUCTIONS"], f"micro_speech: compile {src.name}"),
        sources)
    elf = build / "speech_golden.elf"
    toolchain.run([toolchain.ARM_CC, *core.ldflags, "-o", elf, *objects, *library.archives, "-lm"],
                  "micro_speech: link")
    stdout = toolchain.run(core.qemu_command(elf),
                           f"micro_speech: QEMU run ({library.backend})", timeout=toolchain.QEMU_TIMEOUT_S,
                           merge_stderr=True)
    clips = {}
    for line in stdout.splitlines():
        if match := _CLIP_LINE.match(line.strip()):
            name, per_frame, per_clip, frames, classifier = match.groups()
            clips[name] = {"instructions_per_frame": int(per_frame), "instructions_per_clip": int(per_clip),
                           "frames_instructions": int(frames), "classifier_instructions": int(classifier)}
    if set(clips) != set(CLIPS):
        raise BenchError(f"micro_speech ({library.backend}): the firmware printed no instruction counts:\n"
                         f"{stdout[-3000:]}")
    return {"clips": clips, "bit_identical_to_tflm": _PASS in stdout}


def measure(work: Path, libraries: dict[str, KernelLibrary]) -> dict:
    """Figures per backend; an error per backend (or for the conversion) instead of raising."""
    try:
        out = prepare(work)
    except (helia_aot.HeliaError, OSError) as error:
        return {"error": f"conversion failed: {type(error).__name__}: {error}"}
    result: dict = {"backends": {}}
    for backend, library in libraries.items():
        try:
            result["backends"][backend] = instructions(out, library)
        except BenchError as error:
            result["backends"][backend] = {"error": str(error)}
    return result


def markdown(figures: dict) -> str:
    """A table per clip: instructions per frame and per clip for every backend, and the TFLM verdict."""
    if "error" in figures:
        return f"\nmicro_speech: error: {figures['error']}"
    backends = figures["backends"]
    header = ["micro_speech clip"] + [f"{column} ({backend})" for backend in backends
                                      for column in ("instr/frame", "instr/clip", "TFLM")]
    lines = ["", "| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for clip in CLIPS:
        cells = [clip]
        for figures_of in backends.values():
            one = (figures_of.get("clips") or {}).get(clip)
            if one is None:
                cells += ["error", "error", "n/a"]
                continue
            verdict = "bit-identical" if figures_of["bit_identical_to_tflm"] else "DIFFERS"
            cells += [f"{one['instructions_per_frame']:,}", f"{one['instructions_per_clip']:,}", verdict]
        lines.append("| " + " | ".join(cells) + " |")
    for backend, figures_of in backends.items():
        if "error" in figures_of:
            lines.append(f"\n- micro_speech ({backend}): {figures_of['error'].splitlines()[0]}")
    lines.append(f"\n- micro_speech: {METHOD}")
    return "\n".join(lines)

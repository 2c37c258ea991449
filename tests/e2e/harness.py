# SPDX-License-Identifier: Apache-2.0
"""End-to-end verification harness: converts a model with helia_aot, builds the module with a
kernel library (portable or ns-cmsis-nn), runs it on the host under ASan/UBSan or on QEMU
mps3-an547, and compares its outputs with LiteRT's reference kernels.

Everything built here lives in one per-session directory; nothing is written into the repo."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import math
import os
import pathlib
import re
import shutil
import subprocess
from typing import Callable

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

import helia_aot
from tests.modelgen import ModelBuilder, quant
from tests.modelgen.cases import Case, build_case_model, float_sample_ranges, integer_sample_ranges, load_case
from tests.modelgen.litert import declared_details, make_interpreter, random_inputs
from tests import sanitizers
from tests.skip_policy import NS_CMSIS_NN_NOT_CONFIGURED

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
C_DIR = pathlib.Path(__file__).resolve().parent / "c"
PORTABLE_DIR = REPO_ROOT / "kernels" / "portable"
CORSTONE300_DIR = REPO_ROOT / "toolchains" / "corstone300"
# ns-cmsis-nn has no kernels of TFLM's Signal operators: a library built from it carries ours, as
# Bazel's //kernels:ns_cmsis_nn_with_signal does (see build_library's signal_cflags).
SIGNAL_SOURCES_DIR = PORTABLE_DIR / "src" / "signal"
# Our Helium kernels: a module for the Cortex-M55 may call them (helia_mve_*), so every Corstone-300
# firmware compiles them beside the kernel library whose arm_nn_types.h they use.
HELIUM_DIR = REPO_ROOT / "kernels" / "helium"

PREFIX = "e2e"
NUM_SAMPLES = 20
# Every MLPerf Tiny output may differ from LiteRT by at most this many codes.
MLPERF_TOLERANCE = 2
# Multi-layer int16 networks: outputs within one code of LiteRT, or, where an int16 FULLY_CONNECTED is
# the first operator to depart by its known one code (ns-cmsis-nn truncates 14 - shift bits of the
# int64 product and then rounds the last; LiteRT rounds once), within this many codes after the
# layers that follow it (measured: 11 through TRANSPOSE_CONV and a steep TANH).
INT16_MODEL_TOLERANCE = 16
# MLPerf Tiny models, int8, float32 and hybrid: name -> is it a classifier (arg-max must agree with
# LiteRT)? kws_ref_model_float32 is hybrid: float32 activations, int8 convolution weights.
MLPERF_MODELS = {
    "kws_ref_model": True,
    "vww_96_int8": True,
    "pretrainedResnet_quant": True,
    "ad01_int8": False,
    "vww_96_float": True,
    "pretrainedResnet": True,
    "ad01_fp32": False,
    "kws_ref_model_float32": True,
}
# Float outputs of MLPerf Tiny models (and any float model): max |diff| at most this fraction of the
# output's range over the samples. Summation order differs from LiteRT's reference kernels in the
# convolutions (ns-cmsis-nn adds the bias first and sums per filter tap) and in ns-cmsis-nn's exp
# (softmax, sigmoid: a table of 2^f, within 4e-7), and the differences carry through the layers.
MLPERF_FLOAT_RELATIVE_TOLERANCE = 1e-4
# Fixed so every run draws the same MLPerf inputs; single-operator cases use their own seed.
MLPERF_SEED = 20240

NS_CMSIS_NN_ENV = "HELIA_NS_CMSIS_NN_DIR"
NS_CMSIS_NN_SKIP_REASON = NS_CMSIS_NN_NOT_CONFIGURED

HOST_CC = "gcc"
HOST_AR = "ar"
WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
SANITIZERS = sanitizers.SANITIZERS  # with float-cast-overflow, which `undefined` leaves out
HOST_CFLAGS = WARNINGS + SANITIZERS + ["-O1", "-g"]
# ns-cmsis-nn is a reference, not our code: built as its own project builds it, without our
# warning or sanitizer flags (the module and harness linked against it keep theirs).
NS_CMSIS_NN_HOST_CFLAGS = ["-O1"]
# ns-cmsis-nn declares and compiles its float API only with these switches. Every library here is
# built with them and hands them to whatever compiles against it (as CMake's PUBLIC definitions and
# Bazel's `defines` do); a module calling float entries refuses to compile without them.
LIBRARY_DEFINES = ("ARM_NN_ENABLE_F32=1", "ARM_NN_ENABLE_F16=1")

ARM_CC = "arm-none-eabi-gcc"
ARM_ARCH = ["-mcpu=cortex-m55", "-mfloat-abi=hard", "-mthumb"]
# picolibc's specs also select its headers, so compiles need them as well as the link.
ARM_CFLAGS = WARNINGS + ARM_ARCH + ["--specs=picolibc.specs", "-O2"]
NS_CMSIS_NN_ARM_CFLAGS = ARM_ARCH + ["--specs=picolibc.specs", "-O2"]
ARM_LDFLAGS = ["--oslib=semihost", "-nostartfiles", "-T", str(CORSTONE300_DIR / "corstone300.ld")]
QEMU = "qemu-system-arm"
QEMU_ARGS = ["-M", "mps3-an547", "-nographic", "-monitor", "none", "-serial", "none",
             "-icount", "shift=0", "-semihosting-config", "enable=on,target=native"]

# Markers ASan/UBSan put on stderr; any of them fails the run even with exit status 0.
SANITIZER_MARKERS = ("runtime error:", "AddressSanitizer", "LeakSanitizer",
                     "UndefinedBehaviorSanitizer")
SANITIZER_ENV = {
    "ASAN_OPTIONS": "abort_on_error=0:halt_on_error=1:detect_leaks=1:exitcode=23",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}
COMPILE_TIMEOUT_S = 300
HOST_RUN_TIMEOUT_S = 300
QEMU_TIMEOUT_S = 300
MAX_JOBS = 2


class E2EError(AssertionError):
    """A build or run step failed; the message holds the command and its output."""


class SanitizerError(E2EError):
    """ASan or UBSan reported a problem while the module ran."""


def models_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("HELIA_MODELS_DIR",
                                       REPO_ROOT.parent / "shared" / "models" / "mlperf-tiny"))


def ns_cmsis_nn_dir() -> pathlib.Path | None:
    value = os.environ.get(NS_CMSIS_NN_ENV)
    if not value:
        return None
    root = pathlib.Path(value)
    if not (root / "Include" / "arm_nnfunctions.h").is_file():
        raise E2EError(f"{NS_CMSIS_NN_ENV}={value} has no Include/arm_nnfunctions.h; point it at "
                       "the root of an ns-cmsis-nn checkout (the directory holding Include/ and "
                       "Source/)")
    return root


def run_command(cmd: list[str], what: str, *, timeout: float, input_bytes: bytes | None = None,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, input=input_bytes, capture_output=True, timeout=timeout,
                              env=None if env is None else {**os.environ, **env})
    except subprocess.TimeoutExpired:
        raise E2EError(f"{what}: timed out after {timeout} s: {' '.join(cmd)}") from None
    if proc.returncode != 0:
        raise E2EError(f"{what}: exit status {proc.returncode}\n$ {' '.join(map(str, cmd))}\n"
                       f"{_tail(proc.stdout)}{_tail(proc.stderr)}")
    return proc


def _tail(data: bytes, limit: int = 6000) -> str:
    text = data.decode("utf-8", "replace")
    return text if len(text) <= limit else "...\n" + text[-limit:]


# --------------------------------------------------------------------------- kernel libraries


@dataclasses.dataclass(frozen=True)
class KernelLibrary:
    """A static archive of kernels plus the include directory holding arm_nnfunctions.h."""

    name: str
    archive: pathlib.Path
    include_dir: pathlib.Path
    defines: tuple[str, ...] = LIBRARY_DEFINES
    # Searched after include_dir: the portable one, for helia_signal.h, beside ns-cmsis-nn's.
    extra_include_dirs: tuple[pathlib.Path, ...] = ()

    @property
    def define_flags(self) -> list[str]:
        return [f"-D{d}" for d in self.defines]

    @property
    def include_flags(self) -> list[str]:
        """-I flags of everything a module compiled against the library includes, the library's own first."""
        return [flag for d in (self.include_dir, *self.extra_include_dirs) for flag in ("-I", str(d))]


def portable_sources() -> list[pathlib.Path]:
    return sorted((PORTABLE_DIR / "src").rglob("*.c"))


def ns_cmsis_nn_sources(root: pathlib.Path) -> list[pathlib.Path]:
    # The selection stated once in third_party/ns_cmsis_nn/sources.bzl (Bazel's overlay loads it), applied
    # by the benchmark's reader; with the float16 kernels, as LIBRARY_DEFINES turns ARM_NN_ENABLE_F16 on.
    import sys
    tools_dir = str(REPO_ROOT / "tools")
    if tools_dir not in sys.path:
        sys.path.insert(0, tools_dir)
    from bench_lib import kernels
    return kernels.ns_cmsis_nn_sources(root, float16=True)


def build_library(name: str, sources: list[pathlib.Path], source_root: pathlib.Path,
                  include_dir: pathlib.Path, out_dir: pathlib.Path, *, cc: str, ar: str,
                  cflags: list[str], signal_cflags: list[str] | None = None) -> KernelLibrary:
    """Compiles `sources` (at most MAX_JOBS at a time) into out_dir/lib<name>.a.

    With signal_cflags (a library without TFLM's Signal kernels: ns-cmsis-nn), our Signal kernels go
    into the archive too, compiled with those flags (our code, our warnings), and the portable include
    directory (helia_signal.h) is searched after the library's, so the library's own headers win."""
    if not sources:
        raise E2EError(f"kernel library '{name}': no C sources under {source_root}")
    defines = [f"-D{d}" for d in LIBRARY_DEFINES]
    include_dirs = [include_dir] + ([PORTABLE_DIR / "include"] if signal_cflags is not None else [])
    jobs = [(src, source_root, cflags) for src in sources]
    if signal_cflags is not None:
        jobs += [(src, PORTABLE_DIR / "src", signal_cflags) for src in sorted(SIGNAL_SOURCES_DIR.glob("*.c"))]
    includes = [flag for d in include_dirs for flag in ("-I", str(d))]
    obj_dir = out_dir / f"{name}-obj"
    obj_dir.mkdir(parents=True, exist_ok=True)

    def compile_one(job: tuple[pathlib.Path, pathlib.Path, list[str]]) -> pathlib.Path:
        src, root, flags = job
        # Object names keep the relative path, so equal file names in two folders do not clash.
        obj = obj_dir / (str(src.relative_to(root)).replace(os.sep, "__")[:-2] + ".o")
        run_command([cc, *flags, *defines, *includes, "-c", str(src), "-o", str(obj)],
                    f"compile {src.relative_to(root)} for {name}",
                    timeout=COMPILE_TIMEOUT_S)
        return obj

    with concurrent.futures.ThreadPoolExecutor(MAX_JOBS) as pool:
        objects = list(pool.map(compile_one, jobs))
    archive = out_dir / f"lib{name}.a"
    archive.unlink(missing_ok=True)
    run_command([ar, "rcs", str(archive), *map(str, objects)], f"archive {name}",
                timeout=COMPILE_TIMEOUT_S)
    return KernelLibrary(name, archive, include_dir, extra_include_dirs=tuple(include_dirs[1:]))


# --------------------------------------------------------------------------- models and LiteRT


@dataclasses.dataclass(frozen=True)
class TensorInfo:
    name: str
    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize


@dataclasses.dataclass
class ModelUnderTest:
    """One model to verify: its bytes, its seeded inputs and LiteRT's outputs for them."""

    name: str
    kind: str                      # "case" or "mlperf"
    model_bytes: bytes
    seed: int
    tolerance: float               # max |diff| against LiteRT (codes; absolute for float)
    classifier: bool = False
    case: Case | None = None
    # Float outputs: max |diff| as a fraction of the output's range over the samples (replaces
    # `tolerance` for them when set).
    relative_tolerance: float | None = None
    # Unquantized integer and bool inputs (indices, masks): the inclusive interval each is drawn from.
    integer_ranges: dict[str, tuple[int, int]] = dataclasses.field(default_factory=dict)
    # Float inputs with a case `range`: the interval each is drawn from (else [-1, 1)).
    float_ranges: dict[str, tuple[float, float]] = dataclasses.field(default_factory=dict)

    def bounds(self) -> list[float]:
        """Per output, the max |diff| allowed against LiteRT: relative_tolerance x the output's range
        for float outputs when set, else `tolerance`."""
        ranges = output_ranges(self.reference)
        return [self.relative_tolerance * r if self.relative_tolerance is not None and info.dtype.kind == "f"
                else self.tolerance for info, r in zip(self.output_infos, ranges)]

    @functools.cached_property
    def input_infos(self) -> list[TensorInfo]:
        # As the model declares them: the module's interface (LiteRT's Prepare may retype an output).
        return _tensor_infos(declared_details(self.model_bytes)[0])

    @functools.cached_property
    def output_infos(self) -> list[TensorInfo]:
        return _tensor_infos(declared_details(self.model_bytes)[1])

    @functools.cached_property
    def samples(self) -> list[list[np.ndarray]]:
        """NUM_SAMPLES seeded random inputs: integers over their whole range, floats in [-1, 1)."""
        generator = quant.rng(self.seed)
        return [random_inputs(self.model_bytes, generator, self.integer_ranges, self.float_ranges)
                for _ in range(NUM_SAMPLES)]

    @functools.cached_property
    def reference(self) -> list[list[np.ndarray]]:
        """The golden outputs for every sample: LiteRT's reference kernels (one interpreter, reused), or
        TFLM's for a case whose file says `reference: tflm` (where LiteRT's kernel is wrong)."""
        if self.case is not None and self.case.reference == "tflm":
            return self.tflm_reference
        interp = make_interpreter(self.model_bytes)
        inputs = interp.get_input_details()
        outputs = interp.get_output_details()
        results = []
        for sample in self.samples:
            for detail, value in zip(inputs, sample):
                interp.set_tensor(detail["index"], value)
            interp.invoke()
            results.append([as_declared(interp.get_tensor(d["index"]).copy(), info)
                            for d, info in zip(outputs, self.output_infos)])
        return results

    @functools.cached_property
    def tflm_reference(self) -> list[list[np.ndarray]]:
        """TensorFlow Lite Micro's outputs for every sample (one interpreter, reused, as `reference`);
        helia_aot.golden.references.ReferenceRefused when TFLM cannot run the model (tests/e2e/tflm.py)."""
        from tests.e2e import tflm
        return tflm.outputs(self.model_bytes, self.samples)


def as_declared(value: np.ndarray, info: TensorInfo) -> np.ndarray:
    """A reference output as the model declares it. LiteRT's Prepare may resize an output to another shape of
    as many elements (MEAN over every axis to rank 0) or retype an integer one (ARG_MAX's and SHAPE's output to
    output_type); a module keeps the model's declaration, as TFLM does. A value the declared dtype cannot hold
    is left as it is (the comparison then reports the difference)."""
    if value.size == math.prod(info.shape):
        value = value.reshape(info.shape)
    if value.dtype != info.dtype and value.dtype.kind in "iu" and info.dtype.kind in "iu" \
            and np.array_equal(value.astype(info.dtype).astype(value.dtype), value):
        value = value.astype(info.dtype)
    return value


def _tensor_infos(details) -> list[TensorInfo]:
    return [TensorInfo(d["name"], tuple(int(x) for x in d["shape"]), np.dtype(d["dtype"]))
            for d in details]


def case_model(path: pathlib.Path) -> ModelUnderTest:
    case = load_case(path)
    return ModelUnderTest(name=case.name, kind="case", model_bytes=build_case_model(case),
                          seed=case.seed, tolerance=case.tolerance, case=case,
                          relative_tolerance=case.relative_tolerance,
                          integer_ranges=integer_sample_ranges(case), float_ranges=float_sample_ranges(case))


def mlperf_model(name: str) -> ModelUnderTest:
    path = models_dir() / f"{name}.tflite"
    return ModelUnderTest(name=name, kind="mlperf", model_bytes=path.read_bytes(),
                          seed=MLPERF_SEED, tolerance=MLPERF_TOLERANCE,
                          classifier=MLPERF_MODELS[name],
                          relative_tolerance=MLPERF_FLOAT_RELATIVE_TOLERANCE)


def int16_model(name: str) -> ModelUnderTest:
    """A multi-layer int16 (A16W8) network of tests/modelgen/int16_models.py."""
    from tests.modelgen import int16_models
    return ModelUnderTest(name=f"int16_{name}", kind="int16", model_bytes=int16_models.build(name),
                          seed=int16_models.SEED, tolerance=INT16_MODEL_TOLERANCE)


def stateful_model(name: str) -> ModelUnderTest:
    """A model keeping state across invocations (tests/modelgen/stateful.py): its NUM_SAMPLES inputs
    are one sequence, in LiteRT (one interpreter) as in the module."""
    from tests.modelgen import stateful
    return ModelUnderTest(name=name, kind="stateful", model_bytes=stateful.build(name), seed=stateful.SEED,
                          tolerance=1, relative_tolerance=1e-5)


def max_abs_diff(got: np.ndarray, want: np.ndarray) -> float:
    if got.shape != want.shape or got.dtype != want.dtype:
        raise E2EError(f"output has shape {got.shape} {got.dtype}, LiteRT's has "
                       f"{want.shape} {want.dtype}")
    wide = np.float64 if want.dtype.kind == "f" else np.int64
    return float(np.max(np.abs(got.astype(wide) - want.astype(wide)), initial=0))


def output_ranges(outputs: list[list[np.ndarray]]) -> list[float]:
    """Per output, max - min of its values over all samples (the scale float bounds are relative to)."""
    return [float(np.ptp(np.stack([sample[o] for sample in outputs]).astype(np.float64)))
            for o in range(len(outputs[0]))]


def per_output_max_diff(got: list[list[np.ndarray]],
                        want: list[list[np.ndarray]]) -> list[float]:
    """Max |diff| of each output over all samples."""
    return [max(max_abs_diff(g[o], w[o]) for g, w in zip(got, want))
            for o in range(len(want[0]))]


def argmax_agreement(got: list[list[np.ndarray]], want: list[list[np.ndarray]],
                     output: int = 0) -> list[int]:
    """Indices of the samples whose arg-max of `output` differs between got and want."""
    return [s for s, (g, w) in enumerate(zip(got, want))
            if int(np.argmax(g[output])) != int(np.argmax(w[output]))]


def bit_differences(got: list[list[np.ndarray]], want: list[list[np.ndarray]]) -> dict[int, str]:
    """Per output index with any differing bit: how many elements differ and the max |diff|."""
    found = {}
    for o in range(len(want[0])):
        elements = sum(int(np.count_nonzero(g[o] != w[o])) for g, w in zip(got, want))
        if elements:
            worst = max(max_abs_diff(g[o], w[o]) for g, w in zip(got, want))
            found[o] = f"{elements} element(s) differ, max |diff| {worst:g}"
    return found


# --------------------------------------------------------------------------- host builds and runs


def convert(model: ModelUnderTest, out_dir: pathlib.Path, target: str) -> pathlib.Path:
    """helia_aot.convert with the harness's prefix; conversion errors propagate (a failure)."""
    helia_aot.convert(model.model_bytes, out_dir, prefix=PREFIX, target=target)
    header = out_dir / "include" / f"{PREFIX}_model.h"
    if not header.is_file():
        raise E2EError(f"{model.name}: conversion for {target} wrote no {header.name}")
    return out_dir


def module_sources(module_dir: pathlib.Path) -> list[str]:
    sources = sorted(str(p) for p in (module_dir / "src").glob("*.c"))
    if not sources:
        raise E2EError(f"{module_dir}: the module has no src/*.c")
    return sources


def build_host_executable(module_dir: pathlib.Path, library: KernelLibrary,
                          exe: pathlib.Path) -> pathlib.Path:
    cmd = [HOST_CC, *HOST_CFLAGS, *library.define_flags, "-I", str(module_dir / "include"),
           *library.include_flags, "-I", str(REPO_ROOT / "tests" / "c"),  # driver_io.h
           *module_sources(module_dir), str(C_DIR / "host_harness.c"), str(library.archive),
           "-lm", "-o", str(exe)]
    run_command(cmd, f"build {exe.name} against {library.name}", timeout=COMPILE_TIMEOUT_S)
    return exe


def run_host_executable(exe: pathlib.Path, model: ModelUnderTest) -> list[list[np.ndarray]]:
    """Runs every sample through one process; a sanitizer report raises SanitizerError."""
    in_infos, out_infos = model.input_infos, model.output_infos
    payload = bytearray(np.uint32(len(model.samples)).tobytes())
    for sample in model.samples:
        for info, value in zip(in_infos, sample):
            payload += np.ascontiguousarray(value, dtype=info.dtype).tobytes()
    try:
        proc = subprocess.run([str(exe)], input=bytes(payload), capture_output=True,
                              timeout=HOST_RUN_TIMEOUT_S, env={**os.environ, **SANITIZER_ENV})
    except subprocess.TimeoutExpired:
        raise E2EError(f"{model.name}: {exe.name} timed out after {HOST_RUN_TIMEOUT_S} s") from None
    stderr = proc.stderr.decode("utf-8", "replace")
    if any(marker in stderr for marker in SANITIZER_MARKERS):
        raise SanitizerError(f"{model.name}: sanitizer report from {exe.name}:\n{_tail(proc.stderr)}")
    if proc.returncode != 0:
        raise E2EError(f"{model.name}: {exe.name} exit status {proc.returncode}:\n"
                       f"{_tail(proc.stderr)}")
    body, stateful = _check_header(model.name, proc.stdout, in_infos, out_infos)
    samples = len(model.samples)
    outputs = _split_outputs(model.name, body, out_infos, samples + (1 if stateful and samples else 0))
    if stateful and samples:
        check_reset_repeats(model.name, outputs[0], outputs.pop())
    return outputs


def check_reset_repeats(name: str, first: list[np.ndarray], after_reset: list[np.ndarray]) -> None:
    """A stateful module run on the first sample again after <prefix>_model_reset gives exactly its
    first outputs (the state went back to its initial values)."""
    for o, (a, b) in enumerate(zip(first, after_reset)):
        if b is None or a.tobytes() != b.tobytes():
            what = "missing" if b is None else f"{int(np.count_nonzero(a != b))} element(s) differ"
            raise E2EError(f"{name}: after e2e_model_reset, output {o} of the first sample does not repeat "
                           f"({what})")


def _check_header(name: str, stdout: bytes, in_infos: list[TensorInfo],
                  out_infos: list[TensorInfo]) -> tuple[bytes, bool]:
    """The output stream after the header, and whether the module is stateful."""
    count = 3 + len(in_infos) + len(out_infos)
    if len(stdout) < 8:
        raise E2EError(f"{name}: the harness wrote no header")
    header = np.frombuffer(stdout[:8], dtype=np.uint32).tolist()
    if header != [len(in_infos), len(out_infos)]:
        raise E2EError(f"{name}: module has {header[0]} input(s) and {header[1]} output(s); the "
                       f"model has {len(in_infos)} and {len(out_infos)}")
    if len(stdout) < 4 * count:
        raise E2EError(f"{name}: the harness wrote a short header")
    sizes = np.frombuffer(stdout[8:4 * count - 4], dtype=np.uint32).tolist()
    want = [i.nbytes for i in in_infos] + [o.nbytes for o in out_infos]
    if sizes != want:
        raise E2EError(f"{name}: module I/O sizes (inputs then outputs, bytes) {sizes} differ "
                       f"from the model's {want}")
    stateful = int(np.frombuffer(stdout[4 * count - 4:4 * count], dtype=np.uint32)[0])
    return stdout[4 * count:], bool(stateful)


def _split_outputs(name: str, body: bytes, out_infos: list[TensorInfo],
                   samples: int) -> list[list[np.ndarray]]:
    per_sample = sum(o.nbytes for o in out_infos)
    if len(body) != per_sample * samples:
        raise E2EError(f"{name}: expected {per_sample * samples} output bytes for {samples} "
                       f"samples, got {len(body)}")
    results, offset = [], 0
    for _ in range(samples):
        row = []
        for info in out_infos:
            row.append(np.frombuffer(body[offset:offset + info.nbytes], dtype=info.dtype)
                       .reshape(info.shape).copy())
            offset += info.nbytes
        results.append(row)
    return results


# --------------------------------------------------------------------------- Corstone-300 on QEMU


def arm_tools() -> tuple[str, str, str] | str:
    """(gcc, ar, qemu) paths, or the reason the QEMU tests cannot run."""
    cc, qemu = shutil.which(ARM_CC), shutil.which(QEMU)
    missing = [tool for tool, path in ((ARM_CC, cc), (QEMU, qemu)) if path is None]
    if missing:
        return (f"{' and '.join(missing)} not on PATH: the Corstone-300 QEMU tests need the Arm "
                "GNU toolchain and QEMU (tools/bootstrap installs both in the sid rootfs)")
    ar = pathlib.Path(cc).with_name("arm-none-eabi-ar")
    if not ar.exists():
        return f"arm-none-eabi-ar not found next to {cc}"
    return cc, str(ar), qemu


def write_test_data(model: ModelUnderTest, path: pathlib.Path) -> pathlib.Path:
    """Embeds every sample's input bytes, in the host harness's order, in .helia_test_data (DDR)."""
    in_infos = model.input_infos
    data = bytearray()
    for sample in model.samples:
        for info, value in zip(in_infos, sample):
            data += np.ascontiguousarray(value, dtype=info.dtype).tobytes()
    rows = [", ".join(str(b) for b in data[i:i + 24]) for i in range(0, len(data), 24)]
    path.write_text(
        "/* SPDX-License-Identifier: Apache-2.0 */\n"
        f"/* Generated by tests/e2e/harness.py: {len(model.samples)} seeded inputs of "
        f"{model.name}. */\n"
        "#include <stdint.h>\n\n"
        "extern const uint32_t e2e_test_samples;\n"
        "extern const uint32_t e2e_test_input_data_bytes;\n"
        "extern const uint8_t e2e_test_input_data[];\n\n"
        f"const uint32_t e2e_test_samples = {len(model.samples)}u;\n"
        f"const uint32_t e2e_test_input_data_bytes = {len(data)}u;\n"
        "__attribute__((section(\".helia_test_data.e2e\"), aligned(16)))\n"
        f"const uint8_t e2e_test_input_data[{len(data)}] = {{\n  "
        + ",\n  ".join(rows) + "\n};\n")
    return path


def build_firmware(module_dir: pathlib.Path, library: KernelLibrary, test_data: pathlib.Path,
                   elf: pathlib.Path, cc: str) -> pathlib.Path:
    cmd = [cc, *ARM_CFLAGS, *ARM_LDFLAGS, *library.define_flags, "-I", str(module_dir / "include"),
           *library.include_flags, "-I", str(HELIUM_DIR / "include"), "-I", str(CORSTONE300_DIR),
           *module_sources(module_dir), *sorted(map(str, (HELIUM_DIR / "src").glob("*.c"))),
           str(C_DIR / "qemu_harness.c"), str(test_data),
           str(CORSTONE300_DIR / "startup.c"), str(CORSTONE300_DIR / "instruction_counter.c"),
           str(library.archive), "-lm", "-o", str(elf)]
    run_command(cmd, f"build {elf.name} against {library.name}", timeout=COMPILE_TIMEOUT_S)
    return elf


_OUT_LINE = re.compile(r"^helia-e2e out (\d+|reset) (\d+) ([0-9a-f]*)$")
_COUNT_LINE = re.compile(r"^helia-e2e instructions (\d+)$")


@dataclasses.dataclass
class QemuRun:
    outputs: list[list[np.ndarray]]
    instructions: int


def run_firmware(elf: pathlib.Path, model: ModelUnderTest, qemu: str) -> QemuRun:
    proc = run_command([qemu, *QEMU_ARGS, "-kernel", str(elf)], f"{model.name}: QEMU run of "
                       f"{elf.name}", timeout=QEMU_TIMEOUT_S)
    out_infos = model.output_infos
    outputs: dict[tuple[int, int], np.ndarray] = {}
    instructions = None
    # Semihosting console output lands on QEMU's stdout or stderr depending on the QEMU version
    # and on whether they are terminals, so both are read.
    console = proc.stdout + b"\n" + proc.stderr
    for line in console.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if match := _OUT_LINE.match(line):
            s, o = (-1 if match[1] == "reset" else int(match[1])), int(match[2])
            info = out_infos[o]
            raw = bytes.fromhex(match[3])
            if len(raw) != info.nbytes:
                raise E2EError(f"{model.name}: QEMU output {o} of sample {s} has {len(raw)} bytes, "
                               f"expected {info.nbytes}")
            outputs[(s, o)] = np.frombuffer(raw, dtype=info.dtype).reshape(info.shape).copy()
        elif match := _COUNT_LINE.match(line):
            instructions = int(match[1])
    samples = len(model.samples)
    missing = [(s, o) for s in range(samples) for o in range(len(out_infos))
               if (s, o) not in outputs]
    if missing or instructions is None:
        raise E2EError(f"{model.name}: QEMU printed no output for (sample, output) {missing[:5]} "
                       f"or no instruction count:\n{_tail(console)}")
    results = [[outputs[(s, o)] for o in range(len(out_infos))] for s in range(samples)]
    if (-1, 0) in outputs:  # a stateful module reran the first sample after a reset
        check_reset_repeats(model.name, results[0], [outputs.get((-1, o)) for o in range(len(out_infos))])
    return QemuRun(results, instructions)


# --------------------------------------------------------------------------- per-operator diagnosis


@dataclasses.dataclass(frozen=True)
class OperatorDiff:
    """Max |diff| against LiteRT of one operator's output inside a model."""

    index: int
    op_type: str
    tensor: str
    max_abs_diff: float

    def __str__(self) -> str:
        return f"#{self.index} {self.op_type} ({self.tensor}): {self.max_abs_diff:g}"


def expose_operator_outputs(model_bytes: bytes) -> tuple[bytes, list[tuple[int, str, str]]]:
    """The same model with every operator's output made a model output (subgraph 0, in execution
    order), so the module and LiteRT can be compared operator by operator. Returns the new
    flatbuffer and, per output, (operator index, operator type, tensor name)."""
    model = schema.ModelT.InitFromPackedBuf(model_bytes, 0)
    graph = model.subgraphs[0]
    names = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
    exposed, seen = [], set()
    for index, op in enumerate(graph.operators):
        code = model.operatorCodes[op.opcodeIndex]
        op_type = names.get(max(code.builtinCode, code.deprecatedBuiltinCode), "?")
        if op_type == "CUSTOM" and code.customCode:  # as helia_aot names it: CUSTOM:SignalWindow
            custom = code.customCode
            op_type = f"CUSTOM:{custom.decode() if isinstance(custom, bytes) else custom}"
        for tensor in op.outputs:
            if tensor >= 0 and tensor not in seen:
                seen.add(tensor)
                name = graph.tensors[tensor].name
                exposed.append((tensor, (index, op_type,
                                         name.decode() if isinstance(name, bytes) else str(name))))
    graph.outputs = [tensor for tensor, _ in exposed]
    builder = flatbuffers.Builder(len(model_bytes) + 1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output()), [info for _, info in exposed]


def operator_diffs(session: "E2ESession", model: ModelUnderTest,
                   library: KernelLibrary) -> list[OperatorDiff]:
    """Every operator's max |diff| against LiteRT on the model's samples (module built with
    `library`), to name the operator where a model first departs from LiteRT."""
    exposed_bytes, infos = expose_operator_outputs(model.model_bytes)
    exposed = ModelUnderTest(name=f"{model.name}__all_operator_outputs", kind=model.kind,
                             model_bytes=exposed_bytes, seed=model.seed,
                             tolerance=model.tolerance)
    exposed.__dict__["samples"] = model.samples   # the very same inputs
    diffs = per_output_max_diff(session.host_outputs(exposed, library), exposed.reference)
    return [OperatorDiff(index, op_type, tensor, diff)
            for (index, op_type, tensor), diff in zip(infos, diffs)]


def first_divergence(diffs: list[OperatorDiff]) -> OperatorDiff | None:
    return next((d for d in diffs if d.max_abs_diff > 0), None)


# --------------------------------------------------------------------------- session cache


class E2ESession:
    """Builds each thing once per pytest session: kernel libraries, conversions, executables and
    their outputs. Tests ask for results; the first test that needs one pays for it."""

    def __init__(self, root: pathlib.Path):
        self.root = root
        self._memo: dict[tuple, object] = {}
        self.results: dict[str, dict[str, dict]] = {}

    def _once(self, key: tuple, make: Callable[[], object]):
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def record(self, suite: str, name: str, **fields) -> None:
        self.results.setdefault(suite, {})[name] = fields

    # models
    def case(self, path: pathlib.Path) -> ModelUnderTest:
        return self._once(("case", str(path)), lambda: case_model(path))

    def mlperf(self, name: str) -> ModelUnderTest:
        return self._once(("mlperf", name), lambda: mlperf_model(name))

    def int16(self, name: str) -> ModelUnderTest:
        return self._once(("int16", name), lambda: int16_model(name))

    def stateful(self, name: str) -> ModelUnderTest:
        return self._once(("stateful", name), lambda: stateful_model(name))

    def mobilenet_v2(self, size: int, width: float) -> ModelUnderTest:
        """The MobileNetV2-style classifier of tests/modelgen/mobilenet_v2.py, one object per (size, width)
        for every test that runs it: tolerance 1 code against LiteRT (its reference rounds the int8
        FULLY_CONNECTED once, README); bit-exactness with TFLM is asserted where TFLM is compared. Made only
        here, so two tests can never build it under one memo key with different tolerances."""
        from tests.modelgen import mobilenet_v2
        name = f"mobilenet_v2_{size}_w{width:g}"
        return self._once(("mobilenet_v2", name), lambda: ModelUnderTest(
            name=name, kind="mobilenet_v2", model_bytes=mobilenet_v2.build(size, width),
            seed=mobilenet_v2.SEED, tolerance=1, classifier=True))

    def tflm_model(self, name: str) -> ModelUnderTest:
        """A TensorFlow Lite Micro example model (tests/e2e/tflm.py: TFLM_MODELS)."""
        from tests.e2e import tflm
        return self._once(("tflm", name), lambda: tflm.tflm_model(name))

    # libraries
    def portable_host_library(self) -> KernelLibrary:
        return self._once(("lib", "portable-host"), lambda: build_library(
            "portable_host", portable_sources(), PORTABLE_DIR / "src", PORTABLE_DIR / "include",
            self.root / "lib", cc=HOST_CC, ar=HOST_AR, cflags=HOST_CFLAGS))

    def ns_cmsis_nn_host_library(self, root: pathlib.Path) -> KernelLibrary:
        return self._once(("lib", "ns-host"), lambda: build_library(
            "ns_cmsis_nn_host", ns_cmsis_nn_sources(root), root / "Source", root / "Include",
            self.root / "lib", cc=HOST_CC, ar=HOST_AR, cflags=NS_CMSIS_NN_HOST_CFLAGS, signal_cflags=HOST_CFLAGS))

    def portable_arm_library(self, cc: str, ar: str) -> KernelLibrary:
        return self._once(("lib", "portable-arm"), lambda: build_library(
            "portable_cm55", portable_sources(), PORTABLE_DIR / "src", PORTABLE_DIR / "include",
            self.root / "lib", cc=cc, ar=ar, cflags=ARM_CFLAGS))

    def ns_cmsis_nn_arm_library(self, root: pathlib.Path, cc: str, ar: str) -> KernelLibrary:
        return self._once(("lib", "ns-arm"), lambda: build_library(
            "ns_cmsis_nn_cm55", ns_cmsis_nn_sources(root), root / "Source", root / "Include",
            self.root / "lib", cc=cc, ar=ar, cflags=NS_CMSIS_NN_ARM_CFLAGS, signal_cflags=ARM_CFLAGS))

    # modules
    def module_dir(self, model: ModelUnderTest, target: str) -> pathlib.Path:
        return self._once(("module", model.name, target), lambda: convert(
            model, self.root / "modules" / target / model.name, target))

    def host_outputs(self, model: ModelUnderTest, library: KernelLibrary) -> list[list[np.ndarray]]:
        def make():
            exe = self.root / "bin" / library.name / model.name
            exe.parent.mkdir(parents=True, exist_ok=True)
            build_host_executable(self.module_dir(model, "host"), library, exe)
            return run_host_executable(exe, model)
        return self._once(("host-run", model.name, library.name), make)

    def qemu_run(self, model: ModelUnderTest, library: KernelLibrary, cc: str,
                 qemu: str) -> QemuRun:
        def make():
            fw_dir = self.root / "firmware" / library.name
            fw_dir.mkdir(parents=True, exist_ok=True)
            data = self._once(("test-data", model.name), lambda: write_test_data(
                model, self.root / "firmware" / f"{model.name}_test_data.c"))
            elf = build_firmware(self.module_dir(model, "corstone300"), library, data,
                                 fw_dir / f"{model.name}.elf", cc)
            return run_firmware(elf, model, qemu)
        return self._once(("qemu-run", model.name, library.name), make)


# --------------------------------------------------------------------------- softmax amplification


@dataclasses.dataclass(frozen=True)
class SoftmaxTail:
    """How a classifier's final SOFTMAX relates to LiteRT: the max |diff| of its input (the logits),
    and whether LiteRT's own SOFTMAX, given the module's logits, reproduces the module's output."""

    logits_max_abs_diff: float
    softmax_exact_on_module_logits: bool


def softmax_tail(session: "E2ESession", model: ModelUnderTest, library: KernelLibrary) -> SoftmaxTail | None:
    """None unless the model's only output comes from a SOFTMAX. A SOFTMAX whose input scale is much
    larger than its output scale (1/256) turns a one-code difference of a logit into many codes of
    probability, so a difference at the output says little until this separates the two causes."""
    exposed_bytes, infos = expose_operator_outputs(model.model_bytes)
    if not infos or infos[-1][1] != "SOFTMAX" or len(infos) < 2:
        return None
    exposed = ModelUnderTest(name=f"{model.name}__all_operator_outputs", kind=model.kind,
                             model_bytes=exposed_bytes, seed=model.seed, tolerance=model.tolerance)
    exposed.__dict__["samples"] = model.samples
    module_outputs = session.host_outputs(exposed, library)
    litert_outputs = exposed.reference
    logits_diff = per_output_max_diff(module_outputs, litert_outputs)[-2]

    graph = schema.ModelT.InitFromPackedBuf(model.model_bytes, 0).subgraphs[0]
    softmax = graph.operators[-1]
    logits_t, probs_t = graph.tensors[softmax.inputs[0]], graph.tensors[softmax.outputs[0]]
    builder = ModelBuilder(description="softmax given the module's logits")
    logits = builder.input("logits", tuple(logits_t.shape), dtype="int8",
                           scale=float(logits_t.quantization.scale[0]),
                           zero_point=int(logits_t.quantization.zeroPoint[0]))
    probs = builder.tensor("probs", tuple(probs_t.shape), dtype="int8",
                           scale=float(probs_t.quantization.scale[0]),
                           zero_point=int(probs_t.quantization.zeroPoint[0]))
    builder.op("SOFTMAX", inputs=[logits], outputs=[probs],
               options={"beta": float(softmax.builtinOptions.beta)})
    builder.output(probs)
    interp = make_interpreter(builder.build())
    exact = True
    for sample in module_outputs:
        interp.set_tensor(interp.get_input_details()[0]["index"], sample[-2])
        interp.invoke()
        exact &= bool(np.array_equal(interp.get_tensor(interp.get_output_details()[0]["index"]), sample[-1]))
    return SoftmaxTail(logits_diff, exact)

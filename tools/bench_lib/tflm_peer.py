# SPDX-License-Identifier: Apache-2.0
"""TensorFlow Lite Micro with its CMSIS-NN kernels, built as a peer firmware for the benchmark's cores
(tools/tflm_peer): the same CPU flags, startup, linker script, SysTick counter and QEMU command as our
bench firmware (toolchain.Core), TFLM's kernels/cmsis_nn/*.cc in place of the reference kernels of the
operators the MLPerf Tiny int8 models use, the model embedded as a C array generated from the .tflite
file, and the benchmark's seeded inputs (firmware.write_inputs).

The sources are not part of this repository: each comes from a directory named by an environment
variable (SOURCE_ENVS), exported at the commit TFLM pins (README.md, "Benchmark")."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from pathlib import Path

from . import counter, firmware, toolchain
from .toolchain import BenchError

ARM_CXX = "arm-none-eabi-g++"

# Environment variable -> (what it names, a file that proves it is that checkout).
SOURCE_ENVS = {
    "HELIA_TFLM_DIR": ("TensorFlow Lite Micro", "tensorflow/lite/micro/micro_interpreter.h"),
    "HELIA_TFLM_CMSIS_NN_DIR": ("CMSIS-NN (TFLM's pinned commit)", "Include/arm_nnfunctions.h"),
    "HELIA_TFLM_FLATBUFFERS_DIR": ("flatbuffers (TFLM's pinned tag, TFLM's patch applied)",
                                   "include/flatbuffers/flatbuffers.h"),
    "HELIA_TFLM_GEMMLOWP_DIR": ("gemmlowp", "fixedpoint/fixedpoint.h"),
    "HELIA_TFLM_RUY_DIR": ("ruy", "ruy/profiler/instrumentation.h"),
}

# The TFLM runtime: what its Makefile compiles (MICROLITE_CC_BASE_SRCS and TFL_CC_SRCS of
# tools/make/sources.inc) minus tests and test helpers.
RUNTIME_GLOBS = ("tensorflow/lite/micro/*.cc", "tensorflow/lite/micro/arena_allocator/*.cc",
                 "tensorflow/lite/micro/memory_planner/*.cc", "tensorflow/lite/micro/tflite_bridge/*.cc",
                 "tensorflow/lite/core/api/*.cc", "tensorflow/lite/core/c/*.cc", "tensorflow/lite/kernels/*.cc",
                 "tensorflow/lite/kernels/internal/*.cc", "tensorflow/lite/kernels/internal/reference/*.cc",
                 "tensorflow/compiler/mlir/lite/core/api/*.cc", "tensorflow/compiler/mlir/lite/schema/*.cc")
RUNTIME_EXCLUDED = re.compile(r"(_test|test_helpers|test_helper_custom_ops|fake_micro_context|mock_micro_graph)\.cc$")
# The operators tflm_main.cc registers: their CMSIS-NN kernel (kernels/cmsis_nn/<op>.cc, replacing
# kernels/<op>.cc as TFLM's OPTIMIZED_KERNEL_DIR=cmsis_nn build does) and their shared *_common.cc.
CMSIS_NN_OPERATORS = ("conv", "depthwise_conv", "fully_connected", "pooling", "softmax", "add", "mul")
REFERENCE_OPERATORS = ("reshape",)
KERNEL_SUPPORT = ("kernel_util.cc", "micro_tensor_utils.cc")

# TFLM's own flags (tools/make/Makefile COMMON_FLAGS and CXXFLAGS; cmsis_nn.inc's float switches, off by
# default there). TF_LITE_STRIP_ERROR_STRINGS stays undefined (TFLM's default build): it keeps the
# operator names the per-operator profile prints, at a few instructions per operator.
TFLM_DEFINES = ["-DTF_LITE_STATIC_MEMORY", "-DTF_LITE_DISABLE_X86_NEON", "-DCMSIS_NN",
                "-DARM_NN_ENABLE_F16=0", "-DARM_NN_ENABLE_F32=0"]
CXX_FLAGS = ["-std=c++17", "-fno-rtti", "-fno-exceptions", "-fno-threadsafe-statics", "-fno-unwind-tables",
             "-fno-asynchronous-unwind-tables"]
C_FLAGS = ["-std=c17", "-fno-unwind-tables", "-fno-asynchronous-unwind-tables"]
MAIN = toolchain.C_DIR / "tflm_main.cc"

_LINES = {
    "arena": re.compile(r"^tflm: arena used (\d+)$"),
    "checksum": re.compile(r"^tflm: output checksum ([0-9a-f]{8})$"),
    "op": re.compile(r"^tflm: op (\d+) (\S+) ticks (\d+)$"),
}


class PeerSourcesMissing(BenchError):
    """An environment variable naming a peer source directory is unset or wrong."""


def source_dirs(environ: dict[str, str] | None = None) -> dict[str, Path]:
    """The peer source directories by variable; the first unset or wrong one is a PeerSourcesMissing."""
    environ = os.environ if environ is None else environ
    dirs = {}
    for variable, (what, marker) in SOURCE_ENVS.items():
        value = environ.get(variable)
        if not value:
            raise PeerSourcesMissing(f"{variable} is not set: point it at a {what} source tree (see README.md, "
                                     "'Benchmark')")
        if not (Path(value) / marker).is_file():
            raise PeerSourcesMissing(f"{variable}={value} has no {marker}; point it at a {what} source tree")
        dirs[variable] = Path(value)
    return dirs


def sources(dirs: dict[str, Path]) -> list[Path]:
    """Every TFLM and CMSIS-NN source the peer library compiles."""
    tflm = dirs["HELIA_TFLM_DIR"]
    kernels = tflm / "tensorflow/lite/micro/kernels"
    found = [path for pattern in RUNTIME_GLOBS for path in sorted(tflm.glob(pattern))
             if not RUNTIME_EXCLUDED.search(path.name)]
    found += [kernels / "cmsis_nn" / f"{op}.cc" for op in CMSIS_NN_OPERATORS]
    found += [kernels / f"{op}.cc" for op in REFERENCE_OPERATORS]
    found += [path for op in CMSIS_NN_OPERATORS + REFERENCE_OPERATORS
              for path in [kernels / f"{op}_common.cc"] if path.is_file()]
    found += [kernels / name for name in KERNEL_SUPPORT]
    # CMSIS-NN's integer kernels only (its float ones are off, as in TFLM's build).
    found += [path for path in sorted((dirs["HELIA_TFLM_CMSIS_NN_DIR"] / "Source").rglob("*.c"))
              if not re.search(r"(_f16|_f32|arm_nntables_flt)\.c$", path.name)]
    return found


def include_flags(dirs: dict[str, Path]) -> list[str]:
    cmsis_nn = dirs["HELIA_TFLM_CMSIS_NN_DIR"]
    folders = [dirs["HELIA_TFLM_DIR"], cmsis_nn, cmsis_nn / "Include", dirs["HELIA_TFLM_FLATBUFFERS_DIR"] / "include",
               dirs["HELIA_TFLM_GEMMLOWP_DIR"], dirs["HELIA_TFLM_RUY_DIR"]]
    return [flag for folder in folders for flag in ("-I", str(folder))]


def compile_flags(core: toolchain.Core, dirs: dict[str, Path], source: Path) -> list[str]:
    """Our firmware's flags for the core (cores.bzl, -O2 as Bazel's opt mode), then TFLM's."""
    base = [*core.board_cflags, *toolchain.optimization_flags(toolchain.SPEED_OPT),
            *TFLM_DEFINES, *include_flags(dirs), *core.runtime_flags()]
    return base + (CXX_FLAGS if source.suffix == ".cc" else C_FLAGS)


def _compile(source: Path, obj: Path, flags: list[str]) -> Path:
    """Compiles unless the object is newer than its source (a kept --work-dir rebuilds nothing)."""
    if obj.is_file() and obj.stat().st_mtime > source.stat().st_mtime:
        return obj
    obj.parent.mkdir(parents=True, exist_ok=True)
    compiler = ARM_CXX if source.suffix == ".cc" else toolchain.ARM_CC
    toolchain.run([compiler, *flags, "-c", source, "-o", obj], f"TFLM peer: compile {source.name}")
    return obj


def build_library(dirs: dict[str, Path], core: toolchain.Core, work: Path) -> Path:
    """libtflm_peer.a for the core: the TFLM runtime, the operators' kernels and CMSIS-NN (two compilers
    at a time)."""
    files = sources(dirs)
    # The folder is named after the flags and files, so a kept --work-dir never mixes two builds.
    digest = hashlib.sha256(repr([compile_flags(core, dirs, s) for s in files]).encode()).hexdigest()[:12]
    out = work / f"tflm-{core.name}-{digest}"
    jobs = []
    for index, source in enumerate(files):
        # Several TFLM files share a name (kernels/cmsis_nn/conv.cc, ...): number the objects.
        jobs.append((source, out / "obj" / f"{index:03d}_{source.stem}.o", compile_flags(core, dirs, source)))
    objects = toolchain.parallel_map(lambda job: _compile(*job), jobs)
    archive = out / "libtflm_peer.a"
    archive.unlink(missing_ok=True)
    toolchain.run([toolchain.ARM_AR, "rcs", archive, *objects], "TFLM peer: archive")
    return archive


def write_model_array(model_path: Path, out: Path) -> Path:
    """The .tflite file as the C array tflm_peer_model (16-byte aligned, as TFLM wants its model)."""
    data = model_path.read_bytes()
    rows = [", ".join(str(b) for b in data[i:i + 24]) for i in range(0, len(data), 24)]
    out.write_text("/* SPDX-License-Identifier: Apache-2.0 */\n"
                   f"/* Generated by tools/tflm_peer from {model_path.name}. */\n"
                   f"_Alignas(16) const unsigned char tflm_peer_model[{len(data)}] = {{\n    "
                   + ",\n    ".join(rows) + "\n};\n", encoding="utf-8")
    return out


@dataclasses.dataclass(frozen=True)
class PeerBuild:
    dirs: dict[str, Path]
    core: toolchain.Core
    archive: Path


def build_firmware(peer: PeerBuild, name: str, model_path: Path, work: Path, profile: bool) -> Path:
    """The peer firmware ELF of one model: plain (the count) or profiled (per-operator ticks)."""
    core = peer.core
    out = work / name / f"tflm-{core.name}-{'profile' if profile else 'plain'}"
    out.mkdir(parents=True, exist_ok=True)
    model_c = write_model_array(model_path, work / name / "tflm_model.c")
    inputs_c = work / name / "bench_input.c"
    if not inputs_c.is_file():
        firmware.write_inputs(model_path, inputs_c)
    extra = ["-DTFLM_PEER_PROFILE"] if profile else []
    jobs = [(src, out / f"{src.stem}.o", compile_flags(core, peer.dirs, src) + extra)
            for src in (MAIN, model_c, inputs_c, *core.runtime_sources())]
    objects = [_compile(*job) for job in jobs]
    elf = out / "firmware.elf"
    toolchain.run([ARM_CXX, *core.ldflags, f"-Wl,-Map={elf.with_suffix('.map')}", "-o", elf, *objects,
                   peer.archive, "-lm"], f"{name}: link the TFLM peer firmware")
    return elf


def parse_output(stdout: str, what: str) -> dict:
    """The figures a peer firmware printed; BenchError when the count or the checksum is missing."""
    found: dict[str, list] = {key: [] for key in _LINES}
    for line in stdout.splitlines():
        for key, pattern in _LINES.items():
            if match := pattern.match(line.strip()):
                found[key].append(match.groups())
    run = counter.only(stdout, "tflm_invoke", "warm")
    if run is None or len(found["checksum"]) != 1 or len(found["arena"]) != 1:
        raise BenchError(f"{what}: the TFLM firmware printed no count, arena or checksum:\n{stdout[-3000:]}")
    return {"invoke_instructions": run.instructions, "invoke_ticks": run.ticks, "optimization": run.optimization,
            "arena_used_bytes": int(found["arena"][0][0]), "output_checksum": found["checksum"][0][0],
            "operators": [{"position": int(i), "op": op, "ticks": int(t)} for i, op, t in found["op"]]}


def measure(peer: PeerBuild, name: str, model_path: Path, work: Path) -> dict:
    """Instructions of one warm TFLM Invoke, its arena and output checksum, and per-operator
    instructions from the profiled build."""
    core = peer.core
    figures = parse_output(toolchain.run(core.qemu_command(build_firmware(peer, name, model_path, work, False)),
                                         f"{name}: QEMU run (TFLM)", timeout=toolchain.QEMU_TIMEOUT_S,
                                         merge_stderr=True), name)
    profiled = parse_output(toolchain.run(core.qemu_command(build_firmware(peer, name, model_path, work, True)),
                                          f"{name}: QEMU profiled run (TFLM)", timeout=toolchain.QEMU_TIMEOUT_S,
                                          merge_stderr=True), name)
    if profiled["output_checksum"] != figures["output_checksum"]:
        raise BenchError(f"{name}: the profiled TFLM firmware computed other outputs than the plain one")
    figures["operators"] = [{"position": op["position"], "op": op["op"],
                             "instructions": round(op["ticks"] * core.tick_instructions)}
                            for op in profiled["operators"]]
    return figures

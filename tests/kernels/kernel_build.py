# SPDX-License-Identifier: Apache-2.0
"""Builds the portable kernels (and, when configured, ns-cmsis-nn) for host tests, and lists exports.

Everything is compiled into directories the caller chooses (pytest temporary directories), never
into the repository. ns-cmsis-nn is only ever found through HELIA_NS_CMSIS_NN_DIR.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.sanitizers import SANITIZERS
from tests.skip_policy import NS_CMSIS_NN_NOT_CONFIGURED

REPO_ROOT = Path(__file__).resolve().parents[2]
PORTABLE_DIR = REPO_ROOT / "kernels" / "portable"
PORTABLE_INCLUDE = PORTABLE_DIR / "include"
PORTABLE_SRC = PORTABLE_DIR / "src"
DRIVER_DIR = Path(__file__).resolve().parent / "c"

NS_ENV_VAR = "HELIA_NS_CMSIS_NN_DIR"
NS_SKIP_REASON = NS_CMSIS_NN_NOT_CONFIGURED

CC = os.environ.get("CC", "gcc")
STRICT_C99 = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
SANITIZE = SANITIZERS
DEBUG_OPT = ["-O1", "-g"]
JOBS = 2  # the machine is shared; never more than two compiles at once
# The float kernels are built like ns-cmsis-nn's: only with the float switches. Bit-identical float
# results also need the same contraction rule in both builds (no fused multiply-add).
FLOAT_DEFINES = ["-DARM_NN_ENABLE_F32=1", "-DARM_NN_ENABLE_F16=1"]
FLOAT_CODEGEN = ["-ffp-contract=off"]


class BuildError(RuntimeError):
    """A compile or link step failed; the message carries the command and the compiler output."""


def _run(cmd: list[str]) -> None:
    result = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise BuildError(f"command failed ({result.returncode}): {' '.join(cmd)}\n{result.stdout}{result.stderr}")


def portable_sources() -> list[Path]:
    return sorted(PORTABLE_SRC.rglob("*.c"))


# A directory of compiled objects keyed by what went into them (tools/mutate_kernels.py sets it, so each
# mutant recompiles only the file it changed). Unset: every build compiles everything.
OBJECT_CACHE_ENV = "HELIA_KERNEL_OBJECT_CACHE"


@functools.lru_cache(maxsize=None)
def _headers_digest(root: Path) -> str:
    """Digest of every header an object of `root` may include (the portable include tree and src)."""
    digest = hashlib.sha256()
    for header in sorted([*PORTABLE_INCLUDE.rglob("*.h"), *root.rglob("*.h")]):
        digest.update(str(header).encode() + b"\0" + header.read_bytes())
    return digest.hexdigest()


_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def _local_headers(src: Path) -> list[Path]:
    """Headers of the portable source tree that src includes, directly or through each other ("x.h" beside
    the includer or "../support/x.h"). The include tree is digested whole anyway."""
    found: dict[Path, None] = {}
    pending = [src]
    while pending:
        includer = pending.pop()
        for name in _QUOTED_INCLUDE.findall(includer.read_text(errors="replace")):
            header = (includer.parent / name).resolve()
            if header.is_file() and PORTABLE_SRC.resolve() in header.parents and header not in found:
                found[header] = None
                pending.append(header)
    return sorted(found)


def _cached_compile(src: Path, obj: Path, cmd: list[str], root: Path) -> None:
    cache = os.environ.get(OBJECT_CACHE_ENV)
    if not cache:
        _run(cmd)
        return
    if root == PORTABLE_SRC:
        # Only the headers this file includes: a mutated header recompiles its includers, not the library.
        digest = hashlib.sha256(_headers_digest(PORTABLE_INCLUDE).encode())
        for header in _local_headers(src):
            digest.update(str(header).encode() + b"\0" + header.read_bytes())
        headers = digest.hexdigest()
    else:
        headers = _headers_digest(root)
    key = hashlib.sha256("\0".join([*cmd[:-4], headers]).encode() + src.read_bytes()).hexdigest()
    cached = Path(cache) / f"{key}.o"
    if not cached.exists():
        _run(cmd)
        Path(cache).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(obj, cached)
    else:
        shutil.copyfile(cached, obj)


def compile_objects(sources: list[Path], out_dir: Path, flags: list[str], root: Path) -> list[Path]:
    """Compiles each source to out_dir, naming objects after their path below root (no clashes)."""
    out_dir.mkdir(parents=True, exist_ok=True)

    def compile_one(src: Path) -> Path:
        obj = out_dir / (str(src.relative_to(root)).replace(os.sep, "__") + ".o")
        _cached_compile(src, obj, [CC, *flags, "-c", str(src), "-o", str(obj)], root)
        return obj

    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        return list(pool.map(compile_one, sources))


def archive(objects: list[Path], lib: Path) -> Path:
    lib.unlink(missing_ok=True)
    _run(["ar", "rcs", str(lib), *map(str, objects)])
    return lib


def build_portable_library(out_dir: Path, flags: list[str] | None = None) -> Path:
    """Static library of the portable kernels, built with the strict flags plus sanitizers."""
    flags = flags if flags is not None else [*STRICT_C99, *DEBUG_OPT, *SANITIZE, *FLOAT_CODEGEN, *FLOAT_DEFINES]
    objects = compile_objects(portable_sources(), out_dir / "obj", [*flags, f"-I{PORTABLE_INCLUDE}"], PORTABLE_SRC)
    return archive(objects, out_dir / "libhelia_portable_kernels.a")


def ns_cmsis_nn_dir() -> Path | None:
    value = os.environ.get(NS_ENV_VAR, "").strip()
    if not value:
        return None
    path = Path(value)
    if not (path / "Include" / "arm_nnfunctions.h").is_file():
        raise BuildError(f"{NS_ENV_VAR}={value} does not look like an ns-cmsis-nn checkout (no Include/arm_nnfunctions.h)")
    return path


def ns_sources(ns_dir: Path, float16: bool) -> list[Path]:
    """The ns-cmsis-nn sources every build of it compiles, as third_party/ns_cmsis_nn/sources.bzl states
    them (read by the benchmark's reader, tools/bench_lib/kernels.py, as the e2e harness does): the
    float16 kernels only with `float16` (ARM_NN_ENABLE_F16). The float32 kernels are always in the list
    (built with ARM_NN_ENABLE_F32)."""
    tools_dir = str(REPO_ROOT / "tools")
    if tools_dir not in sys.path:
        sys.path.insert(0, tools_dir)
    from bench_lib import kernels
    return kernels.ns_cmsis_nn_sources(ns_dir, float16=float16)


@functools.lru_cache(maxsize=None)
def ns_entries(ns_dir: Path) -> frozenset[str]:
    """The entries the checkout's release provides, by its recorded list (helia_aot/library/
    ns_cmsis_nn_entries, which tests/unit/test_library_entries.py keeps equal to the headers)."""
    tools_dir = str(REPO_ROOT / "tools")
    if tools_dir not in sys.path:
        sys.path.insert(0, tools_dir)
    import ns_cmsis_nn_entries
    from helia_aot.library.kernel_library import ns_cmsis_nn_entries as recorded
    return recorded(ns_cmsis_nn_entries.release(ns_dir))


def portable_api() -> set[str]:
    """The ns-cmsis-nn API functions the portable kernels declare (arm_nnfunctions.h, _flt.h)."""
    names: set[str] = set()
    for header in ("arm_nnfunctions.h", "arm_nnfunctions_flt.h"):
        text = re.sub(r"/\*.*?\*/", "", (PORTABLE_INCLUDE / header).read_text(encoding="utf-8"), flags=re.S)
        names |= set(re.findall(r"\b(arm_\w+)\s*\(", text))
    return names


def ns_lacks(ns_dir: Path) -> list[str]:
    """The functions of the portable kernels' API that the checkout's release does not provide, sorted."""
    return sorted(portable_api() - ns_entries(ns_dir))


def ns_driver_defines(ns_dir: Path) -> list[str]:
    """DRIVER_LACKS_<entry>=1 for each entry ns_lacks finds: a driver compiles its calls of those out of
    its ns-cmsis-nn build (which has no such function to link), and the tests compare those entries only
    where the library has them (check_ns_lacks)."""
    return [f"DRIVER_LACKS_{name}=1" for name in ns_lacks(ns_dir)]


def check_ns_lacks(ns_dir: Path, library: Path, entry: str) -> bool:
    """Whether ns-cmsis-nn lacks `entry` (no parity to check then); when it does, asserts that the built
    library truly defines no such function, so its recorded list (which keeps modules off the entry)
    tells the truth."""
    if entry in ns_entries(ns_dir):
        return False
    assert entry not in defined_functions([library]), f"{entry} is defined by ns-cmsis-nn but not in its entry list"
    return True


def build_ns_library(ns_dir: Path, out_dir: Path) -> Path:
    """Static library of ns-cmsis-nn's plain-C (host) build, with sanitizers. Its warnings are not ours.

    ns-cmsis-nn left-shifts negative values and lets some int32 arithmetic wrap by design, so those
    two UBSan checks are off for its objects (memory errors are still caught).
    """
    # ARM_NN_ENABLE_F32 as every build of the list has it (Bazel's overlay, the benchmark): some float32
    # sources of the list use float32_t unguarded. The integer kernels do not depend on it.
    flags = ["-std=c99", *DEBUG_OPT, *SANITIZE, "-fno-sanitize=shift,signed-integer-overflow", "-w",
             "-DARM_NN_ENABLE_F32=1", f"-I{ns_dir / 'Include'}"]
    objects = compile_objects(ns_sources(ns_dir, float16=False), out_dir / "obj", flags, ns_dir / "Source")
    return archive(objects, out_dir / "libns_cmsis_nn_host.a")


def build_ns_float_library(ns_dir: Path, out_dir: Path) -> Path:
    """ns-cmsis-nn's plain-C host build with float support (ARM_NN_ENABLE_F32/F16), for float parity.

    Same code-generation flags as the portable library (optimisation, -ffp-contract=off), so the two
    compile the same float operations the same way.
    """
    flags = ["-std=c99", *DEBUG_OPT, *SANITIZE, *FLOAT_CODEGEN, *FLOAT_DEFINES,
             "-fno-sanitize=shift,signed-integer-overflow", "-w", f"-I{ns_dir / 'Include'}"]
    objects = compile_objects(ns_sources(ns_dir, float16=True), out_dir / "obj", flags, ns_dir / "Source")
    return archive(objects, out_dir / "libns_cmsis_nn_float_host.a")


def link_program(sources: list[Path], libraries: list[Path], include_dirs: list[Path], out: Path,
                 defines: list[str] | None = None) -> Path:
    cmd = [CC, *STRICT_C99, *DEBUG_OPT, *SANITIZE, f"-I{REPO_ROOT / 'tests' / 'c'}"]  # driver_io.h
    cmd += [f"-I{d}" for d in include_dirs]
    cmd += [f"-D{d}" for d in (defines or [])]
    cmd += [*map(str, sources), *map(str, libraries), "-lm", "-o", str(out)]  # ns-cmsis-nn's quantize calls round()
    _run(cmd)
    return out


def run_program(program: Path, stdin_text: str, timeout: float = 600) -> str:
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0", UBSAN_OPTIONS="print_stacktrace=1")
    result = subprocess.run([str(program)], input=stdin_text, capture_output=True, text=True, timeout=timeout,
                            env=env, check=False)
    if result.returncode != 0:
        raise BuildError(f"{program.name} exited with {result.returncode}\n{result.stderr[-4000:]}")
    if result.stderr.strip():
        raise BuildError(f"{program.name} reported on stderr:\n{result.stderr[-4000:]}")
    return result.stdout


def defined_functions(objects_or_lib: list[Path]) -> set[str]:
    """Global function symbols defined by the given objects or archives (from nm)."""
    nm = shutil.which("nm") or "nm"
    result = subprocess.run([nm, "--defined-only", "-g", "-P", *map(str, objects_or_lib)], capture_output=True,
                            text=True, check=True)
    names = set()
    for line in result.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1] in ("T", "t"):
            names.add(parts[0])
    return names


class Driver:
    """A built kernel driver program: feed it records, get one parsed result per record."""

    def __init__(self, program: Path):
        self.program = program

    def run_text(self, records: list[str]) -> str:
        return run_program(self.program, "\n".join(records) + "\n")

    def run(self, records: list[str]):
        from records import parse  # the driver's output format (tests/kernels/records.py)
        results = parse(self.run_text(records))
        assert len(results) == len(records)
        return results

    def one(self, record: str):
        return self.run([record])[0]

# SPDX-License-Identifier: Apache-2.0
"""One definition of CPU flags and QEMU arguments: toolchains/arm_gnu/cores.bzl, loaded by Bazel's Arm
toolchains and read as data by the benchmark (tools/bench_lib/toolchain.py); neither repeats them."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from bench_lib import toolchain  # noqa: E402

ARM_GNU = REPO / "toolchains" / "arm_gnu"


def test_bench_reads_every_core_of_the_bazel_definition():
    cores = toolchain.read_bzl_constants(ARM_GNU / "cores.bzl")["CORES"]
    assert set(toolchain.CORES) == set(cores) >= {"cortex_m55", "cortex_m4"}
    for name, core in toolchain.CORES.items():
        assert list(core.cpu_flags) == cores[name]["cpu_flags"]
        assert core.common_cflags[:len(core.cpu_flags)] == list(core.cpu_flags)
        command = core.qemu_command(Path("f.elf"))
        assert command[:3] == ["qemu-system-arm", "-M", cores[name]["qemu_machine"]]
        assert ["-icount", "shift=0"] == command[command.index("-icount"):command.index("-icount") + 2]
        assert core.linker_script.is_file() and all(p.is_file() for p in core.runtime_sources())
    assert toolchain.TARGET_CORES["apollo4p_evb"].qemu_machine == "mps2-an386"


def _string_literals(path: Path) -> list[str]:
    """The string constants of a Python or Starlark file, docstrings left out (they may name flags)."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_flags_are_written_in_one_place():
    for path in (ARM_GNU / "BUILD.bazel", ARM_GNU / "cc_toolchain_config.bzl", REPO / "tools" / "bench_lib" / "toolchain.py",
                 REPO / "tools" / "bench_lib" / "firmware.py", REPO / "tools" / "bench_lib" / "kernels.py"):
        literals = " ".join(_string_literals(path))
        for flag in ("-mcpu=", "-mfloat-abi", "mps3-an547", "mps2-an386", "shift=0", "--oslib=semihost",
                     "-ffunction-sections", "--specs="):
            assert flag not in literals, f"{path.name} repeats {flag}"
    assert 'load(":cores.bzl"' in (ARM_GNU / "BUILD.bazel").read_text()
    assert 'load(":cores.bzl"' in (ARM_GNU / "cc_toolchain_config.bzl").read_text()

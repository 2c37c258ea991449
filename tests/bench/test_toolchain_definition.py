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
    facts = toolchain.read_bzl_constants(ARM_GNU / "cores.bzl")
    cores, boards = facts["CORES"], facts["BOARDS"]
    emulated = {name for name, core in cores.items() if core["board"]}
    assert set(toolchain.CORES) == emulated >= {"cortex_m0", "cortex_m3", "cortex_m4", "cortex_m7", "cortex_m33",
                                                "cortex_m55"}
    for name, core in toolchain.CORES.items():
        assert list(core.cpu_flags) == cores[name]["cpu_flags"]
        assert core.common_cflags[:len(core.cpu_flags)] == list(core.cpu_flags)
        command = core.qemu_command(Path("f.elf"))
        assert command[:3] == ["qemu-system-arm", "-M", boards[cores[name]["board"]]["qemu_machine"]]
        assert ["-icount", "shift=0"] == command[command.index("-icount"):command.index("-icount") + 2]
        assert core.linker_script.is_file() and all(p.is_file() for p in core.runtime_sources())
    assert toolchain.TARGET_CORES["apollo4p_evb"].qemu_machine == "mps2-an386"
    # Every QEMU board is a benchmark target of its own name, run on a core of that board.
    for board, facts in boards.items():
        assert toolchain.TARGET_CORES[board].qemu_machine == facts["qemu_machine"], board


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


def test_core_table_is_consistent():
    """Every core's ns-cmsis-nn build follows from its capabilities, as the compiler's kernel_build does;
    every board a core names exists, with its startup code and linker script."""
    facts = toolchain.read_bzl_constants(ARM_GNU / "cores.bzl")
    capabilities = {"dsp", "mve", "mve_f", "fpu", "fp16", "double"}
    for name, core in facts["CORES"].items():
        caps = set(core["capabilities"])
        assert caps <= capabilities, name
        build = "mve" if "mve" in caps else "dsp" if "dsp" in caps else "plain"
        assert core["ns_cmsis_nn_build"] == build, name
        assert ("fpu" in caps) == ("-mfloat-abi=hard" in core["cpu_flags"]), f"{name}: hard float iff an FPU"
        assert not {"mve_f", "double", "fp16"} & caps or "fpu" in caps, name
        for board in ([core["board"]] if core["board"] else []) + core.get("other_boards", []):
            files = facts["BOARDS"][board]
            assert (REPO / files["startup"]).is_file() and (REPO / files["linker_script"]).is_file(), board

# SPDX-License-Identifier: Apache-2.0
"""One statement of which ns-cmsis-nn files are compiled: third_party/ns_cmsis_nn/sources.bzl, loaded by
Bazel's overlay and read as data by the tools that compile ns-cmsis-nn themselves (tools/bench_lib,
tests/e2e/harness.py). Checked on a fake ns-cmsis-nn tree, so ns-cmsis-nn itself is not needed. And the
Helium test firmware is found in kernels/helium/test, not listed by the benchmark."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from bench_lib import helium, kernels, toolchain  # noqa: E402

NS_DIR = REPO / "third_party" / "ns_cmsis_nn"
OVERLAY = NS_DIR / "ns_cmsis_nn.BUILD.bazel"

# A fake ns-cmsis-nn tree: relative path -> does a build without / with float16 compile it?
FAKE_TREE = {
    "Source/arm_top_level_s8.c": (True, True),  # `**` matches no folder too, as in Bazel
    "Source/ConvolutionFunctions/arm_convolve_s8.c": (True, True),
    "Source/ConvolutionFunctions/arm_convolve_f32.c": (True, True),
    "Source/ConvolutionFunctions/arm_convolve_f16.c": (False, True),
    "Source/BasicMathFunctions/deeper/arm_elementwise_add_f16.c": (False, True),
    "Source/FullyConnectedFunctions/arm_fully_connected_fp16.c": (False, False),
    "Source/NNSupportFunctions/private_helpers.h": (False, False),
    "Examples/example_s8.c": (False, False),
    "Include/arm_nnfunctions.h": (False, False),
}


@pytest.fixture
def fake_tree(tmp_path) -> Path:
    for name in FAKE_TREE:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("/* fake */\n")
    return tmp_path


def _expected(root: Path, float16: bool) -> list[Path]:
    return sorted(root / name for name, built in FAKE_TREE.items() if built[float16])


def _glob(root: Path, patterns: list[str]) -> set[Path]:
    return {path for pattern in patterns for path in root.glob(pattern) if path.is_file()}


def _overlay_srcs_glob() -> tuple[list[str], list[str]]:
    """The names the overlay's cc_library srcs glob adds up, for its include and exclude lists."""
    tree = ast.parse(OVERLAY.read_text(encoding="utf-8"), str(OVERLAY))
    library = next(node for node in ast.walk(tree) if isinstance(node, ast.Call)
                   and getattr(node.func, "id", None) == "cc_library")
    srcs = next(k.value for k in library.keywords if k.arg == "srcs")
    assert isinstance(srcs, ast.Call) and srcs.func.id == "glob", ast.dump(srcs)

    def names(node: ast.expr) -> list[str]:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return names(node.left) + names(node.right)
        assert isinstance(node, ast.Name), f"the overlay's glob is not built from sources.bzl: {ast.dump(node)}"
        return [node.id]

    exclude = next((k.value for k in srcs.keywords if k.arg == "exclude"), None)
    return names(srcs.args[0]), names(exclude) if exclude is not None else []


def test_overlay_globs_only_the_lists_of_sources_bzl():
    text = OVERLAY.read_text(encoding="utf-8")
    declared = toolchain.read_bzl_constants(NS_DIR / "sources.bzl")
    include, exclude = _overlay_srcs_glob()
    assert '"@helia_aot//third_party/ns_cmsis_nn:sources.bzl"' in text
    assert all(f'"{name}"' in text.split("load(", 1)[1].split(")", 1)[0] for name in include + exclude)
    assert set(include + exclude) <= set(declared)
    # No glob pattern of the tree is written in the overlay itself.
    literals = [node.value for node in ast.walk(ast.parse(text)) if isinstance(node, ast.Constant)]
    assert not [value for value in literals if isinstance(value, str) and value.startswith("Source/")]


def test_overlay_and_python_tools_select_the_same_sources(fake_tree, monkeypatch):
    """The overlay's glob, evaluated here with the lists it loads, picks the C files the benchmark and
    the e2e harness compile without float16; float16 adds the *_f16.c files and nothing else."""
    from tests.e2e import harness

    declared = toolchain.read_bzl_constants(NS_DIR / "sources.bzl")
    include, exclude = _overlay_srcs_glob()
    bazel = _glob(fake_tree, [p for name in include for p in declared[name]]) - \
        _glob(fake_tree, [p for name in exclude for p in declared[name]])
    bazel_c = sorted(path for path in bazel if path.suffix == ".c")

    assert kernels.ns_cmsis_nn_sources(fake_tree, float16=False) == bazel_c == _expected(fake_tree, False)
    assert kernels.ns_cmsis_nn_sources(fake_tree, float16=True) == _expected(fake_tree, True)
    assert harness.ns_cmsis_nn_sources(fake_tree) == _expected(fake_tree, True)  # LIBRARY_DEFINES has F16

    # The Cortex-M4 build (apollo4p_evb) has no float16, the Cortex-M55 one (corstone300) has it.
    monkeypatch.setenv(toolchain.NS_CMSIS_NN_ENV, str(fake_tree))
    for target, float16 in (("apollo4p_evb", False), ("corstone300", True)):
        source_root, _, files = kernels.sources(kernels.NS_CMSIS_NN, toolchain.TARGET_CORES[target])
        assert source_root == fake_tree / "Source"
        assert files == _expected(fake_tree, float16), target


def test_python_selection_reads_the_declaration(fake_tree, tmp_path_factory, monkeypatch):
    """Another sources.bzl gives another selection: the lists are read, not repeated in Python."""
    from tests.e2e import harness

    other = tmp_path_factory.mktemp("declaration") / "sources.bzl"
    other.write_text('NS_CMSIS_NN_SOURCES = ["Source/ConvolutionFunctions/*.c"]\n'
                     'NS_CMSIS_NN_PRIVATE_HEADERS = []\n'
                     'NS_CMSIS_NN_FLOAT16_SOURCES = ["Source/**/*_f32.c"]\n'
                     'NS_CMSIS_NN_EXCLUDED_SOURCES = ["Source/**/*_s8.c"]\n')
    monkeypatch.setattr(kernels, "NS_CMSIS_NN_SOURCES_FILE", other)
    folder = fake_tree / "Source" / "ConvolutionFunctions"
    assert kernels.ns_cmsis_nn_sources(fake_tree, float16=False) == [folder / "arm_convolve_f16.c"]
    assert kernels.ns_cmsis_nn_sources(fake_tree, float16=True) == [folder / "arm_convolve_f16.c",
                                                                    folder / "arm_convolve_f32.c"]
    assert harness.ns_cmsis_nn_sources(fake_tree) == [folder / "arm_convolve_f16.c", folder / "arm_convolve_f32.c"]


def test_helium_firmware_is_found_in_its_folder():
    test_dir = REPO / "kernels" / "helium" / "test"
    for kind, found in (("parity", helium.PARITY), ("bench", helium.BENCH)):
        files = sorted(test_dir.glob(f"*_{kind}.c"))
        assert files and sorted(found.values()) == files
        for kernel, firmware in found.items():
            assert firmware.name == f"{kernel}_{kind}.c"
            sources = helium.portable_sources(firmware)
            # A kernel whose reference is the plain C in its own source (the hybrid kernels) names none.
            assert sources or "compiled with this firmware (tools/bench_lib/helium.py reads this list): none," \
                in firmware.read_text(), firmware
            assert all(path.is_file() and toolchain.PORTABLE_DIR / "src" in path.parents
                       for path in sources), (firmware, sources)


def test_helium_firmware_without_its_portable_sources_is_an_error(tmp_path):
    firmware = tmp_path / "new_kernel_parity.c"
    firmware.write_text("/* Parity firmware of a new kernel. */\nint main(void) { return 0; }\n")
    with pytest.raises(toolchain.BenchError, match="Portable sources compiled with this firmware"):
        helium.portable_sources(firmware)
    firmware.write_text("/* Portable sources compiled with this firmware (x): depthwise/no_such_file.c */\n")
    with pytest.raises(toolchain.BenchError, match="no_such_file"):
        helium.portable_sources(firmware)
    firmware.write_text("/* Portable sources compiled with this firmware (x): */\n")
    with pytest.raises(toolchain.BenchError, match="none named"):
        helium.portable_sources(firmware)
    firmware.write_text("/* Portable sources compiled with this firmware (x): none, the reference being its own\n"
                        " * plain C */\n")
    assert helium.portable_sources(firmware) == []

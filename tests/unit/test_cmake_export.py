# SPDX-License-Identifier: Apache-2.0
"""module.type: cmake (--emit cmake): the CMakeLists.txt builds the module with CMake, for the host
(and its golden test passes) and for the Cortex-M55 with the Arm GNU toolchain (run on QEMU)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import helia_aot
from tests.skip_policy import OPTIONAL_TOOL

from .helpers import NS_SKIP, REPO
from .test_cli import one_error_line, run

KWS = REPO / "models" / "kws.tflite"
PORTABLE = REPO / "kernels" / "portable"
HELIUM = REPO / "kernels" / "helium"
TOOLCHAIN = REPO / "toolchains" / "cmake" / "corstone300.cmake"
BOARD = REPO / "toolchains" / "corstone300"
WARNINGS = "-Wall -Wextra -Werror"


def _tool(name: str, why: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{OPTIONAL_TOOL} {name} ({why}; tools/bootstrap installs it in the build environment)")
    return path


def _cmake() -> str:
    return _tool("cmake", "builds the CMake export")


def _sh(*args, cwd=None, timeout=600) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(map(str, args))}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def _build(cmake: str, source: Path, build: Path, *defs: str) -> None:
    _sh(cmake, "-S", source, "-B", build, f"-DCMAKE_C_FLAGS={WARNINGS}", *defs)
    _sh(cmake, "--build", build, "-j2")  # never more than two compile jobs


def _listed_sources(cmake_lists: str, target: str) -> list[str]:
    block = re.search(rf"add_library\({target} STATIC\n(.*?)\n\)", cmake_lists, re.S)
    assert block, cmake_lists
    return block.group(1).split()


def test_cmake_lists_only_when_asked(tmp_path):
    plain = helia_aot.convert(KWS, tmp_path / "plain", prefix="kws")
    assert not (plain.output_dir / "CMakeLists.txt").exists()
    by_config = helia_aot.convert(KWS, tmp_path / "cfg", prefix="kws", config={"module": {"type": "cmake"}})
    text = (by_config.output_dir / "CMakeLists.txt").read_text()
    assert "CMakeLists.txt" in by_config.files
    on_disk = sorted(f"src/{p.name}" for p in (by_config.output_dir / "src").glob("*.c"))
    assert _listed_sources(text, "kws_model") == on_disk
    assert "add_executable" not in text  # no test/ folder, no harness
    proc = run("convert", str(KWS), "-o", str(tmp_path / "cli"), "--prefix", "kws", "--emit", "cmake")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "cli" / "CMakeLists.txt").read_text() == text
    line = one_error_line(run("convert", str(KWS), "-o", str(tmp_path / "x"), "--emit", "cmak"), "UsageError")
    assert "cmake" in line
    with pytest.raises(helia_aot.HeliaError, match="module.type"):
        helia_aot.convert(KWS, tmp_path / "y", config={"module": {"type": "make"}})


def test_host_build_from_the_installed_package_passes_the_golden_test(tmp_path):
    cmake = _cmake()
    _tool("cc", "host C compiler")
    # The portable kernels as an installed package, found by find_package().
    _build(cmake, PORTABLE, tmp_path / "kernels-build")
    _sh(cmake, "--install", tmp_path / "kernels-build", "--prefix", tmp_path / "prefix")
    assert list((tmp_path / "prefix").rglob("helia_portable_kernels-config.cmake"))
    module = helia_aot.convert(KWS, tmp_path / "kws", prefix="kws", target="host", module_type="cmake",
                               with_test_data=True, num_test_samples=5)
    build = tmp_path / "kws-build"
    _build(cmake, module.output_dir, build, f"-DCMAKE_PREFIX_PATH={tmp_path / 'prefix'}")
    ctest = _sh(_tool("ctest", "runs the CMake export's golden test"), "--test-dir", build, "--output-on-failure",
                "-V")
    assert "kws_model_golden" in ctest.stdout and "100% tests passed" in ctest.stdout
    assert re.search(r"output\[0\]: max_abs_diff=\d+", ctest.stdout)
    assert "PASS: 5 samples" in ctest.stdout


def test_portable_plan_refuses_ns_cmsis_nn(tmp_path):
    cmake = _cmake()
    module = helia_aot.convert(KWS, tmp_path / "kws", prefix="kws", target="host", module_type="cmake",
                               kernel_library="portable")
    proc = subprocess.run([cmake, "-S", str(module.output_dir), "-B", str(tmp_path / "b"),
                           "-DKWS_MODEL_KERNELS=ns::cmsis-nn"], capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    message = " ".join(proc.stderr.split())  # CMake wraps its messages
    assert "planned for the portable kernels" in message and "--kernel_library ns_cmsis_nn" in message


# Per board a parent project builds the golden harness for: its CMake toolchain file, startup code and
# linker script, the folder of our kernel family its core links, and QEMU's machine.
BOARDS = {
    "corstone300": (TOOLCHAIN, BOARD / "startup.c", BOARD / "corstone300.ld", HELIUM, "mps3-an547"),
    "mps2_an386": (REPO / "toolchains" / "cmake" / "mps2_an386.cmake", REPO / "toolchains" / "mps2" / "startup.c",
                   REPO / "toolchains" / "mps2" / "mps2.ld", REPO / "kernels" / "dsp", "mps2-an386"),
}


def _parent_project(tmp_path: Path, module: Path, kernels: str, firmware: bool, board: str = "corstone300") -> Path:
    """A parent CMake project that adds a kernel library, our kernel family for the board's core (a module
    for it may call them; Helium for corstone300), then the module, then a program on the golden test
    harness (on the board with its startup code and linker script)."""
    parent = tmp_path / "parent"
    parent.mkdir()
    _, startup, linker_script, family, _ = BOARDS[board]
    runtime = ""
    if firmware:
        runtime = (f'target_sources(golden PRIVATE "{startup}" "{BOARD}/instruction_counter.c")\n'
                   f'target_include_directories(golden PRIVATE "{BOARD}")\n'
                   f'target_link_options(golden PRIVATE -nostartfiles -T "{linker_script}")\n')
    (parent / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.21)\n"
        "project(parent LANGUAGES C)\n"
        f'add_subdirectory("{kernels}" kernels)\n'
        f'add_subdirectory("{family}" {family.name})\n'
        f'add_subdirectory("{module}" module)\n'
        f'add_executable(golden "{module}/test/kws_test_main.c" "{module}/test/kws_test_data.c")\n'
        "target_link_libraries(golden PRIVATE kws_model)\n" + runtime)
    return parent


def test_cortex_m55_build_runs_on_qemu(tmp_path):
    cmake = _cmake()
    _tool("arm-none-eabi-gcc", "Arm GNU toolchain for the Cortex-M55 build")
    module = helia_aot.convert(KWS, tmp_path / "kws", prefix="kws", target="corstone300", module_type="cmake",
                               with_test_data=True, num_test_samples=3)
    parent = _parent_project(tmp_path, module.output_dir, str(PORTABLE), firmware=True)
    build = tmp_path / "build"
    _build(cmake, parent, build, f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN}")
    elf = build / "golden"
    readelf = shutil.which("arm-none-eabi-readelf")
    if readelf:
        attributes = _sh(readelf, "-A", elf).stdout
        assert 'Tag_CPU_name: "cortex-m55"' in attributes and "MVE" in attributes
    assert (build / "module" / "libkws_model.a").exists()
    assert (build / "kernels" / "libhelia_portable_kernels.a").exists()
    assert "helia_mve_depthwise_conv_3x3_s8" in module.kernel_symbols  # the module calls our Helium kernel
    assert (build / "helium" / "libhelia_helium_kernels.a").exists()
    qemu = _tool("qemu-system-arm", "runs the Cortex-M55 build")
    proc = subprocess.run([qemu, "-M", "mps3-an547", "-nographic", "-monitor", "none", "-serial", "none",
                           "-semihosting-config", "enable=on,target=native", "-kernel", str(elf)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS: 3 samples" in proc.stdout + proc.stderr  # semihosting writes where QEMU chooses


def test_cortex_m4_build_with_our_dsp_kernels_runs_on_qemu(tmp_path):
    """A Cortex-M4 module (apollo4p_evb) calls our DSP kernels: the parent adds kernels/dsp beside the
    portable kernels, and the golden test passes on QEMU mps2-an386."""
    cmake = _cmake()
    _tool("arm-none-eabi-gcc", "Arm GNU toolchain for the Cortex-M4 build")
    module = helia_aot.convert(KWS, tmp_path / "kws", prefix="kws", target="apollo4p_evb", module_type="cmake",
                               with_test_data=True, num_test_samples=3)
    assert any(s.startswith("helia_dsp_") for s in module.kernel_symbols), module.kernel_symbols
    parent = _parent_project(tmp_path, module.output_dir, str(PORTABLE), firmware=True, board="mps2_an386")
    build = tmp_path / "build"
    toolchain, *_, machine = BOARDS["mps2_an386"]
    _build(cmake, parent, build, f"-DCMAKE_TOOLCHAIN_FILE={toolchain}")
    assert (build / "dsp" / "libhelia_dsp_kernels.a").exists()
    readelf = shutil.which("arm-none-eabi-readelf")
    if readelf:
        assert "Tag_CPU_arch: v7E-M" in _sh(readelf, "-A", build / "golden").stdout  # the DSP extension's architecture
    qemu = _tool("qemu-system-arm", "runs the Cortex-M4 build")
    proc = subprocess.run([qemu, "-M", machine, "-nographic", "-monitor", "none", "-serial", "none",
                           "-semihosting-config", "enable=on,target=native", "-kernel", str(build / "golden")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PASS: 3 samples" in proc.stdout + proc.stderr


def test_parent_ns_cmsis_nn_target_is_linked(tmp_path):
    ns = os.environ.get("HELIA_NS_CMSIS_NN_DIR")
    if not ns:
        pytest.skip(NS_SKIP)
    cmake = _cmake()
    _tool("cc", "host C compiler")
    module = helia_aot.convert(KWS, tmp_path / "kws", prefix="kws", target="host", module_type="cmake",
                               with_test_data=True, num_test_samples=3)
    parent = _parent_project(tmp_path, module.output_dir, ns, firmware=False)
    build = tmp_path / "build"
    _sh(cmake, "-S", parent, "-B", build)  # ns-cmsis-nn's own sources are not ours to hold to -Werror
    _sh(cmake, "--build", build, "-j2")
    link = (build / "CMakeFiles" / "golden.dir" / "link.txt").read_text()
    assert "libcmsis-nn.a" in link and "portable" not in link
    proc = subprocess.run([str(build / "golden")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "PASS: 3 samples" in proc.stdout, proc.stdout + proc.stderr


def test_signal_module_links_our_signal_kernels_beside_ns_cmsis_nn(tmp_path):
    """ns-cmsis-nn has no kernels of TFLM's Signal operators: a module calling them (SignalWindow here),
    planned for ns-cmsis-nn, links ns::cmsis-nn and helia::signal_kernels (not the portable library) and
    its golden test passes."""
    ns = os.environ.get("HELIA_NS_CMSIS_NN_DIR")
    if not ns:
        pytest.skip(NS_SKIP)
    cmake = _cmake()
    _tool("cc", "host C compiler")
    from tests.modelgen.cases import build_case_model, load_case
    case = REPO / "tests" / "e2e" / "cases" / "signal_window_int16_hann_480_shift12.yaml"
    module = helia_aot.convert(build_case_model(load_case(case)), tmp_path / "sw", prefix="sw", target="host",
                               kernel_library="ns_cmsis_nn", module_type="cmake", with_test_data=True,
                               num_test_samples=3)
    assert any("helia_signal_window_s16(" in p.read_text() for p in (module.output_dir / "src").glob("*.c"))
    parent = tmp_path / "parent"
    parent.mkdir()
    (parent / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.21)\n"
        "project(parent LANGUAGES C)\n"
        f'add_subdirectory("{ns}" ns)\n'
        f'add_subdirectory("{PORTABLE}" kernels)\n'
        f'add_subdirectory("{module.output_dir}" module)\n'
        f'add_executable(golden "{module.output_dir}/test/sw_test_main.c" "{module.output_dir}/test/sw_test_data.c")\n'
        "target_link_libraries(golden PRIVATE sw_model)\n")
    build = tmp_path / "build"
    _sh(cmake, "-S", parent, "-B", build)  # ns-cmsis-nn's own sources are not ours to hold to -Werror
    _sh(cmake, "--build", build, "--target", "golden", "-j2")
    link = (build / "CMakeFiles" / "golden.dir" / "link.txt").read_text()
    assert "libcmsis-nn.a" in link and "libhelia_signal_kernels.a" in link and "portable" not in link
    # ns-cmsis-nn's include directory comes before ours (arm_nnfunctions.h is its own).
    flags = (build / "module" / "CMakeFiles" / "sw_model.dir" / "flags.make").read_text()
    assert 0 <= flags.find(f"{Path(ns).resolve()}/Include") < flags.find(str(PORTABLE / "include")), flags
    proc = subprocess.run([str(build / "golden")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "PASS: 3 samples" in proc.stdout, proc.stdout + proc.stderr

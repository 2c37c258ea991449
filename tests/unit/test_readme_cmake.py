# SPDX-License-Identifier: Apache-2.0
"""README.md's parent CMakeLists.txt files run as printed: each marked block is written verbatim into a
parent project laid out as the README says, configured, built, and its golden test run by ctest (on the
host, or on QEMU mps3-an547 for the Cortex-M55), and the demo firmware run too."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import helia_aot

from .helpers import NS_SKIP, REPO
from .test_cmake_export import KWS, TOOLCHAIN, WARNINGS, _cmake, _sh, _tool

SAMPLES = 3
_MARKED = re.compile(r"^<!-- readme-cmake: ([\w-]+) -->\n```cmake\n(.*?)^```$", re.M | re.S)


def readme_snippets() -> dict[str, str]:
    """Each marked parent CMakeLists.txt of README.md, by its mark."""
    found = _MARKED.findall((REPO / "README.md").read_text())
    names = [name for name, _ in found]
    assert len(names) == len(set(names)), names
    return dict(found)


# mark -> (target, kernel library, needs ns-cmsis-nn)
CASES = {
    "host-portable": ("host", "portable", False),
    "cortex-m55-portable-helium": ("corstone300", "portable", False),
    "cortex-m55-ns-cmsis-nn-helium": ("corstone300", "ns_cmsis_nn", True),
}


def test_the_readme_has_one_snippet_per_case():
    assert sorted(readme_snippets()) == sorted(CASES)


def _parent(tmp_path: Path, snippet: str, target: str, kernels: str, ns: str | None) -> Path:
    """The README's layout: app/CMakeLists.txt, app/third_party/{helia-aot,ns-cmsis-nn}, app/models/kws."""
    app = tmp_path / "app"
    (app / "third_party").mkdir(parents=True)
    (app / "third_party" / "helia-aot").symlink_to(REPO)
    if ns:
        (app / "third_party" / "ns-cmsis-nn").symlink_to(ns)
    helia_aot.convert(KWS, app / "models" / "kws", prefix="kws", target=target, kernel_library=kernels,
                      module_type="cmake", with_test_data=True, num_test_samples=SAMPLES)
    (app / "CMakeLists.txt").write_text(snippet)
    return app


def _qemu(elf: Path) -> subprocess.CompletedProcess:
    qemu = _tool("qemu-system-arm", "runs the Cortex-M55 build")
    return subprocess.run([qemu, "-M", "mps3-an547", "-nographic", "-monitor", "none", "-serial", "none",
                           "-semihosting-config", "enable=on,target=native", "-kernel", str(elf)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("mark", sorted(CASES))
def test_readme_parent_project_builds_and_its_golden_test_passes(tmp_path, mark):
    target, kernels, needs_ns = CASES[mark]
    ns = os.environ.get("HELIA_NS_CMSIS_NN_DIR")
    if needs_ns and not ns:
        pytest.skip(NS_SKIP)
    cmake = _cmake()
    ctest = _tool("ctest", "runs the module's golden test")
    firmware = target != "host"
    _tool("arm-none-eabi-gcc" if firmware else "cc", "compiles the parent project")
    app = _parent(tmp_path, readme_snippets()[mark], target, kernels, ns if needs_ns else None)
    build = tmp_path / "build"
    defs = [f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN}"] if firmware else []
    if not needs_ns:  # ns-cmsis-nn's own sources are not ours to hold to -Werror
        defs.append(f"-DCMAKE_C_FLAGS={WARNINGS}")
    _sh(cmake, "-S", app, "-B", build, *defs)
    _sh(cmake, "--build", build, "-j2")
    link = (build / "CMakeFiles" / "kws_demo.dir" / "link.txt").read_text()
    assert ("libcmsis-nn.a" in link) == needs_ns and ("libhelia_portable_kernels.a" in link) != needs_ns, link
    assert ("libhelia_helium_kernels.a" in link) == firmware, link
    tested = subprocess.run([ctest, "--test-dir", build, "-V", "--timeout", "300"], capture_output=True, text=True,
                            timeout=600)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    # The test ran the harness (QEMU exits 0 when killed, so the verdict is read, not only the status).
    assert f"PASS: {SAMPLES} samples" in tested.stdout and "100% tests passed" in tested.stdout, tested.stdout
    demo = _qemu(build / "kws_demo") if firmware else subprocess.run([str(build / "kws_demo")], capture_output=True,
                                                                       text=True, timeout=60)
    # The demo's closing line (models/kws_demo.c): the label, read through the module's own interface.
    demo_line = r"kws_demo: class \d+ of output '.*' \(probability \d+ per mille, \d+ operators ran\)"
    assert demo.returncode == 0 and re.search(demo_line, demo.stdout + demo.stderr), demo.stdout + demo.stderr


def test_a_module_calling_helium_kernels_says_which_line_to_add(tmp_path):
    """The Cortex-M55 snippet without its kernels/helium line: the module's CMakeLists.txt stops and names it."""
    cmake = _cmake()
    _tool("arm-none-eabi-gcc", "compiles the parent project")
    snippet = readme_snippets()["cortex-m55-portable-helium"]
    helium = [line for line in snippet.splitlines() if "kernels/helium" in line]
    assert len(helium) == 1
    app = _parent(tmp_path, snippet.replace(helium[0] + "\n", ""), "corstone300", "portable", None)
    proc = subprocess.run([cmake, "-S", str(app), "-B", str(tmp_path / "build"), f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAIN}"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    assert "CMake Error at models/kws/CMakeLists.txt" in proc.stderr, proc.stderr
    message = " ".join(proc.stderr.split("(message):", 1)[1].split("-- Configuring incomplete")[0].split())
    assert message == ("kws_model calls helia-aot's Helium kernels (helia_mve_*), which no target of this project "
                       "provides. Add this line to the parent CMakeLists.txt, after the kernel library (ns-cmsis-nn "
                       "or <helia-aot>/kernels/portable) and before add_subdirectory(<this folder>): "
                       "add_subdirectory(<helia-aot>/kernels/helium) or set KWS_MODEL_HELIUM_KERNELS to the CMake "
                       "target of your own build of them."), proc.stderr
    assert re.search(r"\n +add_subdirectory\(<helia-aot>/kernels/helium\)\n", proc.stderr)  # on a line of its own

# SPDX-License-Identifier: Apache-2.0
"""Session fixtures: the portable kernels and test drivers built once per test session, outside the repo."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernel_build as kb  # noqa: E402


Driver = kb.Driver  # a built kernel driver (in kernel_build so test modules can import it under Bazel too)


@pytest.fixture(scope="session")
def build_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("kernel_builds")


@pytest.fixture(scope="session")
def portable_library(build_root) -> Path:
    return kb.build_portable_library(build_root / "portable")


@pytest.fixture(scope="session")
def portable_driver(build_root, portable_library) -> Driver:
    program = kb.link_program([kb.DRIVER_DIR / "kernel_driver.c"], [portable_library], [kb.PORTABLE_INCLUDE],
                              build_root / "kernel_driver_portable", ["DRIVER_GIVES_SCRATCH=0"])
    return Driver(program)


@pytest.fixture(scope="session")
def fixed_point_program(build_root, portable_library) -> Path:
    return kb.link_program([kb.DRIVER_DIR / "fixed_point_driver.c"], [portable_library],
                           [kb.PORTABLE_INCLUDE, kb.PORTABLE_SRC], build_root / "fixed_point_driver")


@pytest.fixture(scope="session")
def ns_dir() -> Path:
    path = kb.ns_cmsis_nn_dir()
    if path is None:
        pytest.skip(kb.NS_SKIP_REASON)
    return path


@pytest.fixture(scope="session")
def ns_library(build_root, ns_dir) -> Path:
    return kb.build_ns_library(ns_dir, build_root / "ns_cmsis_nn")


@pytest.fixture(scope="session")
def ns_driver(build_root, ns_dir, ns_library) -> Driver:
    program = kb.link_program([kb.DRIVER_DIR / "kernel_driver.c"], [ns_library], [ns_dir / "Include"],
                              build_root / "kernel_driver_ns", ["DRIVER_GIVES_SCRATCH=1"])
    return Driver(program)


# ---- float32 / float16 kernels (float_driver.c) ---------------------------------------------------

class FloatDriver:
    """A built float_driver: feed it records, get one parsed flt_records.Result per record."""

    def __init__(self, program: Path):
        self.program = program

    def run_text(self, records: list[str]) -> str:
        return kb.run_program(self.program, "\n".join(records) + "\n")

    def run(self, records: list[str]):
        import flt_records
        types = [flt_records.dtype_of(r.split(" ", 1)[0]) for r in records]
        return flt_records.parse(self.run_text(records), types)

    def one(self, record: str):
        return self.run([record])[0]


FLOAT_DRIVER_DEFINES = ["ARM_NN_ENABLE_F32=1", "ARM_NN_ENABLE_F16=1"]


@pytest.fixture(scope="session")
def float_driver(build_root, portable_library) -> FloatDriver:
    program = kb.link_program([kb.DRIVER_DIR / "float_driver.c"], [portable_library], [kb.PORTABLE_INCLUDE],
                              build_root / "float_driver_portable", [*FLOAT_DRIVER_DEFINES, "DRIVER_GIVES_SCRATCH=0"])
    return FloatDriver(program)


@pytest.fixture(scope="session")
def ns_float_library(build_root, ns_dir) -> Path:
    return kb.build_ns_float_library(ns_dir, build_root / "ns_cmsis_nn_float")


@pytest.fixture(scope="session")
def ns_float_driver(build_root, ns_dir, ns_float_library) -> FloatDriver:
    # Entries the release lacks (7.29.2: arm_elementwise_sub_f32, arm_strided_slice_f32, arm_reduce_sum_f32/_f16)
    # are compiled out of this build; test_float_parity.py checks they are truly absent.
    program = kb.link_program([kb.DRIVER_DIR / "float_driver.c"], [ns_float_library], [ns_dir / "Include"],
                              build_root / "float_driver_ns",
                              [*FLOAT_DRIVER_DEFINES, "DRIVER_GIVES_SCRATCH=1", *kb.ns_driver_defines(ns_dir)])
    return FloatDriver(program)

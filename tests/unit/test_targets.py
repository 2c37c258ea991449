# SPDX-License-Identifier: Apache-2.0
"""The target registry: the cores the compiler knows and what each can have, the built-in boards'
memory maps, the capability checks a target passes, and the FPU gate that keeps float models off
cores without hardware floating point."""

from __future__ import annotations

import numpy as np
import pytest

import helia_aot
from helia_aot.config.targets import (CPU_CAPABILITIES, HOST_CPU, KNOWN_CAPABILITIES, builtin_targets, get_target,
                                      target_from_dict)
from helia_aot.errors import InvalidConfigError, UnsupportedModelError
from tests.modelgen import ModelBuilder
from tests.modelgen.fp16 import to_float16

from .test_cli import one_error_line, run

# The QEMU machines the board support is written for, by target name, with the core each emulates.
QEMU_BOARDS = {"mps2_an385": "cortex-m3", "mps2_an386": "cortex-m4", "mps2_an500": "cortex-m7",
               "mps2_an505": "cortex-m33", "mps3_an524": "cortex-m33", "microbit": "cortex-m0",
               "corstone300": "cortex-m55"}
FAMILIES = {"apollo3_evb": "cortex-m4", "apollo3p_evb": "cortex-m4", "apollo4l_evb": "cortex-m4",
            "apollo4p_evb": "cortex-m4", "apollo510_evb": "cortex-m55", "apollo510l_evb": "cortex-m55",
            "stm32h743": "cortex-m7", "nrf5340_cpuapp": "cortex-m33", "rp2350": "cortex-m33",
            "imxrt1060_evk": "cortex-m7"}
NO_FPU = ["mps2_an385", "mps3_an524", "microbit"]


def custom(cpu: str, capabilities: list[str], **extra) -> dict:
    return {"name": "mine", "cpu": cpu, "capabilities": capabilities,
            "memories": [{"name": "FLASH", "size": 1 << 20, "writable": False}, {"name": "SRAM", "size": 1 << 18}],
            "scratch_memory": "SRAM", "constant_memory": "FLASH", **extra}


# ---- the cores ---------------------------------------------------------------------------------

def test_the_compiler_knows_every_cortex_m_core_the_issue_names():
    assert set(CPU_CAPABILITIES) == {"cortex-m0", "cortex-m0plus", "cortex-m3", "cortex-m4", "cortex-m7",
                                     "cortex-m33", "cortex-m55", "cortex-m85"}
    for cpu, allowed in CPU_CAPABILITIES.items():
        assert allowed <= set(KNOWN_CAPABILITIES), cpu
    # Armv6-M and Armv7-M baseline cores have neither DSP nor an FPU; only Armv8.1-M has Helium.
    assert not CPU_CAPABILITIES["cortex-m0"] | CPU_CAPABILITIES["cortex-m0plus"] | CPU_CAPABILITIES["cortex-m3"]
    assert {cpu for cpu, allowed in CPU_CAPABILITIES.items() if "mve" in allowed} == {"cortex-m55", "cortex-m85"}
    assert {cpu for cpu, allowed in CPU_CAPABILITIES.items() if "double" in allowed} == {"cortex-m7", "cortex-m55",
                                                                                          "cortex-m85"}


@pytest.mark.parametrize("cpu,capability", [
    ("cortex-m3", "fpu"), ("cortex-m0", "dsp"), ("cortex-m0plus", "fpu"), ("cortex-m4", "mve"),
    ("cortex-m4", "double"), ("cortex-m33", "double"), ("cortex-m7", "mve"),
])
def test_a_capability_the_cpu_cannot_have_is_refused_in_one_line(cpu, capability):
    caps = {"fpu": ["fpu"], "dsp": ["dsp"], "mve": ["dsp", "mve"], "double": ["fpu", "double"]}[capability]
    with pytest.raises(InvalidConfigError) as info:
        target_from_dict(custom(cpu, caps), "t.yaml:targets[0]")
    text = str(info.value)
    assert "\n" not in text
    assert f"target 'mine' declares capability {capability}, which a {cpu} cannot have" in text


@pytest.mark.parametrize("caps,fragment", [
    (["dsp", "mve", "mve_f"], "has mve_f without fpu"),
    (["dsp", "fpu", "mve_f"], "has mve_f without mve"),
    (["double"], "has double without fpu"),
    (["dsp", "fp16"], "has fp16 without mve"),
])
def test_capabilities_that_need_another_are_refused(caps, fragment):
    with pytest.raises(InvalidConfigError, match=fragment):
        target_from_dict(custom("cortex-m55", caps), "t")


def test_fp16_written_before_mve_f_existed_still_means_helium_floating_point():
    """[dsp, mve, fp16] (no mve_f, no fpu) was a valid Cortex-M55 list: it keeps meaning MVE-F with the FPU."""
    target = target_from_dict(custom("cortex-m55", ["dsp", "mve", "fp16"]), "t")
    assert target.capabilities == ("dsp", "mve", "mve_f", "fpu", "fp16")
    assert target.supports_fp16 and target.supports_float


def test_a_core_the_table_does_not_know_is_taken_at_its_word():
    target = target_from_dict(custom("my-dsp-core", ["dsp", "fpu", "double"]), "t")
    assert (target.cpu, target.capabilities, target.kernel_build) == ("my-dsp-core", ("dsp", "fpu", "double"), "dsp")


# ---- the built-in targets ----------------------------------------------------------------------

def test_every_built_in_target_is_one_the_brief_names_on_its_core():
    targets = {t.name: t for t in builtin_targets()}
    assert set(targets) == set(QEMU_BOARDS) | set(FAMILIES) | {"host"}
    for name, cpu in {**QEMU_BOARDS, **FAMILIES}.items():
        assert targets[name].cpu == cpu, name
    assert targets["host"].cpu == HOST_CPU


@pytest.mark.parametrize("target", [t for t in builtin_targets() if t.cpu != HOST_CPU], ids=lambda t: t.name)
def test_built_in_target_is_consistent(target):
    allowed = CPU_CAPABILITIES[target.cpu]
    assert set(target.capabilities) <= allowed
    assert target.citation, "every built-in target says where its facts come from"
    # The kernel build follows the capabilities: Helium on M55/M85, DSP where present, plain C otherwise.
    assert target.kernel_build == ("mve" if "mve" in target.capabilities else
                                   "dsp" if "dsp" in target.capabilities else "plain")
    scratch, const = target.memory(target.scratch_memory), target.memory(target.constant_memory)
    assert scratch.writable and target.memory(target.persistent_memory).writable
    assert const is not None
    # Memories are distinct ranges of a 32-bit address space.
    spans = sorted((m.base, m.base + m.size, m.name) for m in target.memories)
    assert all(m.base is not None for m in target.memories)
    for (_, end, name), (start, _, other) in zip(spans, spans[1:]):
        assert end <= start, f"{name} overlaps {other}"
    assert spans[-1][1] <= 1 << 32
    # Scratch goes to the fastest writable memory: a TCM where the part has one the arena can use.
    tcms = [m.name for m in target.memories if m.writable and m.name in ("DTCM", "TCM")]
    if tcms:
        assert target.scratch_memory in tcms


def test_the_qemu_memory_maps_are_the_machines():
    """The facts QEMU's board models state (hw/arm/mps2.c, mps2-tz.c, armsse.c, nrf51_soc.c)."""
    def layout(name):
        return {m.name: (m.base, m.size, m.writable) for m in get_target(name).memories}
    mib, kib = 1 << 20, 1 << 10
    assert layout("mps2_an385") == layout("mps2_an386") == {
        "SSRAM1": (0, 4 * mib, False), "BRAM": (0x01000000, 16 * kib, True),
        "SSRAM23": (0x20000000, 4 * mib, True), "PSRAM": (0x21000000, 16 * mib, True)}
    assert layout("mps2_an500") == {"SSRAM1": (0, 4 * mib, False), "SSRAM23": (0x20000000, 4 * mib, True),
                                    "PSRAM": (0x60000000, 16 * mib, True)}
    assert layout("mps2_an505")["SSRAM2"] == (0x28000000, 2 * mib, True)
    assert layout("mps2_an505")["PSRAM"] == (0x80000000, 16 * mib, True)
    assert layout("mps3_an524")["SRAM"] == (0x20000000, 128 * kib, True)
    assert layout("microbit") == {"FLASH": (0, 256 * kib, False), "SRAM": (0x20000000, 16 * kib, True)}
    assert get_target("mps2_an385").capabilities == get_target("microbit").capabilities == ()
    assert get_target("mps2_an386").capabilities == ("dsp", "fpu")
    # The boot CPU of each machine as QEMU 11 reports it (MVFR0, ID_ISAR3): the IoTKit's M33 has DSP and
    # FPU, the SSE-200's CPU0 (mps3-an524) neither; QEMU's M7 has the double-precision FPU.
    assert get_target("mps2_an505").capabilities == ("dsp", "fpu")
    assert get_target("mps3_an524").capabilities == ()
    assert get_target("mps2_an500").capabilities == ("dsp", "fpu", "double")


def test_persistent_state_defaults_to_the_scratch_memory_unless_the_target_names_another():
    assert get_target("stm32h743").persistent_memory == "DTCM"
    assert target_from_dict(custom("cortex-m33", ["dsp"]), "t").persistent_memory == "SRAM"
    with pytest.raises(InvalidConfigError, match=r"persistent_memory 'FLASH' is read-only"):
        target_from_dict(custom("cortex-m33", ["dsp"], persistent_memory="FLASH"), "t")
    with pytest.raises(InvalidConfigError, match=r"persistent_memory 'RAM' is not one of the memories"):
        target_from_dict(custom("cortex-m33", ["dsp"], persistent_memory="RAM"), "t")
    with_state = dict(custom("cortex-m33", ["dsp"]))
    with_state["memories"] = [*with_state["memories"], {"name": "RETAINED", "size": 4096}]
    assert target_from_dict(dict(with_state, persistent_memory="RETAINED"), "t").persistent_memory == "RETAINED"


# ---- the FPU gate ------------------------------------------------------------------------------

def float_fc() -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 8), "float32")
    w = b.const("w", np.linspace(-1, 1, 32).reshape(4, 8), "float32")
    y = b.tensor("y", (1, 4), "float32")
    b.op("FULLY_CONNECTED", [x, w, None], [y], {"fused_activation_function": "RELU"})
    b.output(y)
    return b.build()


def hybrid_fc() -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 6), "float32")
    w = b.const("w", np.arange(-9, 9, dtype=np.int8).reshape(3, 6), "int8", scale=0.5, zero_point=0,
                quantized_dimension=0)
    y = b.tensor("y", (1, 3), "float32")
    b.op("FULLY_CONNECTED", [x, w, None], [y], {"fused_activation_function": "NONE"})
    b.output(y)
    return b.build()


def int8_fc() -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 8), "int8", scale=0.5, zero_point=0)
    w = b.const("w", np.arange(-16, 16, dtype=np.int8).reshape(4, 8), "int8", scale=0.25, zero_point=0)
    bias = b.const("b", np.array([1, -2, 3, 0], np.int32), "int32", scale=0.125, zero_point=0)
    y = b.tensor("y", (1, 4), "int8", scale=1.0, zero_point=0)
    b.op("FULLY_CONNECTED", [x, w, bias], [y], {"fused_activation_function": "NONE"})
    b.output(y)
    return b.build()


@pytest.mark.parametrize("target", NO_FPU)
@pytest.mark.parametrize("model,dtypes", [(float_fc, "float32"), (hybrid_fc, "float32"),
                                          (lambda: to_float16(float_fc()), "float16")],
                         ids=["float32", "hybrid", "float16"])
def test_a_float_model_is_refused_on_a_core_without_fpu_in_one_line(tmp_path, target, model, dtypes):
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(model(), tmp_path / "o", target=target)
    text = str(info.value)
    assert "\n" not in text
    assert "(FULLY_CONNECTED, index" in text and f"{dtypes} tensors need a core with a floating-point unit" in text
    assert f"target '{target}' is a {get_target(target).cpu} (capabilities: none)" in text
    assert "does not fall back to software floating point" in text
    assert not (tmp_path / "o").exists()


def test_a_custom_cortex_m4_without_its_fpu_refuses_float_too(tmp_path):
    config = {"target": {"name": "mine", "custom": custom("cortex-m4", ["dsp"])}}
    with pytest.raises(UnsupportedModelError, match=r"target 'mine' is a cortex-m4 \(capabilities: dsp\)"):
        helia_aot.convert(float_fc(), tmp_path / "o", config=config)


@pytest.mark.parametrize("target", ["mps2_an386", "mps2_an500", "mps2_an505", "host"])
def test_the_same_float_model_converts_where_there_is_an_fpu(tmp_path, target):
    result = helia_aot.convert(float_fc(), tmp_path / "o", target=target)
    assert result.plan["platform"]["name"] == target


@pytest.mark.parametrize("target", NO_FPU)
def test_an_integer_model_converts_on_a_core_without_fpu_with_the_plain_c_build(tmp_path, target):
    result = helia_aot.convert(int8_fc(), tmp_path / "o", target=target)
    assert result.plan["platform"]["kernel_build"] == "plain"
    assert result.plan["platform"]["capabilities"] == []


def test_the_cli_prints_the_fpu_gate_as_one_error_line(tmp_path):
    model = tmp_path / "float.tflite"
    model.write_bytes(float_fc())
    line = one_error_line(run("convert", str(model), "-o", str(tmp_path / "o"), "--target", "mps2_an385"),
                          "UnsupportedModelError")
    assert "FULLY_CONNECTED" in line and "mps2_an385" in line and "cortex-m3" in line

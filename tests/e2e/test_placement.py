# SPDX-License-Identifier: Apache-2.0
"""Memory placement end to end (issue 16): the MLPerf Tiny int8 modules converted with constants
staged into a fast memory, streamed through a pool (CPU copies, and the DMA hooks' default), and
activations in a second arena, built under ASan/UBSan on the host with the portable kernels: every
output bit-identical to the unplaced module's. With the Arm toolchain and QEMU, the corstone300
firmware of the staged and streamed modules, linked with corstone300.ld (whose sections put each
array in its ITCM/DTCM/SRAM region), bit-identical to the unplaced firmware on mps3-an547."""

from __future__ import annotations

import pytest

import helia_aot
from tests.e2e import harness
from tests.e2e.conftest import mlperf_model_or_skip

INT8_MODELS = ["kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8"]

# A host target with a second writable memory, so activations can be placed outside the scratch arena
# and every array carries a section (the default section names of a non-host target).
HOST2 = {"name": "host2", "base": "host",
         "memories": [{"name": "RAM", "size": 1 << 30}, {"name": "FAST", "size": 1 << 20},
                      {"name": "ROM", "size": 1 << 30, "writable": False}],
         "scratch_memory": "RAM", "constant_memory": "ROM"}


def _config(kind: str, fast: str, pool_bytes: int = 65536) -> dict:
    if kind == "staged":
        memory = {"tensors": [{"type": "constant", "attributes": {"constant_destination_memory": fast}}]}
    elif kind in ("streamed", "streamed_dma"):
        memory = {"tensors": [{"type": "constant", "attributes": {"residency": "stream"}}],
                  "stream_pool": {"memory": fast, "bytes": pool_bytes,
                                  "engine": "dma" if kind == "streamed_dma" else "cpu"}}
    elif kind == "activations":
        memory = {"tensors": [{"type": "activation", "attributes": {"memory": fast}},
                              {"type": "output", "attributes": {"memory": fast}}]}
    else:
        raise ValueError(kind)
    return {"memory": memory}


def _check_plan(kind: str, plan: dict, report: dict) -> None:
    residencies = {c["residency"] for c in plan["tensors"]}
    if kind == "staged":
        assert residencies == {"pin"}
    elif kind.startswith("streamed"):
        assert "stream" in residencies and plan["schedule"]["units"]
        assert report["stream_pool"]["streamed_bytes"] > 0
    else:
        assert [a["kind"] for a in plan["memory"]["arenas"]] == ["scratch", "activation"]


@pytest.mark.parametrize("kind", ["staged", "streamed", "streamed_dma", "activations"])
@pytest.mark.parametrize("name", INT8_MODELS)
def test_placed_module_matches_unplaced_on_host(e2e, name, kind):
    model = mlperf_model_or_skip(e2e, name)
    library = e2e.portable_host_library()
    want = e2e.host_outputs(model, library)
    out = e2e.root / "placed" / "host" / kind / name
    result = helia_aot.convert(model.model_bytes, out, prefix=harness.PREFIX, target="host2",
                               config={"target": {"custom": HOST2}, **_config(kind, "FAST", 32768)})
    _check_plan(kind, result.plan, result.report)
    assert 'HELIA_SECTION(".helia.const.rom")' in (out / "src" / f"{harness.PREFIX}_constants.c").read_text()
    exe = e2e.root / "bin" / "placed" / kind / name
    exe.parent.mkdir(parents=True, exist_ok=True)
    harness.build_host_executable(out, library, exe)
    got = harness.run_host_executable(exe, model)
    differences = harness.bit_differences(got, want)
    e2e.record("placement, host (portable, ASan/UBSan)", f"{name} {kind}", bit_identical=not differences)
    assert not differences, f"{name} {kind}: placed module differs from the unplaced one: {differences}"


@pytest.mark.parametrize("kind", ["staged", "streamed", "activations"])
@pytest.mark.parametrize("name", INT8_MODELS)
def test_placed_firmware_matches_unplaced_on_qemu(e2e, arm_tools, name, kind):
    cc, ar, qemu = arm_tools
    model = mlperf_model_or_skip(e2e, name)
    library = e2e.portable_arm_library(cc, ar)
    want = e2e.qemu_run(model, library, cc, qemu)
    out = e2e.root / "placed" / "corstone300" / kind / name
    fast = "SRAM" if kind == "activations" else "DTCM"
    result = helia_aot.convert(model.model_bytes, out, prefix=harness.PREFIX, target="corstone300",
                               config=_config(kind, fast))
    _check_plan(kind, result.plan, result.report)
    data = e2e.root / "firmware" / f"{model.name}_test_data.c"
    if not data.exists():
        harness.write_test_data(model, data)
    elf = e2e.root / "firmware" / "placed" / kind / f"{name}.elf"
    elf.parent.mkdir(parents=True, exist_ok=True)
    harness.build_firmware(out, library, data, elf, cc)
    run = harness.run_firmware(elf, model, qemu)
    differences = harness.bit_differences(run.outputs, want.outputs)
    e2e.record("placement, corstone300 QEMU (portable)", f"{name} {kind}", bit_identical=not differences,
               instructions=run.instructions, unplaced_instructions=want.instructions)
    assert not differences, f"{name} {kind}: placed firmware differs from the unplaced one: {differences}"

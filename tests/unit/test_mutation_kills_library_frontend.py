# SPDX-License-Identifier: Apache-2.0
"""Kernel library and front-end cases that mutants showed untested (tests/MUTATION.md, 2026-12-02): the
portable library keeps our Helium kernels on a core with MVE and our DSP kernels on one with the DSP
extension only (off without), ns-cmsis-nn's int16 average
pooling asks for scratch on the DSP build only, and an array option reaches the graph as a list."""

from __future__ import annotations

import pytest

from helia_aot.config.targets import get_target
from helia_aot.frontend import litert
from helia_aot.library import kernel_library, ns_cmsis_nn_scratch
from tests.modelgen import ModelBuilder


@pytest.mark.parametrize("target, helium, dsp", [
    ("corstone300", True, False),  # Cortex-M55: MVE (and the DSP extension): the Helium kernels only
    ("apollo4p_evb", False, True),  # Cortex-M4: the DSP extension
    ("mps2_an505", False, True),  # Cortex-M33 with the DSP extension
    ("mps2_an385", False, False),  # Cortex-M3: neither
    ("host", False, False),
])
def test_each_library_offers_our_kernel_families_exactly_where_the_core_has_their_instructions(target, helium, dsp):
    for name in ("portable", "ns_cmsis_nn"):
        library = kernel_library.resolve(name, get_target(target))
        assert (library.helium_kernels, library.dsp_kernels) == (helium, dsp)


@pytest.mark.parametrize("build, scratch", [("dsp", 3 * 4), ("mve", 0), ("plain", 0)])
def test_int16_average_pooling_scratch_follows_arm_avgpool_s16_get_buffer_size(build, scratch):
    """ns-cmsis-nn: ch_src int32 accumulators on the DSP path (ARM_MATH_DSP without MVE), none otherwise."""
    assert ns_cmsis_nn_scratch.avgpool_s16(build, 7, 3) == scratch


def test_an_array_option_reaches_the_graph_as_a_list():
    b = ModelBuilder()
    x = b.input("x", (1, 1, 4), "int8", 0.5, 0)
    y = b.tensor("y", (1, 4), "int8", 0.5, 0)
    b.op("SQUEEZE", [x], [y], {"squeeze_dims": [1]})
    b.output(y)
    (op,) = litert.load(b.build(), "m", 0).operators
    assert op.options["squeeze_dims"] == [1] and type(op.options["squeeze_dims"]) is list


@pytest.mark.parametrize("build", ["plain", "dsp"])
def test_a_3x3_depthwise_with_one_pixel_of_padding_takes_the_scratch_free_3x3_kernel(build):
    """arm_depthwise_conv_wrapper_s8 calls arm_depthwise_conv_3x3_s8 (no buffer) off MVE for a 3x3 filter
    with padding up to 1 on each axis: the wrapper's size is the DSP helper's, 0."""
    g = ns_cmsis_nn_scratch.ConvGeometry(1, 1, 1, 1)
    dims = (1, 8, 8, 4), (1, 3, 3, 4), (1, 8, 8, 4)
    assert ns_cmsis_nn_scratch.depthwise_wrapper_s8(build, g, *dims) == 0
    assert ns_cmsis_nn_scratch.depthwise_wrapper_s8_dsp_variant(g, *dims) == 0
    # Two pixels of padding leave the 3x3 kernel: the optimised kernel's buffer.
    wide = ns_cmsis_nn_scratch.ConvGeometry(1, 1, 2, 2)
    assert ns_cmsis_nn_scratch.depthwise_wrapper_s8("dsp", wide, (1, 8, 8, 4), (1, 3, 3, 4), (1, 10, 10, 4)) > 0

# SPDX-License-Identifier: Apache-2.0
"""The staged pipeline's contracts: variant selection, the kernel-library model, resolved options,
and kernel symbols taken from the emitted calls."""

from __future__ import annotations

import re

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.config import options
from helia_aot.errors import InvalidConfigError
from tests.modelgen import ModelBuilder

from .helpers import mlperf_model
from .test_cli import run


def conv_model(dtype_in="int8") -> bytes:
    b = ModelBuilder()
    x = b.input("x", (1, 9, 9, 8), dtype=dtype_in, scale=0.05, zero_point=0 if dtype_in == "int16" else -3)
    w = b.const("w", np.arange(16 * 3 * 3 * 8).reshape(16, 3, 3, 8) % 7 - 3, dtype="int8", scale=0.02, zero_point=0)
    y = b.tensor("y", (1, 9, 9, 16), dtype=dtype_in, scale=0.1, zero_point=0 if dtype_in == "int16" else 2)
    b.op("CONV_2D", [x, w, None], [y], {"padding": "SAME", "stride_h": 1, "stride_w": 1})
    b.output(y)
    return b.build()


def test_every_operator_declares_distinct_variants():
    catalog = ops.catalog()
    assert {op for op, _ in catalog} == set(ops.supported_operators())
    for op_type, module in ops.load_all().items():
        names = [v.name for v in module.variants]
        assert len(names) == len(set(names)), op_type
        for v in module.variants:
            assert v.template is not None or not v.entries, f"{op_type}/{v.name} names entries but no template"


def test_operators_command_prints_the_catalog():
    proc = run("operators")
    assert proc.returncode == 0, proc.stderr
    headers = re.findall(r"^(\S+) \[(\S+)\]$", proc.stdout, flags=re.M)
    assert headers == [(op, v.name) for op, v in ops.catalog()]
    conv = proc.stdout.split("CONV_2D [int8]", 1)[1].split("\n\n", 1)[0]
    assert "filter" in conv and "constant" in conv and "zero point 0" in conv and "arm_convolve_s8" in conv


@pytest.mark.parametrize("target,library,scratch", [("corstone300", "ns_cmsis_nn", True),
                                                     ("corstone300", "portable", False),
                                                     ("apollo4p_evb", "ns_cmsis_nn", True),
                                                     ("apollo4p_evb", "portable", False)])
def test_scratch_is_sized_for_the_linked_library(tmp_path, target, library, scratch):
    result = helia_aot.convert(mlperf_model("kws_ref_model"), tmp_path / "o", target=target, kernel_library=library)
    lib = result.plan["kernel_library"]
    assert lib["name"] == library and lib["scratch"] is scratch
    scratches = [op["kernel"]["local_scratch_bytes"] or 0 for op in result.plan["operators"]]
    if scratch:
        assert any(scratches), "ns-cmsis-nn's builds need scratch for the KWS convolutions"
    else:
        assert not any(scratches)
    # Weight sums only where the entry called reads them: every entry on the MVE build, our DSP kernels on
    # a core with the DSP extension.
    for op in result.plan["operators"]:
        if op["kernel"]["weight_sums"] and not (library == "ns_cmsis_nn" and target == "corstone300"):
            assert op["kernel"]["entry"].startswith("helia_dsp_"), op["kernel"]
    if target != "apollo4p_evb" and not scratch:
        assert not any(c["symbol"].endswith("weight_sum") for c in result.plan["tensors"])
    assert (lib["weight_sums"] == "precomputed") == (library == "ns_cmsis_nn" and target == "corstone300")


def test_kernel_library_from_config_and_flag(tmp_path):
    cfg = {"module": {"kernel_library": "portable"}}
    assert helia_aot.convert(conv_model(), tmp_path / "a", config=cfg).plan["kernel_library"]["name"] == "portable"
    explicit = helia_aot.convert(conv_model(), tmp_path / "b", config=cfg, kernel_library="ns_cmsis_nn")
    assert explicit.plan["kernel_library"]["name"] == "ns_cmsis_nn"
    with pytest.raises(InvalidConfigError, match=r"module.kernel_library is 'cmsis', allowed values are"):
        helia_aot.convert(conv_model(), tmp_path / "c", config={"module": {"kernel_library": "cmsis"}})
    with pytest.raises(InvalidConfigError, match=r"kernel library 'cmsis' is unknown"):
        helia_aot.convert(conv_model(), tmp_path / "c", kernel_library="cmsis")


def test_options_precedence_explicit_over_config_over_default():
    cfg = {"module": {"prefix": "from_file"}, "target": {"name": "corstone300"}, "test": {"seed": 5}}
    resolved = options.resolve(cfg)
    assert (resolved.prefix, resolved.target.name, resolved.test.seed) == ("from_file", "corstone300", 5)
    resolved = options.resolve(cfg, prefix="model", target="host", seed=0)
    assert (resolved.prefix, resolved.target.name, resolved.test.seed) == ("model", "host", 0)
    resolved = options.resolve(None)
    assert (resolved.prefix, resolved.target.name, resolved.kernels.name) == ("model", "host", "ns_cmsis_nn")
    with pytest.raises(AttributeError):
        resolved.prefix = "x"  # frozen


def test_report_symbols_are_the_calls_in_the_generated_c(tmp_path):
    result = helia_aot.convert(mlperf_model("kws_ref_model"), tmp_path / "o", target="corstone300")
    text = (tmp_path / "o" / "src" / "model_model.c").read_text()
    called = set(re.findall(r"\b((?:arm|helia_mve)_\w+)\s*\(", text))
    assert set(result.kernel_symbols) == called
    for op in result.plan["operators"]:
        if op["kernel"]["entry"]:
            assert op["kernel"]["entry"] in called


def test_plan_names_each_operators_variant(tmp_path):
    result = helia_aot.convert(mlperf_model("ad01_int8"), tmp_path / "o")
    variants = {(op["op_type"], op["variant"]) for op in result.plan["operators"]}
    assert ("FULLY_CONNECTED", "int8") in variants
    for op in result.plan["operators"]:
        declared = [v.name for v in ops.get(op["op_type"]).variants]
        assert op["variant"] in declared


def _case_models():
    from tests.modelgen.cases import all_case_paths, build_case_model, load_case
    return [(p.stem, build_case_model(load_case(p))) for p in all_case_paths()]


@pytest.mark.parametrize("target", ["host", "corstone300"])
def test_emitted_calls_are_declared_by_the_selected_variant(tmp_path, target):
    # The catalog (and the export check against the portable library) is only as true as this.
    models = _case_models() + [(name, mlperf_model(name).read_bytes()) for name in
                               ("kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8")]
    for name, data in models:
        result = helia_aot.convert(data, tmp_path / name, target=target)
        operators = {op["id"]: op for op in result.plan["operators"]}
        for call in result.report["kernel_calls"]:
            for op_id in call["operator_ids"]:
                op = operators[op_id]
                variant = next(v for v in ops.get(op["op_type"]).variants if v.name == op["variant"])
                # An entry the library lacks is replaced by its declared fallback (Variant.fallbacks).
                fallbacks = tuple(entry for _, entry in variant.fallbacks if entry is not None)
                declared = variant.entries + fallbacks + variant.own_entries
                assert call["symbol"] in declared, (f"{name}: {op_id} ({op['op_type']}/{variant.name}) calls "
                                                    f"{call['symbol']}, not among {declared}")

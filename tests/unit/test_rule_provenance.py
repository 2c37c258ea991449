# SPDX-License-Identifier: Apache-2.0
"""Every rule an operator enforces says where it comes from (issue #30): the registry is walked and each
declared rule (Variant.rules) and operand rule (Operand.rule_sources) must carry a Source naming the
reference check it mirrors (LiteRT's or TFLM's kernel Prepare) or the limit it is (a kernel we call, with
the variant that would lift it, or helia-aot itself). Operators whose rules are not traced yet are listed
by name, so the list can only shrink: tracing one fails this test until it leaves the list."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import helia_aot
from helia_aot import ops
from helia_aot.errors import UnsupportedModelError
from helia_aot.ops.base import SOURCE_KINDS, Rule, Source, litert
from tests.modelgen import ModelBuilder

# Operator types with a variant that declares no traced rule. Every operator is traced now, so a new
# operator (or variant) without declared rules fails the exactness test below until it declares them.
UNTRACED_OPERATORS: set[str] = set()


def _variant_rules():
    for op_type, variant in ops.catalog():
        for rule in variant.rules:
            yield op_type, variant, rule


def test_every_declared_rule_has_a_well_formed_source():
    walked = 0
    for op_type, variant, rule in _variant_rules():
        walked += 1
        where = f"{op_type} [{variant.name}] rule {rule.text!r}"
        assert isinstance(rule, Rule) and isinstance(rule.source, Source), where
        assert rule.source.kind in SOURCE_KINDS, where
        if rule.source.is_reference:
            # A reference check names the kernel file it is in (tensorflow/lite/kernels or micro/kernels).
            assert ".cc" in rule.source.where or ".h" in rule.source.where, where
    assert walked >= 60, f"only {walked} declared rules walked"


def test_every_operand_rule_has_a_source():
    missing = [f"{op_type} [{variant.name}] {operand.role}: {word}"
               for op_type, variant in ops.catalog() for operand in (*variant.inputs, *variant.outputs)
               for word, source in operand.rule_sources() if source is None]
    assert not missing, "operand rules without a source: " + "; ".join(missing)


def test_untraced_operators_are_exactly_the_listed_ones():
    untraced = {op_type for op_type, variant in ops.catalog() if not variant.rules}
    traced_now = UNTRACED_OPERATORS - untraced
    assert not traced_now, f"traced now, remove from UNTRACED_OPERATORS: {sorted(traced_now)}"
    new = untraced - UNTRACED_OPERATORS
    assert not new, f"variants with no traced rules (declare Variant.rules with a Source): {sorted(new)}"


@pytest.mark.parametrize("op_type", ["CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "SOFTMAX", "ADD", "SUB",
                                     "MUL", "AVERAGE_POOL_2D", "MAX_POOL_2D", "QUANTIZE", "DEQUANTIZE",
                                     "CONCATENATION", "SVDF", "TRANSPOSE_CONV", "MEAN", "EQUAL",
                                     "NOT_EQUAL", "GREATER", "GREATER_EQUAL", "LESS", "LESS_EQUAL",
                                     "LOGISTIC", "TANH"])
def test_traced_operators_are_not_in_the_untraced_list(op_type):
    assert op_type not in UNTRACED_OPERATORS
    assert all(variant.rules for name, variant in ops.catalog() if name == op_type)


def test_a_source_kind_outside_the_known_ones_is_refused():
    with pytest.raises(ValueError, match="is not one of"):
        Source("folklore", "somewhere.cc", "a check")
    with pytest.raises(ValueError, match="names where"):
        Source("LiteRT", " ", "a check")
    with pytest.raises(TypeError, match="needs a Source"):
        Rule("a rule", "LiteRT conv.cc")


def test_a_refusal_names_the_reference_check_it_mirrors(tmp_path):
    # 6 input channels over 4-channel filters: not a whole number of groups (LiteRT's conv.cc refuses it too)
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 6), dtype="float32")
    w = b.const("w", np.ones((2, 1, 1, 4), np.float32))
    bias = b.const("bias", np.zeros(2, np.float32))
    y = b.tensor("y", (1, 4, 4, 2), dtype="float32")
    b.op("CONV_2D", [x, w, bias], [y], {"padding": "VALID", "stride_h": 1, "stride_w": 1})
    b.output(y)
    with pytest.raises(UnsupportedModelError) as info:
        helia_aot.convert(b.build(), tmp_path / "out", target="host")
    message = str(info.value.args[0])
    assert "\n" not in message
    assert "input channels 6 are not a multiple of filter channels 4" in message
    # TFLM has no such check: the rule says so, and the catalog what TFLM does instead.
    assert message.endswith("(LiteRT: conv.cc Prepare; TFLM unchecked)")


def test_a_litert_check_tflm_lacks_says_what_tflm_does_instead():
    source = litert("split.cc ResizeOutputTensors", "an even split", "copies past the input")
    assert source.tag == "LiteRT: split.cc ResizeOutputTensors; TFLM unchecked"
    assert str(source) == ("LiteRT split.cc ResizeOutputTensors: an even split; TFLM lacks the check and copies past "
                           "the input")
    assert litert("split.cc", "an even split").tag == "LiteRT: split.cc"
    with pytest.raises(ValueError, match="only a LiteRT check"):
        Source("TFLM", "split.cc", "an even split", tflm_unchecked="copies past the input")


def test_operators_command_prints_each_rule_with_its_source():
    proc = subprocess.run([sys.executable, "-m", "helia_aot.cli", "operators", "SOFTMAX"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    rule = lines.index("    rule  int8 output zero point -128")
    assert lines[rule + 1].startswith("          from LiteRT and TFLM activations.cc SoftmaxPrepare / micro "
                                      "softmax_common.cc CalculateSoftmaxParams: ")
    int8_scale = lines.index("    rule  int8 output scale 1/256 (within 0.1%)")
    assert lines[int8_scale + 1].startswith("          from LiteRT activations.cc SoftmaxPrepare: ")
    assert "        zero point 0: from LiteRT each int16 kernel's Prepare" in proc.stdout
    assert "from kernel limit arm_softmax_f16: takes no beta" in proc.stdout
    assert "lifted by inline C" in proc.stdout
    conv = subprocess.run([sys.executable, "-m", "helia_aot.cli", "operators", "CONV_2D"], capture_output=True,
                          text=True, timeout=120)
    assert conv.returncode == 0, conv.stderr
    assert ("from LiteRT conv.cc Prepare: TF_LITE_ENSURE_EQ(input_channel % filter_input_channel, 0); TFLM lacks "
            "the check and takes the groups as the integer quotient") in conv.stdout

# SPDX-License-Identifier: Apache-2.0
"""Operator-type hints (helia_aot/errors.py): cases mutation sampling showed untested (tests/MUTATION.md):
a hyphen separates words as an underscore does, and a name past 200 characters gets no hint."""

from __future__ import annotations

from helia_aot import ops
from helia_aot.errors import close_operator_types


def test_hyphenated_words_find_the_type_that_holds_them():
    # Too far for a spelling match; the words SEQUENCE and LSTM both belong to the one type.
    assert close_operator_types("sequence-lstm", ops.supported_operators()) == ["UNIDIRECTIONAL_SEQUENCE_LSTM"]


def test_a_name_past_200_characters_gets_no_hint():
    supported = ops.supported_operators()
    name = "CONV_2D_" * 25  # 200 characters: still judged by its words
    assert close_operator_types(name, supported) == ["CONV_2D", "DEPTHWISE_CONV_2D"]
    assert close_operator_types(name + "_", supported) == []  # the same words, one character more

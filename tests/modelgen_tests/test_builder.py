# SPDX-License-Identifier: Apache-2.0
"""ModelBuilder unit tests: what goes in comes back out of the flatbuffer, the
models run in LiteRT's reference kernels, and mistakes are typed errors."""

import math

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema

from tests.modelgen import BuilderError, ModelBuilder, quant
from tests.modelgen.builder import options_table
from tests.modelgen.litert import make_interpreter, run_reference


def _unpack(data: bytes) -> schema.ModelT:
    assert schema.Model.ModelBufferHasIdentifier(data, 0)
    return schema.ModelT.InitFromPackedBuf(data, 0)


def _fc_model(bias=True) -> bytes:
    """y = W x with unit scales and zero zero points: hand-checkable int8 math."""
    b = ModelBuilder()
    x = b.input("x", (1, 2), "int8", scale=1.0, zero_point=0)
    w = b.const("w", np.array([[1, 2], [3, 4]], dtype=np.int8), scale=1.0, zero_point=0)
    inputs = [x, w, None]
    if bias:
        inputs[2] = b.const("b", np.array([10, -20], dtype=np.int32), scale=1.0, zero_point=0)
    y = b.tensor("y", (1, 2), "int8", scale=1.0, zero_point=0)
    b.op("FULLY_CONNECTED", inputs, [y], {"fused_activation_function": "NONE"})
    b.output(y)
    return b.build()


def test_fully_connected_computes_hand_checked_values():
    x = np.array([[1, 2]], dtype=np.int8)
    assert run_reference(_fc_model(bias=False), [x])[0].tolist() == [[5, 11]]
    assert run_reference(_fc_model(bias=True), [x])[0].tolist() == [[15, -9]]


def test_omitted_optional_input_is_index_minus_one():
    op = _unpack(_fc_model(bias=False)).subgraphs[0].operators[0]
    assert op.inputs.tolist()[2] == -1


def test_model_header_buffers_and_opcodes():
    model = _unpack(_fc_model())
    assert model.version == 3
    assert model.buffers[0].data is None  # the empty sentinel buffer
    graph = model.subgraphs[0]
    assert [graph.tensors[i].name for i in graph.inputs] == [b"x"]
    assert [graph.tensors[i].name for i in graph.outputs] == [b"y"]
    activation_buffers = {graph.tensors[i].buffer for i in (0, 3)}
    assert activation_buffers == {0}
    (code,) = model.operatorCodes
    assert (code.builtinCode, code.deprecatedBuiltinCode, code.version) == \
        (schema.BuiltinOperator.FULLY_CONNECTED, schema.BuiltinOperator.FULLY_CONNECTED, 4)


def test_const_data_round_trips_little_endian():
    b = ModelBuilder()
    x = b.input("x", (1, 3), "int8", 0.5, 0)
    bias = b.const("bias", np.array([1, -2, 70000], dtype=np.int32), scale=[0.1, 0.2, 0.3],
                   zero_point=0)
    y = b.tensor("y", (1, 3), "int8", 0.5, 0)
    b.op("RELU", [x], [y])
    b.output(y)
    model = _unpack(b.build())
    stored = model.buffers[model.subgraphs[0].tensors[bias.index].buffer].data
    assert np.frombuffer(bytes(stored), "<i4").tolist() == [1, -2, 70000]


def test_quantization_fields_round_trip():
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 3), "int8", scale=0.05, zero_point=-7)
    w = b.const("w", np.zeros((1, 3, 3, 3), np.int8), "int8", scale=[0.01, 0.02, 0.03],
                zero_point=0, quantized_dimension=3)
    bias = b.const("b", np.zeros(3, np.int32), "int32", scale=[5e-4, 1e-3, 1.5e-3])
    y = b.tensor("y", (1, 4, 4, 3), "int8", scale=0.1, zero_point=3)
    b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y],
         {"padding": "SAME", "stride_w": 1, "stride_h": 1, "depth_multiplier": 1})
    b.output(y)
    tensors = _unpack(b.build()).subgraphs[0].tensors
    q = tensors[w.index].quantization
    assert q.scale.tolist() == pytest.approx([0.01, 0.02, 0.03], rel=1e-7)
    assert q.zeroPoint.tolist() == [0, 0, 0] and q.quantizedDimension == 3
    qx = tensors[x.index].quantization
    assert (qx.scale.tolist(), qx.zeroPoint.tolist()) == ([pytest.approx(0.05)], [-7])
    assert tensors[bias.index].quantization.zeroPoint.tolist() == [0, 0, 0]
    assert tensors[y.index].type == schema.TensorType.INT8
    assert tensors[bias.index].type == schema.TensorType.INT32
    # The ref reports what the flatbuffer stores (float32-rounded).
    assert w.scale == [float(np.float32(s)) for s in (0.01, 0.02, 0.03)]
    assert (x.scale, x.zero_point) == (float(np.float32(0.05)), -7)


def test_option_values_land_in_the_options_table():
    b = ModelBuilder()
    x = b.input("x", (1, 5, 5, 2), "int8", 0.1, 0)
    w = b.const("w", np.ones((4, 3, 3, 2), np.int8), scale=0.1)
    bias = b.const("b", np.zeros(4, np.int32), scale=0.01)
    y = b.tensor("y", (1, 3, 3, 4), "int8", 0.2, -128)
    b.op("CONV_2D", [x, w, bias], [y],
         {"padding": "SAME", "stride_w": 2, "stride_h": 2, "fused_activation_function": "RELU6",
          "dilation_w_factor": 1, "dilation_h_factor": 1})
    s = b.tensor("s", (1, 9, 4), "int8", 0.2, -128)
    b.op("RESHAPE", [y], [s], {"new_shape": [1, 9, 4]})
    b.output(s)
    data = b.build()
    ops = _unpack(data).subgraphs[0].operators
    conv = ops[0]
    assert conv.builtinOptionsType == schema.BuiltinOptions.Conv2DOptions
    opts = conv.builtinOptions
    assert (opts.padding, opts.strideW, opts.strideH, opts.fusedActivationFunction) == \
        (schema.Padding.SAME, 2, 2, schema.ActivationFunctionType.RELU6)
    assert ops[1].builtinOptions.newShape.tolist() == [1, 9, 4]
    assert make_interpreter(data).get_output_details()[0]["shape"].tolist() == [1, 9, 4]


def test_codes_above_127_use_the_placeholder_deprecated_code():
    b = ModelBuilder()
    x = b.input("x", (1, 4), "float32")
    y = b.tensor("y", (1, 4), "float32")
    b.op("GELU", [x], [y], {"approximate": False})
    b.output(y)
    data = b.build()
    (code,) = _unpack(data).operatorCodes
    assert (code.builtinCode, code.deprecatedBuiltinCode) == (150, 127)
    xs = np.array([[-2.0, -0.5, 0.5, 3.0]], np.float32)
    expected = [0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in xs[0]]
    np.testing.assert_allclose(run_reference(data, [xs])[0][0], expected, atol=1e-5)


def test_operator_codes_are_shared_between_operators():
    b = ModelBuilder()
    x = b.input("x", (1, 4), "int8", 0.1, 0)
    h = b.tensor("h", (1, 4), "int8", 0.1, 0)
    y = b.tensor("y", (1, 4), "int8", 0.1, 0)
    b.op("RELU", [x], [h])
    b.op("RELU", [h], [y])
    b.output(y)
    model = _unpack(b.build())
    assert len(model.operatorCodes) == 1
    assert [op.opcodeIndex for op in model.subgraphs[0].operators] == [0, 0]


def test_same_calls_give_the_same_bytes():
    assert _fc_model() == _fc_model()


@pytest.mark.parametrize("call, message", [
    (lambda b: b.input("x", (1, 2), "int4"), "tensor 'x': unknown dtype 'int4'"),
    (lambda b: b.const("w", np.array([200]), "int8"), "constant 'w': values span"),
    (lambda b: b.const("w", np.array([0.5]), "int8"), "constant 'w': float values"),
    (lambda b: b.tensor("t", (1, 4), "int8", scale=[0.1, 0.2], zero_point=0),
     "tensor 't': 2 per-channel scales do not match dimension 0"),
    (lambda b: b.tensor("t", (1, 4), "int8", scale=0.0, zero_point=0),
     "tensor 't': scales must be positive"),
    (lambda b: b.tensor("t", (1, 4), "int8", zero_point=3), "zero_point given without scale"),
    (lambda b: b.op("CONV2D", [], []), "'CONV2D' is not a LiteRT BuiltinOperator"),
    (lambda b: b.op("SOFTMAX", [], [], {"betta": 1.0}),
     "SOFTMAX: unknown option 'betta' for SoftmaxOptions; allowed: \\['beta'\\]"),
    (lambda b: b.op("CONV_2D", [], [], {"padding": "FULL"}),
     "CONV_2D: option 'padding' = 'FULL' is not one of"),
    (lambda b: b.op("RELU", [], [], {"alpha": 1}), "RELU takes no options"),
    (lambda b: b.op("SQRT", [], [], {"alpha": 1}), "SQRT takes no options"),
    (lambda b: b.build(), "no inputs or no outputs"),
])
def test_mistakes_are_builder_errors_naming_the_thing(call, message):
    with pytest.raises(BuilderError, match=message):
        call(ModelBuilder())


@pytest.mark.parametrize("op_name, table", [
    ("GATHER_ND", "GatherNdOptions"), ("BATCH_TO_SPACE_ND", "BatchToSpaceNDOptions"),
    ("BATCH_MATMUL", "BatchMatMulOptions"), ("UNIDIRECTIONAL_SEQUENCE_LSTM", "UnidirectionalSequenceLSTMOptions"),
    ("SVDF", "SVDFOptions"), ("SUM", "ReducerOptions"), ("REDUCE_MAX", "ReducerOptions"),
    ("SPLIT_V", "SplitVOptions"), ("ABS", "AbsOptions"), ("LOG", None), ("RELU_N1_TO_1", None), ("DEQUANTIZE", None)])
def test_options_table_follows_the_schema_names(op_name, table):
    assert options_table(op_name) == table


def test_range_to_scale_zp_matches_hand_computation():
    scale, zp = quant.range_to_scale_zp(0.0, 6.0)
    assert (scale, zp) == (pytest.approx(6.0 / 255), -128)
    scale, zp = quant.range_to_scale_zp(-1.0, 3.0)  # zp = -128 + 1 / (4/255) = -64.25
    assert (scale, zp) == (pytest.approx(4.0 / 255), -64)
    assert quant.range_to_scale_zp(0.5, 2.0)[1] == -128  # widened to include 0
    assert quant.quantize(np.array([0.5, -0.5, 1.5]), 1.0, 0).tolist() == [1, -1, 2]


def test_per_channel_weights_use_the_full_int8_range_per_channel():
    w = np.array([[0.5, -0.25], [-2.0, 1.0]])
    q, scales = quant.quantize_per_channel(w, axis=0)
    assert q.tolist() == [[127, -64], [-127, 64]]
    assert scales == pytest.approx([0.5 / 127, 2.0 / 127])
    bias, bias_scales = quant.quantize_bias(np.array([1.0, 1.0]), 0.1, scales)
    assert bias_scales == pytest.approx([0.1 * 0.5 / 127, 0.1 * 2.0 / 127], rel=1e-6)
    assert bias.tolist() == [2540, 635]


def test_int16_and_int32_ranges_are_symmetric():
    scale, zp = quant.range_to_scale_zp(-1.0, 3.0, "int16")
    assert (scale, zp) == (pytest.approx(3.0 / 32767), 0)
    assert quant.range_to_scale_zp(0.0, 6.0, "int16") == (pytest.approx(6.0 / 32767), 0)
    assert quant.range_to_scale_zp(-2.0, 1.0, "int32") == (pytest.approx(2.0 / (2**31 - 1)), 0)
    assert quant.quantize(np.array([3.0, -3.0, 4.0]), scale, 0, "int16").tolist() == \
        [32767, -32767, 32767]


def test_bias_can_be_int64_for_int16_activations():
    q, scales = quant.quantize_bias(np.array([1.0, -2.0]), 1e-4, [0.01, 0.02], "int64")
    assert q.dtype == np.int64 and q.tolist() == [1000000, -1000000]
    assert scales == pytest.approx([1e-6, 2e-6])
    with pytest.raises(BuilderError, match="bias dtype 'int16'"):
        quant.quantize_bias(np.array([1.0]), 1.0, [1.0], "int16")


def _int16_op_version(op_name, options=None, bias=True, act_dtype="int16"):
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), act_dtype, 0.001, 0)
    w = b.const("w", np.ones((2, 1, 1, 2), np.int8), "int8", [0.01, 0.02], 0, 0)
    bias_ref = b.const("b", np.zeros(2, np.int64), "int64", [1e-5, 2e-5]) if bias else None
    y = b.tensor("y", (1, 4, 4, 2), act_dtype, 0.001, 0)
    if op_name == "TRANSPOSE_CONV":
        shape = b.const("s", np.array([1, 4, 4, 2], np.int32))
        b.op(op_name, [shape, w, x, bias_ref], [y], options)
    else:
        b.op(op_name, [x, w, bias_ref], [y], options)
    b.output(y)
    data = b.build()
    return _unpack(data).operatorCodes[0].version


@pytest.mark.parametrize("op_name, options, bias, version", [
    ("CONV_2D", {"padding": "SAME"}, True, 1),
    ("CONV_2D", {"padding": "SAME", "quantized_bias_type": "INT64"}, True, 8),
    ("TRANSPOSE_CONV", {"padding": "SAME"}, False, 2),
    ("TRANSPOSE_CONV", {"padding": "SAME"}, True, 3),
    ("TRANSPOSE_CONV", {"padding": "SAME", "fused_activation_function": "RELU"}, True, 4),
    ("TRANSPOSE_CONV", {"padding": "SAME", "quantized_bias_type": "INT64"}, True, 5),
])
def test_int16_operator_versions_follow_the_converter(op_name, options, bias, version):
    assert _int16_op_version(op_name, options, bias) == version


def test_quantized_bias_type_must_match_the_bias():
    with pytest.raises(BuilderError, match="quantized_bias_type does not match the int64 bias"):
        _int16_op_version("CONV_2D", {"quantized_bias_type": "INT32"})


def test_int16_depthwise_bias_must_be_int64():
    b = ModelBuilder()
    x = b.input("x", (1, 4, 4, 2), "int16", 0.001, 0)
    w = b.const("w", np.ones((1, 3, 3, 2), np.int8), "int8", [0.01, 0.02], 0, 3)
    bias = b.const("b", np.zeros(2, np.int32), "int32", [1e-5, 2e-5])
    y = b.tensor("y", (1, 4, 4, 2), "int16", 0.001, 0)
    with pytest.raises(BuilderError, match="int64 bias only, 'b' is int32"):
        b.op("DEPTHWISE_CONV_2D", [x, w, bias], [y], {"padding": "SAME", "depth_multiplier": 1})


def test_variable_tensor_is_marked_and_starts_at_zero():
    b = ModelBuilder()
    x = b.input("x", (1, 4), "float32")
    state = b.tensor("state", (1, 4), "float32", variable=True)
    y = b.tensor("y", (1, 4), "float32")
    b.op("ADD", [x, state], [y], {"fused_activation_function": "NONE"})
    b.output(y)
    data = b.build()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))
    assert [bool(t.isVariable) for t in model.subgraphs[0].tensors] == [False, True, False]
    value = np.arange(4, dtype=np.float32).reshape(1, 4)
    np.testing.assert_array_equal(run_reference(data, [value])[0], value)


def test_subgraphs_share_buffers_and_operator_codes():
    from tests.modelgen import stateful
    data = stateful.accumulator("float32", initial=0.5)
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(data, 0))
    assert [sg.name for sg in model.subgraphs] == [b"main", b"init"]
    init = model.subgraphs[1]
    assert len(init.inputs) == 0 and len(init.outputs) == 0
    assert init.tensors[0].type == schema.TensorType.RESOURCE and len(init.tensors[0].shape) == 0
    # the initial value's buffer is the model's (index into the one buffer table)
    initial = np.frombuffer(bytes(model.buffers[init.tensors[1].buffer].data), dtype="<f4")
    np.testing.assert_array_equal(initial, np.full(6, 0.5, np.float32))
    codes = [model.operatorCodes[op.opcodeIndex].builtinCode for sg in model.subgraphs for op in sg.operators]
    assert len(model.operatorCodes) == len(set(codes))


def test_accumulator_runs_in_litert_and_keeps_its_state():
    from tests.modelgen import stateful
    interp = make_interpreter(stateful.accumulator("float32", initial=0.5))
    x = interp.get_input_details()[0]["index"]
    y = interp.get_output_details()[0]["index"]
    got = []
    for k in range(3):
        interp.set_tensor(x, np.full((1, 6), 0.25 * (k + 1), np.float32))
        interp.invoke()
        got.append(float(interp.get_tensor(y)[0, 0]))
    assert got == [0.75, 1.25, 2.0]


def test_subgraph_builder_mistakes():
    b = ModelBuilder()
    child = b.subgraph("init")
    with pytest.raises(BuilderError, match="added to the main subgraph"):
        child.subgraph("nested")
    with pytest.raises(BuilderError, match="build the model from the main"):
        child.build()
    with pytest.raises(BuilderError, match="takes a number"):
        b.op("ADD", [b.input("x", (1,), "float32"), b.input("z", (1,), "float32")],
             [b.tensor("y", (1,), "float32")], {"fused_activation_function": "NONE", "pot_scale_int16": "x"})

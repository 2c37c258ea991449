# SPDX-License-Identifier: Apache-2.0
"""UNIDIRECTIONAL_SEQUENCE_LSTM, with its output state and cell state kept across runs (variable
tensors in the persistent arena, as LiteRT keeps them between invocations).

int8 (int8 input, weights and output state, int16 cell state, LiteRT's integer "8x8_16" LSTM):
arm_lstm_unidirectional_s8, given the output state as its hidden_state and the cell state, so every
run continues from the last. The requantizations are LiteRT's (PopulateQuantizedLstmParams8x8_16):
each gate's input and recurrent products go to the gate's Q3.12 with multipliers of the float32
products weight scale x input (or output state) scale / 2^-12; f * c by 2^-15 and i * g by
2^(-30 - cell scale power) into the cell state, whose scale must be a power of two; h = o * tanh(c)
by 2^-15 / hidden scale x 2^-15 (float32) onto the hidden intermediate's scale and zero point
(intermediate 4, which the converter gives the output state's); the cell clip quantized by
truncation. The zero points are folded into the biases at conversion, as LiteRT's Prepare does
(bias + input offset x weight row sums; output state offset x recurrent row sums). Where the two
differ: LiteRT computes the gates' sigmoid / tanh with gemmlowp's int16 fixed-point logistic / tanh
(Q3.12 in) and tanh(c) with gemmlowp's tanh of a FixedPoint<int16, 15 + cell scale power>, where
ns-cmsis-nn interpolates TFLite's int16 sigmoid table (a few int16 codes apart); and LiteRT shifts
f * c and i * g once where ns-cmsis-nn requantizes twice (no effect measured). A Python model of
LiteRT's arithmetic with gemmlowp's functions reproduces LiteRT bit for bit on micro_speech_lstm;
with the table it reproduces the module bit for bit. A hidden state can differ by a code, and the
recurrence carries it: on micro_speech_lstm (49 steps, 20 runs) the LSTM's own output differs by up
to 8 codes at about 4% of its values, its classifier's outputs by 1.
ns-cmsis-nn has no CIFG, peephole, projection or layer normalisation: those int8 LSTMs are refused.

float32: inline C, LiteRT's float LSTM step (lstm_eval's LstmStepFloat) with every option: CIFG,
peephole, layer normalisation, projection with bias and clip, cell clip, and every activation the schema
has (NONE, RELU, RELU_N1_TO_1, RELU6, TANH, SIGN_BIT). arm_lstm_unidirectional_f32 is not called: its tanh interpolates a table (up
to 6.7e-4 from tanh), 30 times the float bound of 1e-5 of the output range.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from helia_aot.emit.c_syntax import c_float
from helia_aot.ir.quant import f32, quantize_multiplier
from helia_aot.ops.base import (ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, both, helia_limit,
                                kernel_limit, litert, register, undefined)
from helia_aot.ops.shared.checks import OUTPUT_SHAPE_RULE
from helia_aot.ops.shared.int16_arithmetic import checked_log2
from helia_aot.ops.shared.operands import fp32, int8_act, weights

# Input positions (LiteRT's lstm_shared.h).
INPUT = 0
INPUT_WEIGHTS = {"input": 1, "forget": 2, "cell": 3, "output": 4}
RECURRENT_WEIGHTS = {"input": 5, "forget": 6, "cell": 7, "output": 8}
PEEPHOLE = {"input": 9, "forget": 10, "output": 11}
BIAS = {"input": 12, "forget": 13, "cell": 14, "output": 15}
PROJECTION_WEIGHTS, PROJECTION_BIAS = 16, 17
OUTPUT_STATE, CELL_STATE = 18, 19
LAYER_NORM = {"input": 20, "forget": 21, "cell": 22, "output": 23}
GATES = ("forget", "input", "cell", "output")  # ns-cmsis-nn's order in cmsis_nn_lstm_params
HIDDEN_INTERMEDIATE = 4

_ROLES = ["input", "input_to_input_weights", "input_to_forget_weights", "input_to_cell_weights",
          "input_to_output_weights", "recurrent_to_input_weights", "recurrent_to_forget_weights",
          "recurrent_to_cell_weights", "recurrent_to_output_weights", "cell_to_input_weights",
          "cell_to_forget_weights", "cell_to_output_weights", "input_gate_bias", "forget_gate_bias",
          "cell_gate_bias", "output_gate_bias", "projection_weights", "projection_bias", "output_state",
          "cell_state", "input_layer_norm_coefficients", "forget_layer_norm_coefficients",
          "cell_layer_norm_coefficients", "output_layer_norm_coefficients"]
_OPTIONAL = {1, 5, 9, 10, 11, 12, 16, 17, 20, 21, 22, 23}
_FLOAT_ACTIVATIONS = ("NONE", "RELU", "RELU_N1_TO_1", "RELU6", "TANH", "SIGN_BIT")

_CHECKS = "unidirectional_sequence_lstm.cc Prepare / micro lstm_eval_common.cc ValidateTensorSize"
INPUT_RANK = Rule("input 3-D ([batch, time, input] or time-major [time, batch, input]); weights 2-D", both(
    _CHECKS, "the input's three dimensions are read as batch, time and input (the output checked rank 3); "
    "TF_LITE_ENSURE_EQ(weights->dims->size, 2)"))
SHAPES = Rule("weights cells x inputs / cells x outputs, biases, peepholes and layer norms of cells, projection "
              "outputs x cells, the output [batch, time, outputs] and states of batch x outputs / batch x cells values",
              both(_CHECKS + ", ValidateWeightTensorSize, ValidateBiasTensorSize",
                   "TF_LITE_ENSURE_EQ of each dimension and of NumElements(output_state / cell_state)"))
ALL_OR_NONE = Rule("CIFG, peephole and layer-norm tensors for every gate or none; projection bias only with "
                   "projection weights", litert("unidirectional_sequence_lstm.cc CheckInputTensorDimensions",
                                               "cifg_weights_all_or_none, peephole_weights_all_or_none, "
                                               "projection_tensors_consistent"))
NO_PROJECTION_SIZE = Rule("without projection, output size equal to the cell count", undefined(
    "lstm_eval.cc (LiteRT's and TFLM's integer and float steps)", "without projection the hidden state has one value "
    "per cell, written into the output state's outputs-sized rows unchecked (past them)"))
STATE_VARIABLE = Rule("output_state and cell_state are variable tensors", both(
    "unidirectional_sequence_lstm.cc Prepare (GetVariableInput) / micro lstm_eval.cc LstmTensors::ValidateTensorStatus",
    "TF_LITE_ENSURE(output_state->is_variable) and TF_LITE_ENSURE(cell_state->is_variable)"))
DIAGONAL = Rule("no diagonal_recurrent_tensors", helia_limit(
    "recurrent weights given as vectors have no path in the generated step",
    "an element-wise recurrent product in the float step"))
FLOAT_ACTIVATION = Rule("float32: fused activation NONE, RELU, RELU_N1_TO_1, RELU6, TANH or SIGN_BIT", litert(
    "lstm_eval.cc / portable_tensor_utils ApplyActivationToVector", "applies these (the schema's activations); any "
    "other value is no TfLiteFusedActivation it handles"))
_LSTM_ENTRY = "arm_lstm_unidirectional_s8"
_LIFT = "inline C of LiteRT's integer LSTM step (lstm_eval.cc)"
INT8_CIFG = Rule("int8: input gate present (no CIFG)", kernel_limit(
    _LSTM_ENTRY, "computes all four gates; LiteRT's integer LSTM runs CIFG", _LIFT))
INT8_EXTRAS = Rule("int8: no peephole, projection or layer normalisation", kernel_limit(
    _LSTM_ENTRY, "has none of them; LiteRT's integer LSTM runs them", _LIFT))
INT8_TANH = Rule("int8: fused activation TANH", kernel_limit(
    _LSTM_ENTRY, "applies tanh to the cell gate and the cell state whatever the model says", _LIFT))
# LiteRT runs a cell-state scale that is no power of two (CheckedLog2's verdict is not enforced), and not as the
# rounded power alone: measured 91 codes from the module computing with 2^round(log2(scale)) (0.0005,
# tests/e2e/differential_ops/other.py), so such a scale stays refused, as the kernel's limit it is.
CELL_POWER_OF_TWO = Rule("int8: cell_state scale a power of two", kernel_limit(
    _LSTM_ENTRY, "takes the cell state's scale as a power-of-two shift (cell_scale_power); LiteRT runs other "
    "scales with its own mix of the rounded power and the scale", _LIFT))
CELL_POWER_RANGE = Rule("int8: cell_state scale from 2^-12 to 2^2", kernel_limit(
    _LSTM_ENTRY + " (arm_nn_activation_s16 of the cell state)", "shifts the cell state by 12 + its scale power into "
    "its Q3.12 tanh input: a smaller power is a negative shift, a larger one overflows", _LIFT))
INTERMEDIATES = Rule("int8: the 5 intermediate tensors of LiteRT's integer LSTM, the hidden one (4) quantized",
                     litert("unidirectional_sequence_lstm.cc PopulateQuantizedLstmParams8x8_16",
                            "reads the intermediates' scales and zero points (node->intermediates->size 5, the "
                            "hidden state's at 4)"))
FOLDED_BIAS = Rule("int8: bias + zero point x weight row sums fits int32", helia_limit(
    "the zero points are folded into int32 biases at conversion as LiteRT's Prepare folds them; past int32 its "
    "folding wraps (no exporter writes such biases)"))
WEIGHT_ZERO_POINT = kernel_limit(_LSTM_ENTRY, "takes no weight offset; LiteRT's integer LSTM reads the weight codes "
                                              "as symmetric too (it ignores a weight zero point)", _LIFT)
_SHARED_RULES = (INPUT_RANK, SHAPES, ALL_OR_NONE, NO_PROJECTION_SIZE, OUTPUT_SHAPE_RULE, STATE_VARIABLE, DIAGONAL)
_INT8_RULES = _SHARED_RULES + (INT8_CIFG, INT8_EXTRAS, INT8_TANH, CELL_POWER_OF_TWO, CELL_POWER_RANGE, INTERMEDIATES,
                               FOLDED_BIAS)
_FLOAT_RULES = _SHARED_RULES + (FLOAT_ACTIVATION,)


def _optional(operand: Operand, k: int) -> Operand:
    return dataclasses.replace(operand, optional=True) if k in _OPTIONAL else operand


def _int8_operands() -> tuple[Operand, ...]:
    ops = []
    for k, role in enumerate(_ROLES):
        if k == INPUT:
            operand = int8_act(role)
        elif 1 <= k <= 8 or k == PROJECTION_WEIGHTS:
            operand = dataclasses.replace(weights(role, per_channel_axis=None, zero_point_source=WEIGHT_ZERO_POINT),
                                          role=role)
        elif k in PEEPHOLE.values() or k in LAYER_NORM.values():
            operand = Operand(role, ("int16",), constant=True)
        elif 12 <= k <= 15 or k == PROJECTION_BIAS:
            operand = Operand(role, ("int32",), constant=True)
        elif k == OUTPUT_STATE:
            operand = int8_act(role)
        else:  # cell state
            operand = Operand(role, ("int16",), quantized=True, symmetric=True)
        ops.append(_optional(operand, k))
    return tuple(ops)


def _float_operands() -> tuple[Operand, ...]:
    ops = []
    for k, role in enumerate(_ROLES):
        constant = k not in (INPUT, OUTPUT_STATE, CELL_STATE)
        ops.append(_optional(Operand(role, ("float32",), constant=constant), k))
    return tuple(ops)


_INT8_NOTES = ("input [batch, time, input] or time-major [time, batch, input]", "fused activation TANH",
               "cell state int16, scale a power of two from 2^-12 to 2^2",
               "the 5 intermediates of LiteRT's integer LSTM (the hidden scale)",
               "no CIFG, peephole, projection or layer normalisation (ns-cmsis-nn has none)",
               "output state and cell state: variable tensors, kept across runs")
_FLOAT_NOTES = ("input [batch, time, input] or time-major [time, batch, input]",
                "fused activation NONE, RELU, RELU_N1_TO_1, RELU6, TANH or SIGN_BIT", "CIFG, peephole, projection, layer normalisation",
                "inline C (expf, tanhf, sqrtf: link libm)",
                "output state and cell state: variable tensors, kept across runs")


@register
class UnidirectionalSequenceLstm(OpLowering):
    op_types = ("UNIDIRECTIONAL_SEQUENCE_LSTM",)
    options_table = "UnidirectionalSequenceLSTMOptions"
    keeps_state = True
    variants = (
        Variant("int8", inputs=_int8_operands(), outputs=(int8_act("output"),),
                entries=("arm_lstm_unidirectional_s8",), template="unidirectional_sequence_lstm.c.j2",
                lower="lower_int8", notes=_INT8_NOTES, rules=_INT8_RULES),
        Variant("float32", inputs=_float_operands(), outputs=(fp32("output"),),
                template="unidirectional_sequence_lstm_f32.c.j2", lower="lower_float32", notes=_FLOAT_NOTES,
                rules=_FLOAT_RULES),
    )

    # -- validation --------------------------------------------------------------------------------

    def validate(self, ctx: OpContext) -> None:
        dims = self._dims(ctx)
        if ctx.options("diagonal_recurrent_tensors", False):
            raise ctx.error(DIAGONAL, ctx.inp(RECURRENT_WEIGHTS["forget"]),
                            detail="diagonal_recurrent_tensors (recurrent weights as vectors) is not supported")
        self._check_shapes(ctx, dims)
        for k in (OUTPUT_STATE, CELL_STATE):
            state = ctx.inp(k)
            if state is None or not state.is_variable:
                raise ctx.error(STATE_VARIABLE, state, detail=f"{_ROLES[k]} must be a variable tensor (state LiteRT "
                                                              "keeps across invocations)")
        if ctx.variant.name == "int8":
            self._validate_int8(ctx, dims)
        else:
            act = ctx.options("fused_activation_function", "NONE")
            if act not in _FLOAT_ACTIVATIONS:
                raise ctx.error(FLOAT_ACTIVATION, ctx.out(0), detail=f"fused activation {act} is not supported "
                                f"(supported: {', '.join(_FLOAT_ACTIVATIONS)})")

    def _dims(self, ctx: OpContext) -> dict:
        x = ctx.inp(INPUT)
        if len(x.shape) != 3:
            raise ctx.error(INPUT_RANK, x, detail=f"input must be 3-D ([batch, time, input] or time-major [time, batch, "
                                                  f"input]), got {list(x.shape)}")
        time_major = bool(ctx.options("time_major", False))
        steps, batch = (x.shape[0], x.shape[1]) if time_major else (x.shape[1], x.shape[0])
        w = ctx.inp(INPUT_WEIGHTS["forget"])
        r = ctx.inp(RECURRENT_WEIGHTS["forget"])
        if len(w.shape) != 2 or len(r.shape) != 2:
            raise ctx.error(INPUT_RANK, w, detail="input and recurrent weights must be 2-D [cells, input] / [cells, "
                                                  "outputs]")
        cells = int(w.shape[0])
        outputs = int(r.shape[1])
        return dict(time_major=time_major, batch=int(batch), steps=int(steps), inputs=int(x.shape[2]), cells=cells,
                    outputs=outputs)

    def _check_shapes(self, ctx: OpContext, d: dict) -> None:
        n, i, o = d["cells"], d["inputs"], d["outputs"]
        cifg = ctx.inp(INPUT_WEIGHTS["input"]) is None
        for gate in GATES:
            if gate == "input" and cifg:
                if ctx.inp(RECURRENT_WEIGHTS["input"]) is not None:
                    raise ctx.error(ALL_OR_NONE, ctx.inp(RECURRENT_WEIGHTS["input"]),
                                    detail="input_to_input_weights and recurrent_to_input_weights must be given "
                                           "together (or neither: CIFG)")
                continue
            for k, shape in ((INPUT_WEIGHTS[gate], (n, i)), (RECURRENT_WEIGHTS[gate], (n, o)), (BIAS[gate], (n,))):
                t = ctx.inp(k)
                if t is None:
                    raise ctx.error(ALL_OR_NONE, detail=f"{_ROLES[k]} is required")
                if tuple(t.shape) != shape:
                    raise ctx.error(SHAPES, t, detail=f"{_ROLES[k]} must have shape {list(shape)}, got {list(t.shape)}")
        for gate, k in PEEPHOLE.items():
            t = ctx.inp(k)
            if t is not None and tuple(t.shape) != (n,):
                raise ctx.error(SHAPES, t, detail=f"{_ROLES[k]} must have shape [{n}], got {list(t.shape)}")
            if t is not None and gate == "input" and cifg:
                raise ctx.error(ALL_OR_NONE, t, detail="cell_to_input_weights needs the input gate (the model is CIFG)")
        peepholes = [ctx.inp(k) is not None for g, k in PEEPHOLE.items() if not (g == "input" and cifg)]
        if any(peepholes) and not all(peepholes):
            raise ctx.error(ALL_OR_NONE, ctx.inp(PEEPHOLE["forget"]),
                            detail="peephole weights must be given for every gate or none")
        norms = [ctx.inp(LAYER_NORM[g]) for g in GATES if not (g == "input" and cifg)]
        if any(t is not None for t in norms) and not all(t is not None for t in norms):
            raise ctx.error(ALL_OR_NONE, ctx.inp(LAYER_NORM["forget"]),
                            detail="layer norm coefficients must be given for every gate or none")
        for t in norms:
            if t is not None and tuple(t.shape) != (n,):
                raise ctx.error(SHAPES, t, detail=f"layer norm coefficients must have shape [{n}], got {list(t.shape)}")
        proj, proj_bias = ctx.inp(PROJECTION_WEIGHTS), ctx.inp(PROJECTION_BIAS)
        if proj is None and o != n:
            raise ctx.error(NO_PROJECTION_SIZE, ctx.inp(RECURRENT_WEIGHTS["forget"]),
                            detail=f"without projection the output size ({o}) must equal the cell count ({n})")
        if proj is not None and tuple(proj.shape) != (o, n):
            raise ctx.error(SHAPES, proj, detail=f"projection_weights must have shape [{o}, {n}], got {list(proj.shape)}")
        if proj_bias is not None and (proj is None or tuple(proj_bias.shape) != (o,)):
            raise ctx.error(ALL_OR_NONE, proj_bias, detail=f"projection_bias needs projection weights and shape [{o}]")
        out_shape = (d["steps"], d["batch"], o) if d["time_major"] else (d["batch"], d["steps"], o)
        y = ctx.out(0)
        if tuple(y.shape) != out_shape:
            raise ctx.error(OUTPUT_SHAPE_RULE, y, detail=f"output must have shape {list(out_shape)}, got {list(y.shape)}")
        for k, size in ((OUTPUT_STATE, d["batch"] * o), (CELL_STATE, d["batch"] * n)):
            t = ctx.inp(k)
            if t is not None and t.num_elements != size:
                raise ctx.error(SHAPES, t, detail=f"{_ROLES[k]} must hold batch x "
                                f"{'outputs' if k == OUTPUT_STATE else 'cells'} = {size} values, has {t.num_elements}")

    def _validate_int8(self, ctx: OpContext, d: dict) -> None:
        if ctx.inp(INPUT_WEIGHTS["input"]) is None:
            raise ctx.error(INT8_CIFG, ctx.inp(INPUT_WEIGHTS["forget"]), detail="int8 CIFG (no input gate) is not "
                            "supported: ns-cmsis-nn's LSTM computes all four gates")
        for role_k in (*PEEPHOLE.values(), PROJECTION_WEIGHTS, *LAYER_NORM.values()):
            t = ctx.inp(role_k)
            if t is not None:
                what = ("peephole" if role_k in PEEPHOLE.values() else
                        "projection" if role_k == PROJECTION_WEIGHTS else "layer normalisation")
                raise ctx.error(INT8_EXTRAS, t, "Export the LSTM without it, or in float32",
                                detail=f"int8 LSTM with {what} ({_ROLES[role_k]}) is not supported: ns-cmsis-nn's "
                                       "LSTM has none")
        act = ctx.options("fused_activation_function", "NONE")
        if act != "TANH":
            raise ctx.error(INT8_TANH, ctx.out(0), detail=f"int8 LSTM needs fused activation TANH (ns-cmsis-nn "
                                                          f"applies tanh), has {act}")
        cell = ctx.inp(CELL_STATE)
        pot, power = checked_log2(cell.quant.scale)
        if not pot:
            raise ctx.error(CELL_POWER_OF_TWO, cell, detail=f"cell_state scale must be a power of two (ns-cmsis-nn's "
                                                            f"LSTM shifts by it), has {cell.quant.scale:g}")
        if not -12 <= power <= 2:
            raise ctx.error(CELL_POWER_RANGE, cell, detail=f"cell_state scale must be from 2^-12 to 2^2 (ns-cmsis-nn's "
                                                           f"LSTM), has 2^{power}")
        if len(ctx.op.intermediates) != 5:
            raise ctx.error(INTERMEDIATES, ctx.out(0),
                            "Convert the model with the TFLite converter's full-integer LSTM quantization",
                            detail=f"int8 LSTM needs the 5 intermediate tensors of LiteRT's integer LSTM (the last "
                                   f"one carries the hidden scale), has {len(ctx.op.intermediates)}")
        hidden = ctx.graph.tensors[ctx.op.intermediates[HIDDEN_INTERMEDIATE]]
        if hidden.quant is None:
            raise ctx.error(INTERMEDIATES, hidden, detail="the hidden intermediate (intermediate 4) of the int8 LSTM "
                                                          "has no scale and zero point")

    # -- int8 --------------------------------------------------------------------------------------

    def lower_int8(self, ctx: OpContext) -> Lowered:
        """arm_lstm_unidirectional_s8 with the persistent output state as hidden_state (the step
        reads it, the call writes the last hidden state back) and the persistent cell state; temp1 /
        temp2 (batch x cells int16 each) in scratch."""
        d = self._dims(ctx)
        x, y = ctx.inp(INPUT), ctx.out(0)
        out_state, cell = ctx.inp(OUTPUT_STATE), ctx.inp(CELL_STATE)
        hidden = ctx.graph.tensors[ctx.op.intermediates[HIDDEN_INTERMEDIATE]]
        _, cell_power = checked_log2(cell.quant.scale)
        gate_scale = 2.0 ** -12  # no layer norm: the gates' Q3.12 (LiteRT's intermediate_scale)
        in_scale, state_scale = f32(x.quant.scale), f32(out_state.quant.scale)
        in_zp, state_zp = x.quant.zero_point, out_state.quant.zero_point
        gates, constants = {}, []
        for name in GATES:
            w, r, b = ctx.inp(INPUT_WEIGHTS[name]), ctx.inp(RECURRENT_WEIGHTS[name]), ctx.inp(BIAS[name])
            # LiteRT multiplies and divides the float32 scales in float32 before QuantizeMultiplier.
            in_q = quantize_multiplier(f32(f32(f32(w.quant.scale) * in_scale) / f32(gate_scale)))
            hid_q = quantize_multiplier(f32(f32(f32(r.quant.scale) * state_scale) / f32(gate_scale)))
            w_rows = np.asarray(w.data, dtype=np.int64).sum(axis=1)
            r_rows = np.asarray(r.data, dtype=np.int64).sum(axis=1)
            in_bias = np.asarray(b.data, dtype=np.int64) + (-in_zp) * w_rows
            hid_bias = (-state_zp) * r_rows
            constants += [
                ConstArray(f"{name}_input_bias", "int32_t", _int32(ctx, in_bias, b),
                           f"{name} gate: bias + input offset x input weight row sums"),
                ConstArray(f"{name}_hidden_bias", "int32_t", _int32(ctx, hid_bias, r),
                           f"{name} gate: output state offset x recurrent weight row sums"),
            ]
            gates[name] = dict(input_multiplier=in_q[0], input_shift=in_q[1], hidden_multiplier=hid_q[0],
                               hidden_shift=hid_q[1], input_weights=w.index, hidden_weights=r.index,
                               activation="ARM_TANH" if name == "cell" else "ARM_SIGMOID")
        f2c = quantize_multiplier(2.0 ** -15)
        i2c = quantize_multiplier(2.0 ** (-30 - cell_power))
        hidden_scale = f32(2.0 ** -15 / f32(hidden.quant.scale) * 2.0 ** -15)
        out_q = quantize_multiplier(hidden_scale)
        clip = float(ctx.options("cell_clip", 0.0) or 0.0)
        cell_clip = 0
        if clip > 0.0:
            quotient = np.float32(clip) / np.float32(cell.quant.scale)
            cell_clip = int(np.trunc(min(max(float(quotient), -32768.0), 32767.0)))
        state_values = d["batch"] * d["cells"]
        macs = d["batch"] * d["steps"] * 4 * d["cells"] * (d["inputs"] + d["outputs"])
        return Lowered(
            entry="arm_lstm_unidirectional_s8",
            scratch_bytes=2 * state_values * 2,
            macs=macs,
            constants=constants,
            fixed={"state": "output_state and cell_state in the persistent arena"},
            params=dict(
                input=x.index, output=y.index, output_state=out_state.index, cell_state=cell.index,
                time_major=int(d["time_major"]), batch=d["batch"], steps=d["steps"], input_size=d["inputs"],
                hidden=d["cells"], input_offset=-in_zp,
                forget_to_cell_multiplier=f2c[0], forget_to_cell_shift=f2c[1],
                input_to_cell_multiplier=i2c[0], input_to_cell_shift=i2c[1],
                cell_clip=cell_clip, cell_scale_power=cell_power,
                output_multiplier=out_q[0], output_shift=out_q[1], output_offset=hidden.quant.zero_point,
                gates=gates, gate_order=GATES, temp2_offset=state_values * 2,
            ),
        )

    # -- float32 -----------------------------------------------------------------------------------

    def lower_float32(self, ctx: OpContext) -> Lowered:
        """LiteRT's LstmStepFloat per batch row and time step, in its order of operations: each gate
        from its bias (zero with layer norm) plus the input and recurrent dot products (each summed
        from zero), plus the peephole term; normalised, scaled and biased with layer norm; then
        sigmoid (tanh or the fused activation for the cell gate). The output gate's peephole reads
        the updated cell. Scratch: the four gates' values of one row."""
        d = self._dims(ctx)
        x, y = ctx.inp(INPUT), ctx.out(0)
        cifg = ctx.inp(INPUT_WEIGHTS["input"]) is None
        layer_norm = ctx.inp(LAYER_NORM["forget"]) is not None
        gates = {}
        for name in GATES:
            if name == "input" and cifg:
                continue
            def idx(k):  # noqa: E306 - a tensor index or None
                t = ctx.inp(k)
                return None if t is None else t.index
            gates[name] = dict(
                input_weights=idx(INPUT_WEIGHTS[name]), recurrent_weights=idx(RECURRENT_WEIGHTS[name]),
                bias=idx(BIAS[name]), peephole=idx(PEEPHOLE[name]) if name in PEEPHOLE else None,
                layer_norm=idx(LAYER_NORM[name]),
                activation="SIGMOID" if name != "cell" else ctx.options("fused_activation_function", "NONE"))
        cell_clip = float(ctx.options("cell_clip", 0.0) or 0.0)
        proj_clip = float(ctx.options("proj_clip", 0.0) or 0.0)
        proj = ctx.inp(PROJECTION_WEIGHTS)
        proj_bias = ctx.inp(PROJECTION_BIAS)
        n, o = d["cells"], d["outputs"]
        macs = d["batch"] * d["steps"] * (len(gates) * n * (d["inputs"] + o) + (n * o if proj is not None else 0))
        return Lowered(
            entry=None, scratch_bytes=4 * 4 * n, macs=macs,
            fixed={"implementation": "inline", "state": "output_state and cell_state in the persistent arena"},
            params=dict(
                input=x.index, output=y.index, output_state=ctx.inp(OUTPUT_STATE).index,
                cell_state=ctx.inp(CELL_STATE).index, time_major=d["time_major"], batch=d["batch"], steps=d["steps"],
                inputs=d["inputs"], cells=n, outputs=o, cifg=cifg, layer_norm=layer_norm, gates=gates,
                activation=ctx.options("fused_activation_function", "NONE"),
                cell_clip=c_float(cell_clip) if cell_clip > 0.0 else None,
                projection=None if proj is None else proj.index,
                projection_bias=None if proj_bias is None else proj_bias.index,
                proj_clip=c_float(proj_clip) if proj_clip > 0.0 and proj is not None else None,
            ),
        )


def _int32(ctx: OpContext, values: np.ndarray, tensor) -> np.ndarray:
    if values.size and (values.min() < -(2**31) or values.max() >= 2**31):
        raise ctx.error(FOLDED_BIAS, tensor, detail="the effective bias (bias + zero point x weight row sums) "
                                                    "overflows int32")
    return values

# SPDX-License-Identifier: Apache-2.0
"""SignalRfft (TFLM custom operator): the real FFT of each frame (the last axis, zero-padded to
fft_length), N/2 + 1 complex bins as (re, im) pairs, on helia_signal_rfft_s16 / _s32 / _f32.

TFLM computes it with kiss fft v1.3.0 (FIXED_POINT 16 / 32, or float); the kernels repeat its
arithmetic and get its plan and twiddle tables as constants (shared/signal_fft.py), so the output is
bit-identical to TFLM's. An fft_length whose half has a prime factor above 5 (or is 1) runs kiss fft's
generic butterfly, which TFLM's build cannot run (its scratch allocation is patched out, the
interpreter crashes); the kernels compute what kiss fft computes there, checked against the Python
reference only.
"""

from __future__ import annotations

from helia_aot.ops.base import ConstArray, Lowered, OpContext, OpLowering, Operand, Rule, Variant, register, undefined
from helia_aot.ops.shared.signal import (INT32_MAX, OPTION_KEYS, OPTION_RANGE, Attr, flat_size, prepare_rule, read_options,
                                         unchecked_rule)
from helia_aot.ops.shared import signal_fft as tables

# The options' "T": the schema TensorType code of the samples (TFLM picks its kernel by it).
_TYPE_CODES = {"int16": 7, "int32": 2, "float32": 0}
_SUFFIX = {"int16": "s16", "int32": "s32", "float32": "f32"}
_CTYPE = {"int16": "int16_t", "int32": "int32_t", "float32": "float"}
_RULES = ("custom options exactly {T, fft_length}: T the tensors' type code (int16 7, int32 2, float32 0), "
          "fft_length even, >= 2 and >= the input's last dimension",
          "input [..., L], output [..., fft_length + 2] with the same leading dimensions (each frame's "
          "N/2 + 1 complex bins)")


TYPE_CODE = prepare_rule("custom option T names the tensors' type", "rfft.cc RfftInitAll / RfftPrepare",
                       "the kernel is chosen by T, then TF_LITE_ENSURE_TYPES_EQ(input / output type, T's type)")
SAME_RANK = prepare_rule("input and output of the same rank, at least 1", "rfft.cc RfftPrepare",
                       "TF_LITE_ENSURE_EQ(NumDimensions(input), NumDimensions(output))")
EVEN_LENGTH = Rule("fft_length even", undefined(
    "signal/micro/kernels/rfft.cc RfftInit / kiss_fftr_alloc", "kiss fft's real FFT allocates no state for an odd "
    "length (a real FFT of N points is a complex FFT of N/2); RfftInit passes it on unchecked and Eval crashes"))
FRAMES = unchecked_rule("input frames no longer than fft_length; output [..., fft_length + 2] with the input's leading "
                        "dimensions", "RfftEval (it zero-pads each frame by fft_length minus its length and writes "
                        "fft_length / 2 + 1 bins per frame)")


def _variant(dtype: str) -> Variant:
    return Variant(dtype, inputs=(Operand("input", (dtype,)),), outputs=(Operand("output", (dtype,)),),
                   entries=(f"helia_signal_rfft_{_SUFFIX[dtype]}",), template="signal_rfft.c.j2", notes=_RULES,
                   rules=(OPTION_KEYS, OPTION_RANGE, TYPE_CODE, SAME_RANK, EVEN_LENGTH, FRAMES))


@register
class SignalRfft(OpLowering):
    op_types = ("CUSTOM:SignalRfft",)
    options_table = None
    variants = tuple(_variant(d) for d in ("int16", "int32", "float32"))

    def _options(self, ctx: OpContext) -> dict:
        return read_options(ctx, {"T": Attr(by_name=True), "fft_length": Attr(low=2, high=INT32_MAX)})

    def validate(self, ctx: OpContext) -> None:
        x, y = ctx.inp(0), ctx.out(0)
        options = self._options(ctx)
        dtype = ctx.variant.name
        if options["T"] != _TYPE_CODES[dtype]:
            raise ctx.error(TYPE_CODE, detail=f"custom option T = {options['T']} does not name the tensors' type "
                                              f"{dtype} (TFLM reads T = {_TYPE_CODES[dtype]} for it)")
        fft_length = options["fft_length"]
        if fft_length % 2:
            raise ctx.error(EVEN_LENGTH, detail=f"custom option fft_length = {fft_length} must be even (a real FFT "
                                                "of N points is a complex FFT of N/2; TFLM's kiss fft refuses odd "
                                                "lengths)")
        if len(x.shape) < 1 or len(y.shape) != len(x.shape):
            raise ctx.error(SAME_RANK, y, detail=f"input {list(x.shape)} and output {list(y.shape)} must have the "
                                                 "same rank, at least 1 (TFLM's kernel requires it)")
        if int(x.shape[-1]) > fft_length:
            raise ctx.error(FRAMES, x, detail=f"input frames of {int(x.shape[-1])} samples exceed fft_length "
                                              f"{fft_length} (TFLM zero-pads a frame up to fft_length, it cannot cut one)")
        want = [*(int(d) for d in x.shape[:-1]), fft_length + 2]
        if [int(d) for d in y.shape] != want:
            raise ctx.error(FRAMES, y, detail=f"output {list(y.shape)} must be {want}: each frame's fft_length / 2 + 1 "
                                              "complex bins, interleaved (re, im)")

    def lower(self, ctx: OpContext) -> Lowered:
        x, y = ctx.inp(0), ctx.out(0)
        dtype = ctx.variant.name
        fft_length = self._options(ctx)["fft_length"]
        n = fft_length // 2
        frame = int(x.shape[-1])
        frames = flat_size(x.shape[:-1])
        sample_bytes = 2 if dtype == "int16" else 4
        plan = tables.factors(n)
        constants = [
            ConstArray("factors", "int32_t", tables.factor_table(n),
                       f"kiss fft's plan of the {n}-point complex FFT: radix, remaining length per stage"),
            ConstArray("twiddles", _CTYPE[dtype], tables.twiddles(n, dtype),
                       f"exp(-2 pi i k / {n}), (re, im)"),
            ConstArray("split_twiddles", _CTYPE[dtype], tables.split_twiddles(n, dtype),
                       f"the real-FFT split's rotations exp(-i pi ((k + 1) / {n} + 1/2)), (re, im)"),
        ]
        radices = " x ".join(str(p) for p, _ in plan)
        return Lowered(entry=f"helia_signal_rfft_{_SUFFIX[dtype]}",
                       scratch_bytes=tables.scratch_elements(fft_length) * sample_bytes,
                       macs=frames * 4 * n * (len(plan) + 1),  # a complex product per pair per stage, and the split
                       params=dict(input=x.index, output=y.index, fft_length=fft_length, frame=frame, frames=frames,
                                   suffix=_SUFFIX[dtype], ctype=_CTYPE[dtype], plan=radices),
                       constants=constants, fixed={"fft": f"kiss fft radices {radices}"})

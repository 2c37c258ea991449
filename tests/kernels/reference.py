# SPDX-License-Identifier: Apache-2.0
"""Python reference of the integer math the portable kernels implement (gemmlowp / TFLite rounding).

Written from the published definitions (gemmlowp fixedpoint, TFLite reference kernels) with
Python's unbounded integers, so it shares no code with the C library it checks.
"""

from __future__ import annotations

import numpy as np

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def wrap32(x: int) -> int:
    return ((x + 2**31) % 2**32) - 2**31


def sat_rounding_doubling_high_mul(a: int, b: int) -> int:
    """gemmlowp SaturatingRoundingDoublingHighMul: round(a*b / 2^31), INT32_MIN^2 saturates."""
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    nudge = (1 << 30) if (a < 0) == (b < 0) else 1 - (1 << 30)
    total = ab + nudge
    quotient = abs(total) // 2**31  # C division truncates towards zero
    return quotient if total >= 0 else -quotient


def rounding_doubling_high_mul(a: int, b: int) -> int:
    return wrap32((a * b + (1 << 30)) >> 31)


def rounding_divide_by_pot(x: int, exponent: int) -> int:
    """gemmlowp RoundingDivideByPOT: x / 2^exponent rounded to nearest, ties away from zero."""
    mask = (1 << exponent) - 1
    remainder = x & mask
    quotient = x >> exponent
    threshold = (mask >> 1) + (1 if quotient < 0 else 0)
    return quotient + 1 if remainder > threshold else quotient


def saturating_mul_by_pot(x: int, exponent: int) -> int:
    return max(INT32_MIN, min(INT32_MAX, x * 2**exponent))


def requantize(x: int, multiplier: int, shift: int) -> int:
    """TFLite MultiplyByQuantizedMultiplier (double rounding)."""
    left, right = max(shift, 0), max(-shift, 0)
    return rounding_divide_by_pot(rounding_doubling_high_mul(wrap32(x << left), multiplier), right)


def exp_on_negative_values(a: int) -> int:
    """gemmlowp exp_on_negative_values for a Q5.26 input <= 0; Q0.31 result."""
    if a == 0:
        return INT32_MAX
    quarter = 1 << 24
    r = (a & (quarter - 1)) - quarter
    whole = r - a
    x = r * 32 + (1 << 28)
    x2 = sat_rounding_doubling_high_mul(x, x)
    x3 = sat_rounding_doubling_high_mul(x2, x)
    x4 = sat_rounding_doubling_high_mul(x2, x2)
    x4_over_4 = rounding_divide_by_pot(x4, 2)
    poly = x + rounding_divide_by_pot(sat_rounding_doubling_high_mul(x4_over_4 + x3, 715827883) + x2, 1)
    result = 1895147668 + sat_rounding_doubling_high_mul(1895147668, poly)
    for k, factor in enumerate([1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242]):
        if whole & (1 << (24 + k)):
            result = sat_rounding_doubling_high_mul(result, factor)
    return result


def one_over_one_plus_x(a: int) -> int:
    """gemmlowp one_over_one_plus_x_for_x_in_0_1: Q0.31 in and out."""
    total = a + INT32_MAX
    half = (total + (1 if total >= 0 else -1))
    half = abs(half) // 2 * (1 if half >= 0 else -1)
    x = 1515870810 + sat_rounding_doubling_high_mul(half, -1010580540)
    for _ in range(3):
        err = (1 << 29) - sat_rounding_doubling_high_mul(half, x)
        x = x + saturating_mul_by_pot(sat_rounding_doubling_high_mul(x, err), 2)
    return saturating_mul_by_pot(x, 1)


def clamp(v: int, lo: int, hi: int) -> int:
    return min(max(v, lo), hi)


# ---- kernels -------------------------------------------------------------------------------------

def conv2d(c) -> np.ndarray:
    """Grouped, dilated convolution of records.ConvCall (no upscale), NHWC / OHWI."""
    n, ih, iw, ic = c.input_dims
    oc, kh, kw, kc = c.filter_dims
    _, oh, ow, _ = c.output_dims
    groups = ic // kc
    per_group = c.output_dims[3] // groups
    x = np.asarray(c.input, dtype=np.int64).reshape(n, ih, iw, ic)
    f = np.asarray(c.filter, dtype=np.int64).reshape(oc, kh, kw, kc)
    out = np.zeros((n, oh, ow, c.output_dims[3]), dtype=np.int64)
    sw, sh = c.stride
    pw, ph = c.padding
    dw, dh = c.dilation
    for b in range(n):
        for y in range(oh):
            for xo in range(ow):
                for o in range(c.output_dims[3]):
                    g = o // per_group
                    acc = int(c.bias[o]) if c.bias is not None else 0
                    for ky in range(kh):
                        iy = y * sh - ph + ky * dh
                        if not 0 <= iy < ih:
                            continue
                        for kx in range(kw):
                            ix = xo * sw - pw + kx * dw
                            if not 0 <= ix < iw:
                                continue
                            pixel = x[b, iy, ix, g * kc:(g + 1) * kc] + c.input_offset
                            acc += int(np.dot(pixel, f[o, ky, kx]))
                    v = requantize(acc, int(c.mult[o]), int(c.shift[o])) + c.output_offset
                    out[b, y, xo, o] = clamp(v, *c.act)
    return out.reshape(-1)


def depthwise_conv2d(c) -> np.ndarray:
    n, ih, iw, ic = c.input_dims
    _, kh, kw, oc = c.filter_dims
    _, oh, ow, _ = c.output_dims
    x = np.asarray(c.input, dtype=np.int64).reshape(n, ih, iw, ic)
    f = np.asarray(c.filter, dtype=np.int64).reshape(kh, kw, oc)
    out = np.zeros((n, oh, ow, oc), dtype=np.int64)
    sw, sh = c.stride
    pw, ph = c.padding
    dw, dh = c.dilation
    for b in range(n):
        for y in range(oh):
            for xo in range(ow):
                for o in range(oc):
                    acc = int(c.bias[o]) if c.bias is not None else 0
                    for ky in range(kh):
                        for kx in range(kw):
                            iy, ix = y * sh - ph + ky * dh, xo * sw - pw + kx * dw
                            if 0 <= iy < ih and 0 <= ix < iw:
                                acc += (int(x[b, iy, ix, o // c.ch_mult]) + c.input_offset) * int(f[ky, kx, o])
                    v = requantize(acc, int(c.mult[o]), int(c.shift[o])) + c.output_offset
                    out[b, y, xo, o] = clamp(v, *c.act)
    return out.reshape(-1)


def fully_connected(c) -> np.ndarray:
    x = np.asarray(c.input, dtype=np.int64).reshape(c.batches, c.depth) + c.input_offset
    w = np.asarray(c.filter, dtype=np.int64).reshape(c.outputs, c.depth) + c.filter_offset
    acc = x @ w.T
    if c.bias is not None:
        acc = acc + np.asarray(c.bias, dtype=np.int64)
    out = np.zeros_like(acc)
    for b in range(c.batches):
        for o in range(c.outputs):
            m, s = (c.mult[o], c.shift[o]) if c.per_channel else (c.mult[0], c.shift[0])
            out[b, o] = clamp(requantize(int(acc[b, o]), int(m), int(s)) + c.output_offset, *c.act)
    return out.reshape(-1)


def pool(kind: str, stride, padding, act, input_dims, filter_hw, output_dims, data) -> np.ndarray:
    n, ih, iw, ch = input_dims
    _, oh, ow, _ = output_dims
    x = np.asarray(data, dtype=np.int64).reshape(n, ih, iw, ch)
    out = np.zeros((n, oh, ow, ch), dtype=np.int64)
    for b in range(n):
        for y in range(oh):
            for xo in range(ow):
                y0, x0 = y * stride[1] - padding[1], xo * stride[0] - padding[0]
                window = x[b, max(y0, 0):min(y0 + filter_hw[0], ih), max(x0, 0):min(x0 + filter_hw[1], iw), :]
                window = window.reshape(-1, ch)
                for c in range(ch):
                    if kind == "max":
                        v = int(window[:, c].max())
                    else:
                        total, count = int(window[:, c].sum()), window.shape[0]
                        q = (abs(total) + count // 2) // count
                        v = q if total > 0 else -q
                    out[b, y, xo, c] = clamp(v, *act)
    return out.reshape(-1)


def softmax(rows: int, row_size: int, mult: int, shift: int, diff_min: int, data, out_bits: int = 8) -> np.ndarray:
    """int8-logit softmax; out_bits 8 gives int8 probabilities p*2^8 - 128, 16 gives int16 p*2^16 - 32768."""
    lowest, highest = -(1 << (out_bits - 1)), (1 << (out_bits - 1)) - 1
    x = np.asarray(data, dtype=np.int64).reshape(rows, row_size)
    out = np.full((rows, row_size), lowest, dtype=np.int64)
    for r in range(rows):
        mx = int(x[r].max())
        exps = {}
        total = 0
        for i in range(row_size):
            d = int(x[r, i]) - mx
            if d >= diff_min:
                exps[i] = exp_on_negative_values(sat_rounding_doubling_high_mul(wrap32(d << shift), mult))
                total += rounding_divide_by_pot(exps[i], 12)
        headroom = 32 - total.bit_length()
        reciprocal = one_over_one_plus_x(wrap32((total << headroom) - 2**31))
        for i, e in exps.items():
            p = rounding_divide_by_pot(sat_rounding_doubling_high_mul(reciprocal, e), 12 - headroom + 31 - out_bits)
            out[r, i] = clamp(p + lowest, lowest, highest)
    return out.reshape(-1)


def add_sub(q, a, b, subtract: bool) -> np.ndarray:
    (o1, m1, s1, o2, m2, s2, ls, oo, om, os_, lo, hi) = q
    res = []
    for x, y in zip(np.asarray(a).reshape(-1), np.asarray(b).reshape(-1)):
        xa = requantize((int(x) + o1) << ls, m1, s1)
        yb = requantize((int(y) + o2) << ls, m2, s2)
        res.append(clamp(requantize(xa - yb if subtract else xa + yb, om, os_) + oo, lo, hi))
    return np.array(res, dtype=np.int64)


def mul(q, a, b) -> np.ndarray:
    (o1, o2, oo, om, os_, lo, hi) = q
    return np.array([clamp(requantize((int(x) + o1) * (int(y) + o2), om, os_) + oo, lo, hi)
                     for x, y in zip(np.asarray(a).reshape(-1), np.asarray(b).reshape(-1))], dtype=np.int64)


def broadcast_pair(a, a_dims, b, b_dims, out_dims):
    """NumPy broadcasting of two NHWC tensors to out_dims, flattened."""
    xa = np.broadcast_to(np.asarray(a).reshape(a_dims), out_dims).reshape(-1)
    xb = np.broadcast_to(np.asarray(b).reshape(b_dims), out_dims).reshape(-1)
    return xa, xb


def requantize_s8(data, mult, shift, in_zp, out_zp) -> np.ndarray:
    return np.array([clamp(requantize(int(v) - in_zp, mult, shift) + out_zp, -128, 127) for v in data],
                    dtype=np.int64)


def mean(input_offset, input_dims, axis, out_offset, out_mult, out_shift, data, bits: int = 8) -> np.ndarray:
    x = np.asarray(data, dtype=np.int64).reshape(input_dims)
    axes = tuple(i for i, flag in enumerate(axis) if flag)
    count = int(np.prod([input_dims[i] for i in axes])) if axes else 1
    sums = x.sum(axis=axes, keepdims=True) + count * input_offset
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return np.array([clamp(requantize(int(s), out_mult, out_shift) + out_offset, lo, hi)
                     for s in sums.reshape(-1)], dtype=np.int64)


# ---- int16 activations (A16W8) and TRANSPOSE_CONV -------------------------------------------------

def reduce_multiplier(multiplier: int) -> int:
    """A Q31 multiplier rounded to Q15 (capped at 0x7FFF), as ns-cmsis-nn's 64-bit kernels use it."""
    return (multiplier + (1 << 15)) >> 16 if multiplier < 0x7FFF0000 else 0x7FFF


def requantize_s64(acc: int, multiplier: int, shift: int) -> int:
    """round(acc * m / 2^(15 - shift)) with m the Q15 multiplier, ties up, kept to 32 bits before the last halving."""
    scaled = wrap32((acc * reduce_multiplier(multiplier)) >> (14 - shift))
    return wrap32(scaled + 1) >> 1


def requantize_s16_acc(acc: int, int32_route: bool, multiplier: int, shift: int) -> int:
    """The two requantizations of the int16 convolutions: int32 bias -> 32-bit wrap and the Q31 multiplier."""
    if int32_route:
        return requantize(wrap32(acc), multiplier, shift)
    return requantize_s64(acc, multiplier, shift)


PAIRED_32_BIT_COLUMNS = 512


def conv2d_s16(c, *, group_ch_mult_1: bool = False) -> np.ndarray:
    """int16 CONV_2D (records.ConvS16Call): no offsets, grouped, dilated, NHWC / OHWI.

    arm_convolve_s16 sums in the widths ns-cmsis-nn's plain-C build uses, which only shows when a
    sum leaves the int32 range: pixels go in pairs (flattened per image); a pair sums its first 512
    filter columns (all with an int32 bias) wrapping at 32 bits and the rest exactly, the unpaired
    last pixel of an odd count wraps all of them. arm_convolve_s16_group_ch_mult_1 sums exactly and
    takes the int32 route only when int32 bias data is given.
    """
    n, ih, iw, ic = c.input_dims
    oc, kh, kw, kc = c.filter_dims
    _, oh, ow, _ = c.output_dims
    groups = ic // kc
    per_group = oc // groups
    x = np.asarray(c.input, dtype=np.int64).reshape(n, ih, iw, ic)
    f = np.asarray(c.filter, dtype=np.int64).reshape(oc, kh, kw, kc)
    sw, sh = c.stride
    pw, ph = c.padding
    dw, dh = c.dilation
    has_bias = c.bias is not None and c.bias_kind != -1
    if group_ch_mult_1:
        int32_route = has_bias and c.bias_kind == 1
    else:
        int32_route = c.bias_kind == 1
    columns = kh * kw * kc
    pixels = oh * ow
    out = np.zeros((n, oh, ow, oc), dtype=np.int64)
    for b in range(n):
        for y in range(oh):
            for xo in range(ow):
                unpaired = pixels % 2 == 1 and y * ow + xo == pixels - 1
                all_32_bit = int32_route or unpaired
                wrapped = columns if all_32_bit else min(columns, PAIRED_32_BIT_COLUMNS)
                for o in range(oc):
                    g = o // per_group
                    products = []  # one per filter column (ky, kx, ic), zero for padding taps
                    for ky in range(kh):
                        for kx in range(kw):
                            iy, ix = y * sh - ph + ky * dh, xo * sw - pw + kx * dw
                            if 0 <= iy < ih and 0 <= ix < iw:
                                products += [int(v) for v in x[b, iy, ix, g * kc:(g + 1) * kc] * f[o, ky, kx]]
                            else:
                                products += [0] * kc
                    if group_ch_mult_1:
                        acc = sum(products)
                    else:
                        acc = wrap32(sum(products[:wrapped])) + sum(products[wrapped:])
                    acc += int(c.bias[o]) if has_bias else 0
                    v = requantize_s16_acc(acc, int32_route, int(c.mult[o]), int(c.shift[o]))
                    out[b, y, xo, o] = clamp(v, *c.act)
    return out.reshape(-1)


def depthwise_conv2d_s16(c) -> np.ndarray:
    """int16 DEPTHWISE_CONV_2D: exact sums, int64 bias, Q15 multiplier, no offsets."""
    n, ih, iw, ic = c.input_dims
    _, kh, kw, oc = c.filter_dims
    _, oh, ow, _ = c.output_dims
    x = np.asarray(c.input, dtype=np.int64).reshape(n, ih, iw, ic)
    f = np.asarray(c.filter, dtype=np.int64).reshape(kh, kw, oc)
    out = np.zeros((n, oh, ow, oc), dtype=np.int64)
    sw, sh = c.stride
    pw, ph = c.padding
    dw, dh = c.dilation
    for b in range(n):
        for y in range(oh):
            for xo in range(ow):
                for o in range(oc):
                    acc = int(c.bias[o]) if c.bias is not None else 0
                    for ky in range(kh):
                        for kx in range(kw):
                            iy, ix = y * sh - ph + ky * dh, xo * sw - pw + kx * dw
                            if 0 <= iy < ih and 0 <= ix < iw:
                                acc += int(x[b, iy, ix, o // c.ch_mult]) * int(f[ky, kx, o])
                    out[b, y, xo, o] = clamp(requantize_s64(acc, int(c.mult[o]), int(c.shift[o])), *c.act)
    return out.reshape(-1)


def fully_connected_s16(c) -> np.ndarray:
    """int16 FULLY_CONNECTED: exact sums, int64 bias, Q15 multiplier; the offsets are ignored."""
    x = np.asarray(c.input, dtype=np.int64).reshape(c.batches, c.depth)
    w = np.asarray(c.filter, dtype=np.int64).reshape(c.outputs, c.depth)
    out = np.zeros((c.batches, c.outputs), dtype=np.int64)
    for b in range(c.batches):
        for o in range(c.outputs):
            acc = int(np.dot(x[b], w[o])) + (int(c.bias[o]) if c.bias is not None else 0)
            m, s = (c.mult[o], c.shift[o]) if c.per_channel else (c.mult[0], c.shift[0])
            out[b, o] = clamp(requantize_s64(acc, int(m), int(s)), *c.act)
    return out.reshape(-1)


def transpose_conv2d(c) -> np.ndarray:
    """int8 TRANSPOSE_CONV (records.TransposeConvCall): every input pixel scatters pixel x filter tap
    products onto output (iy*sh + ky - ph, ix*sw + kx - pw); 32-bit wrapping sums."""
    n, ih, iw, ic = c.input_dims
    oc, kh, kw, _ = c.filter_dims
    _, oh, ow, _ = c.output_dims
    x = np.asarray(c.input, dtype=np.int64).reshape(n, ih, iw, ic) + c.input_offset
    f = np.asarray(c.filter, dtype=np.int64).reshape(oc, kh, kw, ic)
    sw, sh = c.stride
    pw, ph = c.padding
    acc = np.zeros((n, oh, ow, oc), dtype=np.int64)
    if c.bias is not None:
        acc += np.asarray(c.bias, dtype=np.int64)
    for b in range(n):
        for iy in range(ih):
            for ix in range(iw):
                for ky in range(kh):
                    for kx in range(kw):
                        y, xo = iy * sh + ky - ph, ix * sw + kx - pw
                        if 0 <= y < oh and 0 <= xo < ow:
                            acc[b, y, xo] += f[:, ky, kx, :] @ x[b, iy, ix]
    out = np.zeros_like(acc)
    for index in np.ndindex(acc.shape):
        o = index[3]
        v = requantize(wrap32(int(acc[index])), int(c.mult[o]), int(c.shift[o])) + c.output_offset
        out[index] = clamp(v, *c.act)
    return out.reshape(-1)
# ==== int16 element-wise, activation, softmax and conversion kernels ============================

INT16_MIN, INT16_MAX = -(2**15), 2**15 - 1


def wrap16(x: int) -> int:
    """The low 16 bits of x as a signed value (what storing into an int16_t does)."""
    return ((x + 2**15) % 2**16) - 2**15


def add_sub_s16(q, a, b, subtract: bool) -> np.ndarray:
    """TFLite's general int16 ADD/SUB: inputs have zero point 0, so the offsets in q play no part."""
    (_, m1, s1, _, m2, s2, ls, _, om, os_, lo, hi) = q
    res = []
    for x, y in zip(np.asarray(a).reshape(-1), np.asarray(b).reshape(-1)):
        xa = requantize(int(x) << ls, m1, s1)
        yb = requantize(int(y) << ls, m2, s2)
        res.append(clamp(requantize(xa - yb if subtract else xa + yb, om, os_), lo, hi))
    return np.array(res, dtype=np.int64)


def mul_s16(q, a, b) -> np.ndarray:
    (_, _, _, om, os_, lo, hi) = q
    return np.array([clamp(requantize(int(x) * int(y), om, os_), lo, hi)
                     for x, y in zip(np.asarray(a).reshape(-1), np.asarray(b).reshape(-1))], dtype=np.int64)


def lut_lookup_s16(lut, value: int) -> int:
    """TFLite's generic_int16_table_lookup: the top 9 bits of value + 32768 pick an entry, the low 7
    interpolate linearly towards the next (Q0.15 results, 16-bit intermediate values)."""
    index = 256 + (value >> 7)
    offset = value & 0x7F
    base = int(lut[index])
    slope = wrap16(int(lut[index + 1]) - base)
    delta = wrap16((slope * offset + 64) >> 7)
    return wrap16(base + delta)


def softmax_s16(rows: int, row_size: int, mult: int, shift: int, exp_lut, recip_lut, data) -> np.ndarray:
    """TFLite's SoftmaxInt16 with ns-cmsis-nn's two 16-bit wraps where TFLite saturates: the
    reciprocal table input (when the normalised sum rounds up to 2^17) and the output (a
    probability that rounds to 1.0, 32768, reads as -32768)."""
    x = np.asarray(data, dtype=np.int64).reshape(rows, row_size)
    out = np.zeros((rows, row_size), dtype=np.int64)
    for r in range(rows):
        mx = int(x[r].max())
        exps = []
        for v in x[r]:
            scaled = requantize(int(v) - mx, mult, shift)          # -65535 stands for -10.0
            exps.append(lut_lookup_s16(exp_lut, clamp(scaled + 32767, INT16_MIN, INT16_MAX)))
        total = sum(exps)
        headroom = 32 - total.bit_length()                        # count of leading zeros
        normalised = ((total << (headroom - 1)) + (1 << 13)) >> 14  # total in [2^16, 2^17]
        reciprocal = lut_lookup_s16(recip_lut, wrap16(normalised - (1 << 16) - (1 << 15)))
        for i, e in enumerate(exps):
            out[r, i] = wrap16((((e * reciprocal) >> (30 - headroom)) + 1) >> 1)  # rounded
    return out.reshape(-1)


def sigmoid_table() -> list[int]:
    """The 256-entry sigmoid(i / 24) table (TFLite's sigmoid_table_uint16) as the portable kernels hold it."""
    import re
    from pathlib import Path
    source = (Path(__file__).resolve().parents[2] / "kernels" / "portable" / "src" / "activation" /
              "sigmoid_tanh_s16.c").read_text()
    body = source.split("sigmoid_table[256] = {", 1)[1].split("};", 1)[0]
    body = re.sub(r"/\*.*?\*/", "", body)
    return [int(v) for v in re.findall(r"\d+", body)]


def logistic_tanh_s16(data, input_multiplier: int, input_left_shift: int, is_tanh: bool, table) -> np.ndarray:
    """TFLite's reference_integer_ops::Logistic / Tanh for int16 (Q0.15 outputs)."""
    if input_multiplier == 0:  # power-of-two input scale
        input_multiplier, input_left_shift = 3 << input_left_shift, 0
    rounding = (1 << (input_left_shift - 1)) if input_left_shift > 0 else 0
    step_bits = 8 if is_tanh else 9
    out = []
    for v in np.asarray(data).reshape(-1):
        x = (int(v) * input_multiplier + rounding) >> input_left_shift
        step, fraction = abs(x) >> step_bits, abs(x) & ((1 << step_bits) - 1)
        if step >= 255:
            value = (0xFFFF << 8) if is_tanh else (0x7FFF << 10)
        else:
            value = (table[step] << step_bits) + fraction * (table[step + 1] - table[step])
        if is_tanh:
            result = (value - (1 << 23) + (1 << 7)) if x >= 0 else ((1 << 23) - value + (1 << 7) - 1)
            result = (result % 2**32) >> 8
        else:
            result = (value + (1 << 9)) if x >= 0 else ((1 << 25) - value + (1 << 9) - 1)
            result >>= 10
        out.append(wrap16(result))
    return np.array(out, dtype=np.int64)


def round_half_away(x: float) -> int:
    return int(np.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def quantize_f32_s16(values, zero_point: int, scale: float) -> np.ndarray:
    """TFLite's AffineQuantize: round(x / scale) + zero point, the division in float32."""
    q = np.asarray(values, dtype=np.float32) / np.float32(scale)
    return np.array([clamp(round_half_away(float(v)) + zero_point, INT16_MIN, INT16_MAX) for v in q], dtype=np.int64)


def dequantize_s16_f32(data, zero_point: int, scale: float) -> np.ndarray:
    return (np.asarray(data, dtype=np.int64) - zero_point).astype(np.float32) * np.float32(scale)

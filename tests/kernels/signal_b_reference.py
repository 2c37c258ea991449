# SPDX-License-Identifier: Apache-2.0
"""Python references of TFLM's SignalRfft, SignalFilterBankSpectralSubtraction, SignalPCAN and
SignalFilterBankLog, written from their arithmetic (TFLM's signal/src and kiss fft v1.3.0), one
scalar at a time with the C types' wrap-around, for the kernel tests (test_signal_b.py)."""

from __future__ import annotations

import math

import numpy as np

from helia_aot.ops.shared import signal_fft as fft_tables


def wrap(value: int, bits: int) -> int:
    """value as a two's complement integer of `bits` bits."""
    half = 1 << (bits - 1)
    return ((value + half) & ((1 << bits) - 1)) - half


def u32(value: int) -> int:
    return value & 0xFFFFFFFF


def u64(value: int) -> int:
    return value & 0xFFFFFFFFFFFFFFFF


# ---- SignalRfft ----------------------------------------------------------------------------------------

class _Fixed:
    """kiss fft's FIXED_POINT arithmetic: samples of `bits` bits, products rounded in Q(bits - 1).

    int16 sums are C ints (halved before they wrap); int32 sums wrap at 32 bits first."""

    def __init__(self, bits: int):
        self.bits = bits
        self.frac = bits - 1
        self.max = (1 << (bits - 1)) - 1

    def s(self, v):
        return wrap(v, self.bits)

    def add(self, a, b):
        return self.s(a + b)

    def sub(self, a, b):
        return self.s(a - b)

    def neg(self, a):
        return self.s(-a)

    def round(self, x):
        return self.s((x + (1 << (self.frac - 1))) >> self.frac)

    def mul(self, a, b):
        return self.round(a * b)

    def half(self, x):
        return x >> 1

    def half_sum(self, a, b):
        return self.s((a + b) >> 1) if self.bits == 16 else self.add(a, b) >> 1

    def half_diff(self, a, b):
        return self.s((a - b) >> 1) if self.bits == 16 else self.sub(a, b) >> 1

    def cmul(self, a, b):
        return (self.round(a[0] * b[0] - a[1] * b[1]), self.round(a[0] * b[1] + a[1] * b[0]))

    def fixdiv(self, c, p):
        k = self.max // p
        return (self.round(c[0] * k), self.round(c[1] * k))

    def scale(self, c, s):
        return (self.mul(c[0], s), self.mul(c[1], s))

    def zero(self):
        return 0


class _Float:
    """kiss fft's float arithmetic: float32, one rounding per operation."""

    f = np.float32

    def add(self, a, b):
        return self.f(a + b)

    def sub(self, a, b):
        return self.f(a - b)

    def neg(self, a):
        return self.f(-a)

    def mul(self, a, b):
        return self.f(a * b)

    def half(self, x):
        return self.f(x * self.f(0.5))

    def half_sum(self, a, b):
        return self.half(self.add(a, b))

    def half_diff(self, a, b):
        return self.half(self.sub(a, b))

    def cmul(self, a, b):
        return (self.sub(self.mul(a[0], b[0]), self.mul(a[1], b[1])),
                self.add(self.mul(a[0], b[1]), self.mul(a[1], b[0])))

    def fixdiv(self, c, p):
        return c

    def scale(self, c, s):
        return (self.mul(c[0], s), self.mul(c[1], s))

    def zero(self):
        return self.f(0.0)


ARITHMETIC = {"int16": _Fixed(16), "int32": _Fixed(32), "float32": _Float()}


def _cadd(a, x, y):
    return (a.add(x[0], y[0]), a.add(x[1], y[1]))


def _csub(a, x, y):
    return (a.sub(x[0], y[0]), a.sub(x[1], y[1]))


def _butterflies(a, out, tw, n, stride, p, m):
    """One kiss fft butterfly of radix p over out (a list of complex tuples, changed in place)."""
    if p == 2:
        for k in range(m):
            x, y = a.fixdiv(out[k], 2), a.fixdiv(out[k + m], 2)
            t = a.cmul(y, tw[k * stride])
            out[k + m], out[k] = _csub(a, x, t), _cadd(a, x, t)
    elif p == 3:
        epi3 = tw[stride * m][1]
        for k in range(m):
            x0, x1, x2 = (a.fixdiv(out[k + j * m], 3) for j in range(3))
            s1, s2 = a.cmul(x1, tw[k * stride]), a.cmul(x2, tw[2 * k * stride])
            s3, s0 = _cadd(a, s1, s2), a.scale(_csub(a, s1, s2), epi3)
            y1 = (a.sub(x0[0], a.half(s3[0])), a.sub(x0[1], a.half(s3[1])))
            out[k] = _cadd(a, x0, s3)
            out[k + 2 * m] = (a.add(y1[0], s0[1]), a.sub(y1[1], s0[0]))
            out[k + m] = (a.sub(y1[0], s0[1]), a.add(y1[1], s0[0]))
    elif p == 4:
        for k in range(m):
            x0, x1, x2, x3 = (a.fixdiv(out[k + j * m], 4) for j in range(4))
            s0, s1, s2 = a.cmul(x1, tw[k * stride]), a.cmul(x2, tw[2 * k * stride]), a.cmul(x3, tw[3 * k * stride])
            s5 = _csub(a, x0, s1)
            x0 = _cadd(a, x0, s1)
            s3, s4 = _cadd(a, s0, s2), _csub(a, s0, s2)
            out[k + 2 * m] = _csub(a, x0, s3)
            out[k] = _cadd(a, x0, s3)
            out[k + m] = (a.add(s5[0], s4[1]), a.sub(s5[1], s4[0]))
            out[k + 3 * m] = (a.sub(s5[0], s4[1]), a.add(s5[1], s4[0]))
    elif p == 5:
        ya, yb = tw[stride * m], tw[2 * stride * m]
        for u in range(m):
            x = [a.fixdiv(out[u + j * m], 5) for j in range(5)]
            s = [x[0]] + [a.cmul(x[j], tw[j * u * stride]) for j in range(1, 5)]
            s7, s10, s8, s9 = _cadd(a, s[1], s[4]), _csub(a, s[1], s[4]), _cadd(a, s[2], s[3]), _csub(a, s[2], s[3])
            y0 = (a.add(x[0][0], a.add(s7[0], s8[0])), a.add(x[0][1], a.add(s7[1], s8[1])))
            s5 = tuple(a.add(a.add(x[0][j], a.mul(s7[j], ya[0])), a.mul(s8[j], yb[0])) for j in range(2))
            s6 = (a.add(a.mul(s10[1], ya[1]), a.mul(s9[1], yb[1])),
                  a.sub(a.neg(a.mul(s10[0], ya[1])), a.mul(s9[0], yb[1])))
            s11 = tuple(a.add(a.add(x[0][j], a.mul(s7[j], yb[0])), a.mul(s8[j], ya[0])) for j in range(2))
            s12 = (a.add(a.neg(a.mul(s10[1], yb[1])), a.mul(s9[1], ya[1])),
                   a.sub(a.mul(s10[0], yb[1]), a.mul(s9[0], ya[1])))
            out[u] = y0
            out[u + m], out[u + 4 * m] = _csub(a, s5, s6), _cadd(a, s5, s6)
            out[u + 2 * m], out[u + 3 * m] = _cadd(a, s11, s12), _csub(a, s11, s12)
    else:
        for u in range(m):
            work = [a.fixdiv(out[u + q * m], p) for q in range(p)]
            for q1 in range(p):
                k = u + q1 * m
                index, y = 0, work[0]
                for q in range(1, p):
                    index = (index + stride * k) % n
                    y = _cadd(a, y, a.cmul(work[q], tw[index]))
                out[k] = y


def _complex_fft(a, x, tw, n, plan):
    """kiss fft's decimation in time: out = DFT(x) of n points along plan [(p, m), ...]."""
    def stage(offset, stride, depth):
        p, m = plan[depth]
        if m == 1:
            out = [x[offset + q * stride] for q in range(p)]
        else:
            out = []
            for q in range(p):
                out += stage(offset + q * stride, stride * p, depth + 1)
        _butterflies(a, out, tw, n, stride, p, m)
        return out
    return stage(0, 1, 0)


def rfft(frame: np.ndarray, fft_length: int, dtype: str) -> np.ndarray:
    """TFLM's SignalRfft of one frame (zero-padded to fft_length): fft_length + 2 values (re, im)."""
    a = ARITHMETIC[dtype]
    n = fft_length // 2
    tw = [tuple(r) for r in fft_tables.twiddles(n, dtype).tolist()]
    split = [tuple(r) for r in fft_tables.split_twiddles(n, dtype).tolist()]
    if dtype == "float32":
        tw = [(np.float32(r), np.float32(i)) for r, i in tw]
        split = [(np.float32(r), np.float32(i)) for r, i in split]
        samples = [np.float32(v) for v in frame]
    else:
        samples = [int(v) for v in frame]
    samples += [a.zero()] * (fft_length - len(samples))
    x = [(samples[2 * j], samples[2 * j + 1]) for j in range(n)]
    spectrum = _complex_fft(a, x, tw, n, fft_tables.factors(n))
    out = [None] * (n + 1)
    dc = a.fixdiv(spectrum[0], 2)
    out[0] = (a.add(dc[0], dc[1]), a.zero())
    out[n] = (a.sub(dc[0], dc[1]), a.zero())
    for k in range(1, n // 2 + 1):
        mirror = (spectrum[n - k][0], a.neg(spectrum[n - k][1]))
        fk, fnk = a.fixdiv(spectrum[k], 2), a.fixdiv(mirror, 2)
        even, t = _cadd(a, fk, fnk), a.cmul(_csub(a, fk, fnk), split[k - 1])
        out[k] = (a.half_sum(even[0], t[0]), a.half_sum(even[1], t[1]))
        out[n - k] = (a.half_diff(even[0], t[0]), a.half_diff(t[1], even[1]))
    return np.array([v for c in out for v in c], dtype=fft_tables.NUMPY_TYPES[dtype])


# ---- SignalFilterBankSpectralSubtraction ---------------------------------------------------------------

def spectral_subtraction(frames, options: dict) -> list[tuple[np.ndarray, np.ndarray]]:
    """(output, noise estimate) per frame, the estimate carried from frame to frame from zeros."""
    channels = options["num_channels"]
    bits, scale = options["smoothing_bits"], options["spectral_subtraction_bits"]
    state = [0] * channels
    results = []
    for frame in frames:
        out = []
        for i in range(channels):
            x = int(frame[i])
            smoothing = options["alternate_smoothing" if i & 1 else "smoothing"]
            keep = options["alternate_one_minus_smoothing" if i & 1 else "one_minus_smoothing"]
            signal = u32(x << bits)
            state[i] = u32(u64(signal * smoothing + state[i] * keep) >> scale)
            estimate = state[i]
            if estimate > signal:
                estimate = signal
                if options["clamping"]:
                    state[i] = signal
            floor = u32((x * options["min_signal_remaining"]) >> scale)
            out.append(max((signal - estimate) >> bits, floor))
        results.append((np.array(out, dtype=np.uint32), np.array(state, dtype=np.uint32)))
    return results


# ---- SignalPCAN ----------------------------------------------------------------------------------------

def pcan_gain(x: int, lut) -> int:
    """The int16 gain for noise level x: the table below 3, else the quadratic of x's octave."""
    if x <= 2:
        return int(lut[x])
    octave = x.bit_length()
    c = [int(v) for v in lut[4 * octave - 6:4 * octave - 3]]
    frac = ((x << (11 - octave)) if octave < 11 else (x >> (octave - 11))) & 0x3FF
    result = ((c[2] * frac) >> 5) + c[1] * 32
    result = (result * frac + (1 << 14)) >> 15
    return wrap(result + c[0], 16)


def pcan(signal, noise, lut, snr_shift: int) -> np.ndarray:
    out = []
    for x, n in zip(signal, noise):
        gain = u32(pcan_gain(int(n), lut))
        snr = u32((int(x) * gain) >> snr_shift)
        out.append((snr * snr) >> 20 if snr < 2 << 12 else (snr >> 6) - 64)
    return np.array(out, dtype=np.uint32)


# ---- SignalFilterBankLog -------------------------------------------------------------------------------

LOG2_CORRECTION = [math.floor(65536 * (math.log2(1 + i / 128) - i / 128) + 0.5) for i in range(129)]


def scaled_ln(x: int, out_scale: int) -> int:
    """TFLM's Log32: ln(x) * out_scale from a Q16 log2 with a 128-segment corrected fraction."""
    whole = x.bit_length() - 1
    frac = x - (1 << whole)
    frac = frac << (16 - whole) if whole < 16 else frac >> (whole - 16)
    seg = frac >> 9
    c0, c1 = LOG2_CORRECTION[seg], LOG2_CORRECTION[seg + 1]
    fraction = u32(frac + c0 + (((c1 - c0) * (frac - 512 * seg)) >> 16))
    log2 = u32((whole << 16) + fraction)
    ln = u32((45426 * log2 + 32768) >> 16)
    return u32(out_scale * ln + 32768) >> 16


def filter_bank_log(signal, output_scale: int, correction_bits: int) -> np.ndarray:
    out = []
    for x in signal:
        scaled = u32(int(x) << correction_bits)
        out.append(min(scaled_ln(scaled, u32(output_scale)), 32767) if scaled > 1 else 0)
    return np.array(out, dtype=np.int16)

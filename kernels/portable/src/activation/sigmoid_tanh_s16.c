/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: int16 LOGISTIC and TANH by interpolation in one sigmoid table. */

/*
 * The table holds sigmoid(i / 24) for i = 0..255 in unsigned Q0.16; it is TensorFlow Lite's
 * sigmoid_table_uint16 (tensorflow/lite/kernels/internal/common.h, Apache-2.0), which its int16
 * LOGISTIC and TANH reference kernels use. The values are tuned for linear interpolation (they are
 * not plain roundings of sigmoid), so they are data to reproduce, not something to recompute.
 *
 * With the input rescaled so that 24 table steps span 1.0 for sigmoid (512 units per step) and 2.0
 * for tanh (256 units per step, since tanh(x) = 2 sigmoid(2x) - 1), only |x| is looked up; the
 * negative half follows from sigmoid(-x) = 1 - sigmoid(x) and tanh(-x) = -tanh(x). Rounding offsets
 * and the uint32 arithmetic below reproduce TFLite's kernels (and ns-cmsis-nn's) exactly.
 */

#include "sigmoid_tanh_s16.h"

#include "../support/fixed_point.h"

static const uint16_t sigmoid_table[256] = {
    /*   0 */ 32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
    /*  12 */ 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
    /*  24 */ 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
    /*  36 */ 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    /*  48 */ 57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    /*  60 */ 60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
    /*  72 */ 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
    /*  84 */ 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    /*  96 */ 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
    /* 108 */ 64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    /* 120 */ 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    /* 132 */ 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    /* 144 */ 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    /* 156 */ 65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
    /* 168 */ 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    /* 180 */ 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    /* 192 */ 65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
    /* 204 */ 65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
    /* 216 */ 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
    /* 228 */ 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    /* 240 */ 65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    /* 252 */ 65534, 65534, 65534, 65535,};

void helia_sigmoid_tanh_s16(const int16_t *input,
                            int16_t *output,
                            int32_t size,
                            int32_t multiplier,
                            int32_t right_shift,
                            int is_tanh)
{
    /* Fraction bits below one table step, and the interpolated value when |x| is past the table. */
    const uint32_t step_bits = is_tanh ? 8u : 9u;
    const uint32_t step_mask = (1u << step_bits) - 1u;
    const uint32_t saturated = is_tanh ? 0xFFFFu << 8 : 0x7FFFu << 10;
    const int32_t rounding = right_shift > 0 ? 1 << (right_shift - 1) : 0;

    for (int32_t i = 0; i < size; ++i)
    {
        const int32_t x = helia_add_wrapping(helia_mul_wrapping(input[i], multiplier), rounding) >> right_shift;
        const uint32_t magnitude = x >= 0 ? (uint32_t)x : 0u - (uint32_t)x;
        const uint32_t step = magnitude >> step_bits;

        /* sigmoid(|x|) in Q0.16 times one table step (2^step_bits). */
        uint32_t value = saturated;
        if (step < 255u)
        {
            const uint32_t low = sigmoid_table[step];
            const uint32_t high = sigmoid_table[step + 1u];
            value = (low << step_bits) + (magnitude & step_mask) * (high - low);
        }

        uint32_t result;
        if (is_tanh)
        {
            /* 2 sigmoid - 1 = (value - 2^23) / 2^23, to Q0.15 with round half up (down for negatives). */
            result = x >= 0 ? value - (1u << 23) + (1u << 7) : (1u << 23) - value + (1u << 7) - 1u;
            result >>= 8;
        }
        else
        {
            /* value / 2^25 to Q0.15; for negative x, 1 - sigmoid(|x|). */
            result = x >= 0 ? value + (1u << 9) : (1u << 25) - value + (1u << 9) - 1u;
            result >>= 10;
        }
        output[i] = helia_wrap_s16((int32_t)result);
    }
}

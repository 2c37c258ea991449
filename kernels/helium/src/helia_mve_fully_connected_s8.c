/* SPDX-License-Identifier: Apache-2.0 */
/* int8 FULLY_CONNECTED with per-tensor requantization on Helium: per batch row, the input vector times
 * each filter row.
 *
 * Four filter rows per pass over the input: each sixteen-byte input load feeds four VMLADAVA
 * accumulations (five loads per four 16-lane multiply-accumulates), in a tail-predicated loop
 * (WLSTP / LETP), so any depth runs with no remainder loop. The four sums form one vector, requantized
 * with the layer's single multiplier and shift (hoisted out of every loop) and stored as four
 * contiguous bytes. A last group of one to three rows repeats its last row and stores only its own
 * lanes. The common case's whole groups run in one asm loop (groups_right_shift); the rest in C.
 *
 * Offsets: sum((x + input_offset) * (w + filter_offset)) = sum(x * w) + filter_offset * sum(x)
 *          + [bias + input_offset * (sum(w) + depth * filter_offset)].
 * The bracket is per row and constant: ns-cmsis-nn's MVE kernel sums (ctx->buf, which a module for its
 * MVE build precomputes), else summed here per row. sum(x) is needed only when filter_offset is not 0,
 * once per batch row. All of it wraps modulo 2^32 like the reference's int32 accumulator. */

#include "helia_helium.h"

#if HELIA_HELIUM_AVAILABLE

#include <arm_mve.h>
#include <stddef.h>

#include "mve_requantize.h"

/* Sum of n int8 values, wrapping. */
HELIA_MVE_INLINE uint32_t sum_s8(const int8_t *p, int32_t n)
{
    int32_t sum = 0;
    for (int32_t k = 0; k < n; k += 16)
    {
        const mve_pred16_t lanes = vctp8q((uint32_t)(n - k));
        sum = vaddvaq_p_s8(sum, vldrbq_z_s8(p + k, lanes), lanes);
    }
    return (uint32_t)sum;
}

/* Four dot products of x with rows w0..w3 over depth bytes, on top of the starting values a0..a3;
 * returned as one vector (lane i for row i). */
HELIA_MVE_INLINE int32x4_t dot_4(const int8_t *x, const int8_t *w0, const int8_t *w1, const int8_t *w2,
                                 const int8_t *w3, int32_t depth, int32_t a0, int32_t a1, int32_t a2, int32_t a3)
{
    int32x4_t sums;
    /* Inactive lanes of the last step load zeros and add nothing. */
    __asm volatile("   wlstp.8         lr, %[count], 1f         \n"
                   "2:                                          \n"
                   "   vldrb.8         q0, [%[x]], #16          \n"
                   "   vldrb.8         q1, [%[w0]], #16         \n"
                   "   vmladava.s8     %[a0], q0, q1            \n"
                   "   vldrb.8         q2, [%[w1]], #16         \n"
                   "   vmladava.s8     %[a1], q0, q2            \n"
                   "   vldrb.8         q1, [%[w2]], #16         \n"
                   "   vmladava.s8     %[a2], q0, q1            \n"
                   "   vldrb.8         q2, [%[w3]], #16         \n"
                   "   vmladava.s8     %[a3], q0, q2            \n"
                   "   letp            lr, 2b                   \n"
                   "1:                                          \n"
                   "   vmov            %q[sums][2], %q[sums][0], %[a0], %[a2] \n"
                   "   vmov            %q[sums][3], %q[sums][1], %[a1], %[a3] \n"
                   : [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3), [a0] "+Te"(a0),
                     [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3), [sums] "=w"(sums)
                   : [count] "r"(depth)
                   : "q0", "q1", "q2", "memory", "r14");
    return sums;
}

/* Row `row`'s constant term when the module passed no kernel sums:
 * bias + input_offset * (sum(w) + depth * filter_offset). */
HELIA_MVE_INLINE int32_t row_start(const int32_t *bias, const int8_t *filter, int32_t depth, int32_t row,
                                   int32_t input_offset, int32_t filter_offset)
{
    const uint32_t w_sum = sum_s8(filter + (size_t)row * depth, depth) + (uint32_t)depth * (uint32_t)filter_offset;
    return (int32_t)((bias != NULL ? (uint32_t)bias[row] : 0u) + (uint32_t)input_offset * w_sum);
}

typedef struct
{
    int32x4_t multiplier, left, neg_right, act_min, act_max;
    int32_t with_left, output_offset, input_offset, filter_offset, depth, rows;
    const int32_t *kernel_sums; /* NULL: the rows' constant terms are summed here */
    const int32_t *bias;
} fc_state;

/* The four sums (plus x_term, filter_offset * sum(x)) requantized, offset and clamped. */
HELIA_MVE_INLINE int32x4_t finish(const fc_state *s, int32x4_t acc, int32_t with_x_term, int32_t x_term,
                                  int32_t with_left)
{
    if (with_x_term)
    {
        acc = vaddq_n_s32(acc, x_term);
    }
    acc = helia_mve_requantize_q(acc, s->multiplier, s->left, s->neg_right, with_left);
    return vminq_s32(vmaxq_s32(vaddq_n_s32(acc, s->output_offset), s->act_min), s->act_max);
}

/* HELIA_MVE_FC_ASM=0 leaves the asm group loop out (the parity test's check of what -O0 runs). */
#if !defined(HELIA_MVE_FC_ASM)
#if defined(__OPTIMIZE__)
#define HELIA_MVE_FC_ASM 1
#else
#define HELIA_MVE_FC_ASM 0
#endif
#endif

#if HELIA_MVE_FC_ASM
/* The common case's whole groups of four rows (the module's kernel sums, filter offset 0, a right
 * shift) in one asm loop: GCC kept the group loop's pointers and counters on the stack (about 30
 * instructions per group besides the dot products; 20 here). It takes all of r0-r12, so it is built
 * only when optimizing (at -O0 r7 is the frame pointer and every group runs batch_row). Per group: the
 * four kernel sums start the accumulators, the dot products, x rewound, then the requantization as
 * helia_mve_requantize_q with every lane shifting right (the rounding correction is the sign), the
 * offset, the clamp and a 4-byte store. The dot-product loop comes in three forms (FC_LOOP_*): depth a
 * multiple of 32, two unpredicated steps per iteration (one loop-end per 32 bytes, not per 16); a
 * multiple of 16, x and the rows end exactly `depth` on; any depth, tail-predicated, the pointers
 * having moved on by depth rounded up to 16. */
#define FC_STEP(x_reg)                                                                                               \
    "   vldrb.8         " x_reg ", [%[x]], #16   \n"                                                                 \
    "   vldrb.8         q1, [%[w0]], #16         \n"                                                                 \
    "   vmladava.s8     %[a0], " x_reg ", q1     \n"                                                                 \
    "   vldrb.8         q1, [%[w1]], #16         \n"                                                                 \
    "   vmladava.s8     %[a1], " x_reg ", q1     \n"                                                                 \
    "   vldrb.8         q1, [%[w2]], #16         \n"                                                                 \
    "   vmladava.s8     %[a2], " x_reg ", q1     \n"                                                                 \
    "   vldrb.8         q1, [%[w3]], #16         \n"                                                                 \
    "   vmladava.s8     %[a3], " x_reg ", q1     \n"
#define FC_LOOP_32                                                                                                   \
    "   lsr             %[w1], %[depth], #5      \n"                                                                 \
    "   dls             lr, %[w1]                \n"                                                                 \
    "   add             %[w1], %[w0], %[depth]   \n"                                                                 \
    "   add             %[w2], %[w1], %[depth]   \n"                                                                 \
    "   add             %[w3], %[w2], %[depth]   \n"                                                                 \
    "2:                                          \n" FC_STEP("q0") FC_STEP("q0") "   le              lr, 2b      \n" \
    "   sub             %[x], %[x], %[depth]     \n"                                                                 \
    "   mov             %[w0], %[w3]             \n"
#define FC_LOOP_16                                                                                                   \
    "   add             %[w1], %[w0], %[depth]   \n"                                                                 \
    "   add             %[w2], %[w1], %[depth]   \n"                                                                 \
    "   add             %[w3], %[w2], %[depth]   \n"                                                                 \
    "   wlstp.8         lr, %[depth], 3f         \n"                                                                 \
    "2:                                          \n" FC_STEP("q0") "   letp            lr, 2b      \n"               \
    "3:                                          \n"                                                                 \
    "   sub             %[x], %[x], %[depth]     \n"                                                                 \
    "   mov             %[w0], %[w3]             \n"
#define FC_LOOP_ANY                                                                                                  \
    "   add             %[w1], %[w0], %[depth]   \n"                                                                 \
    "   add             %[w2], %[w1], %[depth]   \n"                                                                 \
    "   add             %[w3], %[w2], %[depth]   \n"                                                                 \
    "   wlstp.8         lr, %[depth], 3f         \n"                                                                 \
    "2:                                          \n" FC_STEP("q0") "   letp            lr, 2b      \n"               \
    "3:                                          \n"                                                                 \
    "   add             %[w0], %[depth], #15     \n"                                                                 \
    "   bic             %[w0], %[w0], #15        \n"                                                                 \
    "   sub             %[x], %[x], %[w0]        \n"                                                                 \
    "   sub             %[w0], %[w0], %[depth]   \n"                                                                 \
    "   sub             %[w0], %[w3], %[w0]      \n"
#define FC_GROUPS(loop)                                                                                              \
    __asm volatile("1:                                          \n"                                                  \
                   "   ldrd            %[a0], %[a1], [%[ks]], #8 \n"                                                 \
                   "   ldrd            %[a2], %[a3], [%[ks]], #8 \n" loop                                            \
                   "   vmov            q0[2], q0[0], %[a0], %[a2] \n"                                                \
                   "   vmov            q0[3], q0[1], %[a1], %[a3] \n"                                                \
                   "   vqrdmulh.s32    q0, q0, %q[mult]         \n"                                                  \
                   "   vshr.s32        q1, q0, #31              \n"                                                  \
                   "   vqadd.s32       q0, q0, q1               \n"                                                  \
                   "   vrshl.s32       q0, q0, %q[right]        \n"                                                  \
                   "   vadd.i32        q0, q0, %q[offset]       \n"                                                  \
                   "   vmax.s32        q0, q0, %q[lo]           \n"                                                  \
                   "   vmin.s32        q0, q0, %q[hi]           \n"                                                  \
                   "   vstrb.32        q0, [%[out]], #4         \n" /* a low register: VSTRB.32 takes no other */ \
                   "   subs            %[groups], %[groups], #1 \n"                                                  \
                   "   bne             1b                       \n"                                                  \
                   : [x] "+r"(x), [w0] "+r"(w), [ks] "+r"(kernel_sums), [out] "+l"(out), [groups] "+r"(groups),   \
                     [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [a0] "=&Te"(a0), [a1] "=&Te"(a1),          \
                     [a2] "=&Te"(a2), [a3] "=&Te"(a3)                                                              \
                   : [depth] "r"(depth), [mult] "w"(multiplier), [right] "w"(neg_right),                           \
                     [offset] "w"(output_offset), [lo] "w"(act_min), [hi] "w"(act_max)                             \
                   : "q0", "q1", "memory", "r14", "cc")

static void groups_right_shift(const int8_t *x, const int8_t *w, const int32_t *kernel_sums, int8_t *out,
                               int32_t depth, int32_t groups, int32x4_t multiplier, int32x4_t neg_right,
                               int32x4_t output_offset, int32x4_t act_min, int32x4_t act_max)
{
    const int8_t *w1, *w2, *w3;
    int32_t a0, a1, a2, a3;
    if (depth % 32 == 0)
    {
        FC_GROUPS(FC_LOOP_32);
    }
    else if (depth % 16 == 0)
    {
        FC_GROUPS(FC_LOOP_16);
    }
    else
    {
        FC_GROUPS(FC_LOOP_ANY);
    }
}
#endif

/* One batch row from row r on. with_sums, with_x_term and with_left are constants at each call, so the loop carries no
 * branch on them. */
HELIA_MVE_INLINE void batch_row(const fc_state *s, const int8_t *x, const int8_t *filter, int8_t *out, int32_t r,
                                int32_t with_sums, int32_t with_x_term, int32_t with_left)
{
    const int32_t depth = s->depth;
    const int32_t rows = s->rows;
    const int32_t x_term = with_x_term ? (int32_t)((uint32_t)s->filter_offset * sum_s8(x, depth)) : 0;
    const int8_t *w = filter + (size_t)r * depth;
    out += r;
    for (; r + 4 <= rows; r += 4)
    {
        int32_t a0, a1, a2, a3;
        if (with_sums)
        {
            a0 = s->kernel_sums[r];
            a1 = s->kernel_sums[r + 1];
            a2 = s->kernel_sums[r + 2];
            a3 = s->kernel_sums[r + 3];
        }
        else
        {
            a0 = row_start(s->bias, filter, depth, r, s->input_offset, s->filter_offset);
            a1 = row_start(s->bias, filter, depth, r + 1, s->input_offset, s->filter_offset);
            a2 = row_start(s->bias, filter, depth, r + 2, s->input_offset, s->filter_offset);
            a3 = row_start(s->bias, filter, depth, r + 3, s->input_offset, s->filter_offset);
        }
        const int32x4_t acc = dot_4(x, w, w + depth, w + 2 * depth, w + 3 * depth, depth, a0, a1, a2, a3);
        vstrbq_s32(out, finish(s, acc, with_x_term, x_term, with_left));
        out += 4;
        w += 4 * depth;
    }
    if (r < rows)
    {
        /* One to three rows: the group repeats its last row, whose copies are not stored. */
        const int32_t rest = rows - r;
        const int32_t r1 = rest > 1 ? r + 1 : r;
        const int32_t r2 = rest > 2 ? r + 2 : r1;
        const int32_t a0 = with_sums ? s->kernel_sums[r] : row_start(s->bias, filter, depth, r, s->input_offset,
                                                                     s->filter_offset);
        const int32_t a1 = with_sums ? s->kernel_sums[r1] : row_start(s->bias, filter, depth, r1, s->input_offset,
                                                                      s->filter_offset);
        const int32_t a2 = with_sums ? s->kernel_sums[r2] : row_start(s->bias, filter, depth, r2, s->input_offset,
                                                                      s->filter_offset);
        const int8_t *const w1 = filter + (size_t)r1 * depth;
        const int8_t *const w2 = filter + (size_t)r2 * depth;
        const int32x4_t acc = dot_4(x, w, w1, w2, w2, depth, a0, a1, a2, a2);
        vstrbq_p_s32(out, finish(s, acc, with_x_term, x_term, with_left), vctp32q((uint32_t)rest));
    }
}

arm_cmsis_nn_status helia_mve_fully_connected_s8(const cmsis_nn_context *ctx,
                                                 const cmsis_nn_fc_params *fc_params,
                                                 const cmsis_nn_per_tensor_quant_params *quant_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const int8_t *input_data,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const int8_t *filter_data,
                                                 const cmsis_nn_dims *bias_dims,
                                                 const int32_t *bias_data,
                                                 const cmsis_nn_dims *output_dims,
                                                 int8_t *output_data)
{
    (void)bias_dims;
    const int32_t depth = filter_dims->n;
    const int32_t rows = output_dims->c;
    const int32_t batches = input_dims->n;
    const int32_t shift = quant_params->shift;
    if (depth < 1 || rows < 1 || batches < 0 || fc_params->input_offset < -127 || fc_params->input_offset > 128 ||
        fc_params->filter_offset < -127 || fc_params->filter_offset > 128 || fc_params->output_offset < -128 ||
        fc_params->output_offset > 127 || fc_params->activation.min < -128 || fc_params->activation.max > 127 ||
        fc_params->activation.min > fc_params->activation.max || shift < -31 || shift > 30)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    fc_state s;
    const int32_t left = shift > 0 ? shift : 0;
    s.multiplier = vdupq_n_s32(quant_params->multiplier);
    s.left = vdupq_n_s32(left);
    s.neg_right = vdupq_n_s32(shift - left);
    s.act_min = vdupq_n_s32(fc_params->activation.min);
    s.act_max = vdupq_n_s32(fc_params->activation.max);
    s.with_left = left != 0;
    s.output_offset = fc_params->output_offset;
    s.input_offset = fc_params->input_offset;
    s.filter_offset = fc_params->filter_offset;
    s.depth = depth;
    s.rows = rows;
    s.kernel_sums = ctx != NULL && ctx->buf != NULL && ctx->size >= rows * (int32_t)sizeof(int32_t)
                        ? (const int32_t *)ctx->buf
                        : NULL;
    s.bias = bias_data;
    const int32_t with_x_term = s.filter_offset != 0;
    for (int32_t b = 0; b < batches; ++b)
    {
        const int8_t *const x = input_data + (size_t)b * depth;
        int8_t *const out = output_data + (size_t)b * rows;
        if (s.kernel_sums != NULL && !with_x_term && !s.with_left)
        {
            int32_t r = 0;
#if HELIA_MVE_FC_ASM
            if (shift < 0 && rows >= 4)
            {
                groups_right_shift(x, filter_data, s.kernel_sums, out, depth, rows / 4, s.multiplier, s.neg_right,
                                   vdupq_n_s32(s.output_offset), s.act_min, s.act_max);
                r = rows & ~3;
            }
#endif
            batch_row(&s, x, filter_data, out, r, 1, 0, 0);
        }
        else if (s.kernel_sums != NULL)
        {
            batch_row(&s, x, filter_data, out, 0, 1, with_x_term, s.with_left);
        }
        else
        {
            batch_row(&s, x, filter_data, out, 0, 0, with_x_term, s.with_left);
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* !HELIA_HELIUM_AVAILABLE: no MVE (e.g. a host build of a module converted for a Helium core) */

#include "arm_nnfunctions.h"

/* The kernel library's entry with the same arguments: for every call this kernel accepts it computes
 * the same bytes (tests/kernels/test_helium_parity.py). */
arm_cmsis_nn_status helia_mve_fully_connected_s8(const cmsis_nn_context *ctx,
                                                 const cmsis_nn_fc_params *fc_params,
                                                 const cmsis_nn_per_tensor_quant_params *quant_params,
                                                 const cmsis_nn_dims *input_dims,
                                                 const int8_t *input_data,
                                                 const cmsis_nn_dims *filter_dims,
                                                 const int8_t *filter_data,
                                                 const cmsis_nn_dims *bias_dims,
                                                 const int32_t *bias_data,
                                                 const cmsis_nn_dims *output_dims,
                                                 int8_t *output_data)
{
    return arm_fully_connected_s8(ctx, fc_params, quant_params, input_dims, input_data, filter_dims, filter_data,
                                  bias_dims, bias_data, output_dims, output_data);
}

#endif /* HELIA_HELIUM_AVAILABLE */

/* SPDX-License-Identifier: Apache-2.0 */
/* int8 convolution, any filter size, stride, dilation and padding (one group), on Helium.
 *
 * Two output pixels at a time: their input windows are gathered into two columns of
 * kh * kw * input-channel bytes in the scratch buffer (padding filled with -input_offset, which adds
 * nothing once the input offset is applied through the weight sums), then every output-channel pair
 * runs the 2 x 2 tile of mve_tile.h over the two columns: four VMLADAVA accumulators over sixteen
 * bytes per step. The tile's four sums are requantized as one vector with the pair's multipliers and
 * shifts (gathered per tile) and written by one scatter store.
 *
 * Calls with precomputed weight sums, every shift right and columns of at least 16 bytes (real layers)
 * take a wide path: the tile runs a first 16-byte step with non-accumulating VMLADAV, 32 bytes per loop
 * pass and an unpredicated 16-byte and/or a predicated step for the rest, the pair's starting values,
 * multipliers and shifts are added / applied as vectors, and a window inside the input is gathered as
 * kernel_h tail-predicated copies of its contiguous filter rows (kernel_w * channels bytes each).
 *
 * ns-cmsis-nn's MVE arm_convolve_s8 gathers four columns and runs a one-channel-at-a-time product
 * with five loads per four multiply-accumulates; here four loads feed four, the requantization is one
 * vector per four outputs, and the scratch is half as large. */

#include "helia_helium.h"

#if HELIA_HELIUM_AVAILABLE

#include <arm_mve.h>
#include <stddef.h>

#include "mve_gather.h"
#include "mve_requantize.h"
#include "mve_tile.h"

/* Requantizes a tile's four sums (lanes: pixel 0 channel 0, 0/1, 1/0, 1/1) with per-lane shifts and
 * stores the lanes in `lanes` at out (pixel 0) and out + channels (pixel 1). */
HELIA_MVE_INLINE void finish_tile(int32x4_t acc, int32x4_t multiplier, int32x4_t shift, int32_t output_offset,
                                  int32x4_t act_min, int32x4_t act_max, int8_t *out, uint32x4_t store_offsets,
                                  mve_pred16_t lanes)
{
    const int32x4_t zero = vdupq_n_s32(0);
    acc = helia_mve_tile_output(acc, multiplier, vmaxq_s32(shift, zero), vminq_s32(shift, zero), 1, output_offset,
                                act_min, act_max);
    vstrbq_scatter_offset_p_s32(out, store_offsets, acc, lanes);
}

/* Sums of a 2 x 2 tile over the two columns (the second one `depth` bytes after the first) and the
 * filter rows *w0 and *w0 + depth, without the starting values: (x0 w0, x0 w1, x1 w0, x1 w1). The
 * depth (at least 16) runs as a first step of 16 bytes with non-accumulating VMLADAV (no starting
 * values to move in), passes of 32 bytes, then `half` (a 16-byte step when depth % 32 >= 16) and `part`
 * (a predicated step of depth % 16 bytes) as the depth needs: one compare of the tail per call, not per
 * step; `passes` is -1 (a loop over (depth - 16) / 32 passes) or the count, 0, 4 or 8, run unrolled. *x0
 * comes back rewound and *w0 at the next channel pair, in the registers they came in. */
HELIA_MVE_INLINE int32x4_t tile_wide(const int8_t **x0_column, const int8_t **w0_row, int32_t depth, const int half,
                                     const int part, const int passes)
{
    const int8_t *x0 = *x0_column;
    const int8_t *w0 = *w0_row;
    const int8_t *x1;
    const int8_t *w1;
    int32_t acc_00;
    int32_t acc_01;
    int32_t acc_10;
    int32_t acc_11;
    int32x4_t sums;
#define HELIA_WIDE_STEP(op)                                                                                            \
    "   vldrb.8         q0, [%[w0]], #16         \n"                                                                   \
    "   vldrb.8         q1, [%[x0]], #16         \n"                                                                   \
    "   " op "          %[acc_00], q0, q1        \n"                                                                   \
    "   vldrb.8         q2, [%[x1]], #16         \n"                                                                   \
    "   " op "          %[acc_10], q0, q2        \n"                                                                   \
    "   vldrb.8         q0, [%[w1]], #16         \n"                                                                   \
    "   " op "          %[acc_01], q0, q1        \n"                                                                   \
    "   " op "          %[acc_11], q0, q2        \n"
#define HELIA_WIDE_FIRST                                                                                               \
    "   add             %[x1], %[x0], %[depth]   \n"                                                                   \
    "   add             %[w1], %[w0], %[depth]   \n" HELIA_WIDE_STEP("vmladav.s8")
#define HELIA_WIDE_LOOP                                                                                                \
    "   sub             lr, %[depth], #16        \n"                                                                   \
    "   lsr             lr, lr, #5               \n"                                                                   \
    "   wls             lr, lr, 1f               \n"                                                                   \
    "2:                                          \n" HELIA_WIDE_STEP("vmladava.s8") HELIA_WIDE_STEP("vmladava.s8")     \
    "   le              lr, 2b                   \n"                                                                   \
    "1:                                          \n"
/* A known number of passes, unrolled by the assembler: no loop set-up or branch per pass. The counts
 * are literals (an "i" operand is no constant in a build without optimization). */
#define HELIA_WIDE_UNROLLED(count)                                                                                     \
    "   .rept           " count "                \n" HELIA_WIDE_STEP("vmladava.s8") HELIA_WIDE_STEP("vmladava.s8")     \
    "   .endr                                    \n"
/* The last depth % 16 bytes: inactive lanes load zeros; no write-back, the pointers are set below. */
#define HELIA_WIDE_PART                                                                                                \
    "   and             lr, %[depth], #15        \n"                                                                   \
    "   vctp.8          lr                       \n"                                                                   \
    "   vpstttt                                  \n"                                                                   \
    "   vldrbt.8        q0, [%[w0]]              \n"                                                                   \
    "   vldrbt.8        q1, [%[x0]]              \n"                                                                   \
    "   vldrbt.8        q2, [%[x1]]              \n"                                                                   \
    "   vldrbt.8        q3, [%[w1]]              \n"                                                                   \
    "   vmladava.s8     %[acc_00], q0, q1        \n"                                                                   \
    "   vmladava.s8     %[acc_10], q0, q2        \n"                                                                   \
    "   vmladava.s8     %[acc_01], q3, q1        \n"                                                                   \
    "   vmladava.s8     %[acc_11], q3, q2        \n"                                                                   \
    "   bic             lr, %[depth], #15        \n"                                                                   \
    "   sub             %[x0], %[x0], lr         \n"                                                                   \
    "   sub             %[w0], %[w0], lr         \n"                                                                   \
    "   add             %[w0], %[w0], %[depth], lsl #1 \n"
/* Without a part, x0 has walked the first column and w1 ends at the next pair's first row. */
#define HELIA_WIDE_WHOLE                                                                                               \
    "   sub             %[x0], %[x0], %[depth]   \n"                                                                   \
    "   mov             %[w0], %[w1]             \n"
#define HELIA_WIDE_SUMS                                                                                                \
    "   vmov            %q[sums][2], %q[sums][0], %[acc_00], %[acc_10] \n"                                             \
    "   vmov            %q[sums][3], %q[sums][1], %[acc_01], %[acc_11] \n"
#define HELIA_WIDE_OPERANDS                                                                                            \
    : [w0] "+r"(w0), [x0] "+r"(x0), [x1] "=&r"(x1), [w1] "=&r"(w1), [acc_00] "=&Te"(acc_00),                          \
      [acc_01] "=&Te"(acc_01), [acc_10] "=&Te"(acc_10), [acc_11] "=&Te"(acc_11), [sums] "=w"(sums)                    \
    : [depth] "r"(depth)                                                                                               \
    : "q0", "q1", "q2", "memory", "r14"
/* Only the predicated step uses q3; the other forms leave it to GCC (one spill fewer per tile). */
#define HELIA_WIDE_TILE(body, ...)                                                                                     \
    if (passes == 0)                                                                                                   \
    {                                                                                                                  \
        __asm volatile(HELIA_WIDE_FIRST body HELIA_WIDE_SUMS HELIA_WIDE_OPERANDS __VA_ARGS__);                         \
    }                                                                                                                  \
    else if (passes == 4)                                                                                              \
    {                                                                                                                  \
        __asm volatile(HELIA_WIDE_FIRST HELIA_WIDE_UNROLLED("4") body HELIA_WIDE_SUMS HELIA_WIDE_OPERANDS __VA_ARGS__); \
    }                                                                                                                  \
    else if (passes == 8)                                                                                              \
    {                                                                                                                  \
        __asm volatile(HELIA_WIDE_FIRST HELIA_WIDE_UNROLLED("8") body HELIA_WIDE_SUMS HELIA_WIDE_OPERANDS __VA_ARGS__); \
    }                                                                                                                  \
    else                                                                                                               \
    {                                                                                                                  \
        __asm volatile(HELIA_WIDE_FIRST HELIA_WIDE_LOOP body HELIA_WIDE_SUMS HELIA_WIDE_OPERANDS __VA_ARGS__);         \
    }
    if (half && part)
    {
        HELIA_WIDE_TILE(HELIA_WIDE_STEP("vmladava.s8") HELIA_WIDE_PART, , "q3")
    }
    else if (half)
    {
        HELIA_WIDE_TILE(HELIA_WIDE_STEP("vmladava.s8") HELIA_WIDE_WHOLE)
    }
    else if (part)
    {
        HELIA_WIDE_TILE(HELIA_WIDE_PART, , "q3")
    }
    else
    {
        HELIA_WIDE_TILE(HELIA_WIDE_WHOLE)
    }
#undef HELIA_WIDE_TILE
#undef HELIA_WIDE_OPERANDS
#undef HELIA_WIDE_SUMS
#undef HELIA_WIDE_WHOLE
#undef HELIA_WIDE_PART
#undef HELIA_WIDE_UNROLLED
#undef HELIA_WIDE_LOOP
#undef HELIA_WIDE_FIRST
#undef HELIA_WIDE_STEP
    *x0_column = x0;
    *w0_row = w0;
    return sums;
}

/* dst[0 .. n) = src[0 .. n): a tail-predicated loop, three instructions per sixteen bytes. */
HELIA_MVE_INLINE void copy_row(int8_t *dst, const int8_t *src, int32_t n)
{
    __asm volatile("   wlstp.8         lr, %[n], 1f             \n"
                   "2:                                          \n"
                   "   vldrb.8         q0, [%[src]], #16        \n"
                   "   vstrb.8         q0, [%[dst]], #16        \n"
                   "   letp            lr, 2b                   \n"
                   "1:                                          \n"
                   : [src] "+r"(src), [dst] "+r"(dst)
                   : [n] "r"(n)
                   : "q0", "memory", "r14");
}

/* What the wide path reads per call, gathered once (its functions take one pointer). */
typedef struct
{
    geometry g;
    const int8_t *input;
    int8_t *output;
    const int8_t *filter;
    const int32_t *weight_sums;
    const int32_t *multiplier;
    const int32_t *shift;
    int8_t *column_0;
    int32_t batches, pixels, channels, depth, output_offset, act_min, act_max;
    int8x16_t pad;
    /* {0, 1, 0, 1}, the gathers' offsets for a channel pair: a constant vector in the wide functions
     * would be a literal, which a build without optimization places out of a load's reach. */
    uint32x4_t pair_lanes;
} wide_call;

/* The window of output pixel (oy, ox) into `column`. Inside the input (y0 in [0, y_max], x0 in [0, x_max];
 * x_max is -1 with dilation along x) each filter row is kernel_w * in_c contiguous bytes, one copy;
 * windows over the padding take gather_column. */
HELIA_MVE_INLINE void gather_window(const wide_call *a, const int8_t *image, int32_t oy, int32_t ox, int8_t *column,
                                    int32_t y_max, int32_t x_max)
{
    const geometry *const g = &a->g;
    const int32_t y0 = oy * g->stride_h - g->pad_h;
    const int32_t x0 = ox * g->stride_w - g->pad_w;
    if (y0 < 0 || y0 > y_max || x0 < 0 || x0 > x_max)
    {
        gather_column(image, g, oy, ox, a->pad, column);
        return;
    }
    const int32_t line = g->in_w * g->in_c;
    const int32_t row_bytes = g->kernel_w * g->in_c;
    const int32_t step = g->dilation_h * line;
    const int8_t *src = image + y0 * line + x0 * g->in_c;
    for (int32_t ky = g->kernel_h; ky > 0; --ky, src += step, column += row_bytes)
    {
        copy_row(column, src, row_bytes);
    }
}

/* Every full channel pair over the two gathered columns, then a last odd channel; pixel_lanes is 0xFFFF
 * for a pair of pixels, 0x00FF for a last single one (a constant at each call). */
HELIA_MVE_INLINE void wide_channels(const wide_call *a, int8_t *out, mve_pred16_t pixel_lanes, const int half,
                                    const int part, const int passes)
{
    const int32_t depth = a->depth;
    const int32_t channels = a->channels;
    const int32_t output_offset = a->output_offset;
    const int32x4_t act_min = vdupq_n_s32(a->act_min);
    const int32x4_t act_max = vdupq_n_s32(a->act_max);
    /* Lanes: (pixel 0, channel 0), (0, 1), (1, 0), (1, 1). */
    const uint32x4_t store_offsets = {0, 1, (uint32_t)channels, (uint32_t)channels + 1};
    /* The pair's lanes in the per-channel arrays: {c, c + 1, c, c + 1}, one add per pair. */
    uint32x4_t pair_lanes = a->pair_lanes;
    const int8_t *x0 = a->column_0;
    const int8_t *w = a->filter;
    int32_t c = 0;
    for (; c + 1 < channels; c += 2, pair_lanes = vaddq_n_u32(pair_lanes, 2))
    {
        int32x4_t acc = tile_wide(&x0, &w, depth, half, part, passes);
        acc = vaddq_s32(acc, vldrwq_gather_shifted_offset_s32(a->weight_sums, pair_lanes));
        acc = vqrdmulhq_s32(acc, vldrwq_gather_shifted_offset_s32(a->multiplier, pair_lanes));
        /* Every lane shifts right (the wide path's condition): the rounding's correction needs no mask. */
        acc = vrshlq_s32(vqaddq_s32(acc, vshrq_n_s32(acc, 31)), vldrwq_gather_shifted_offset_s32(a->shift, pair_lanes));
        acc = vminq_s32(vmaxq_s32(vaddq_n_s32(acc, output_offset), act_min), act_max);
        if (pixel_lanes == 0xFFFF)
        {
            vstrbq_scatter_offset_s32(out + c, store_offsets, acc);
        }
        else
        {
            vstrbq_scatter_offset_p_s32(out + c, store_offsets, acc, pixel_lanes);
        }
    }
    if (c < channels)
    {
        /* A last single channel: the general tile with the row twice, lanes 0 and 2 stored. */
        const int32_t start = a->weight_sums[c];
        const int8_t *const x1 = a->column_0 + depth;
        const int32x4_t acc = helia_mve_tile_2x2(a->column_0, x1, w, w, depth, start, start);
        finish_tile(acc, vdupq_n_s32(a->multiplier[c]), vdupq_n_s32(a->shift[c]), output_offset, act_min, act_max,
                    out + c, store_offsets, (mve_pred16_t)(pixel_lanes & 0x0F0F));
    }
}

/* The wide path's pixel loop: windows gathered by gather_window, channels by wide_channels. A last
 * single pixel is gathered into both columns (the second pixel's lanes are computed, not stored). */
HELIA_MVE_INLINE void wide_pixels(const wide_call *a, const int half, const int part, const int passes)
{
    const geometry *const g = &a->g;
    const int32_t y_max = g->in_h - 1 - (g->kernel_h - 1) * g->dilation_h;
    const int32_t x_max = g->dilation_w == 1 ? g->in_w - g->kernel_w : -1;
    int8_t *const column_0 = a->column_0;
    int8_t *const column_1 = column_0 + a->depth;
    const int32_t channels = a->channels;
    const int32_t pixels = a->pixels;
    for (int32_t b = 0; b < a->batches; ++b)
    {
        const int8_t *const image = a->input + b * g->in_h * g->in_w * g->in_c;
        int8_t *out = a->output + b * pixels * channels;
        int32_t oy = 0;
        int32_t ox = 0;
        for (int32_t p = 0; p + 1 < pixels; p += 2, out += 2 * channels)
        {
            gather_window(a, image, oy, ox, column_0, y_max, x_max);
            next_pixel(&oy, &ox, g->out_w);
            gather_window(a, image, oy, ox, column_1, y_max, x_max);
            next_pixel(&oy, &ox, g->out_w);
            wide_channels(a, out, 0xFFFF, half, part, passes);
        }
        if (pixels & 1)
        {
            gather_window(a, image, oy, ox, column_0, y_max, x_max);
            gather_window(a, image, oy, ox, column_1, y_max, x_max);
            wide_channels(a, out, 0x00FF, half, part, passes);
        }
    }
}

/* One function per tail form, so that each tile has no branch on it; and unrolled ones for the depths
 * of the MLPerf Tiny layers (27: 3x3x3; 40: kws's 10x4x1; 144: 3x3x16; 288: 3x3x32), which drop the
 * loop's set-up (3 instructions per tile) and its branch per pass. */
static __attribute__((noinline)) void wide_whole(const wide_call *a) { wide_pixels(a, 0, 0, -1); }
static __attribute__((noinline)) void wide_half(const wide_call *a) { wide_pixels(a, 1, 0, -1); }
static __attribute__((noinline)) void wide_part(const wide_call *a) { wide_pixels(a, 0, 1, -1); }
static __attribute__((noinline)) void wide_half_part(const wide_call *a) { wide_pixels(a, 1, 1, -1); }
static __attribute__((noinline)) void wide_part_short(const wide_call *a) { wide_pixels(a, 0, 1, 0); }
static __attribute__((noinline)) void wide_half_part_short(const wide_call *a) { wide_pixels(a, 1, 1, 0); }
static __attribute__((noinline)) void wide_144(const wide_call *a) { wide_pixels(a, 0, 0, 4); }
static __attribute__((noinline)) void wide_288(const wide_call *a) { wide_pixels(a, 1, 0, 8); }

/* The short-column path: columns of at most 32 bytes (stems: 3x3x3 = 27) and at most 16 output channels.
 * There the wide tile spends most of its time around its two 16-byte steps (a predicated tail, the
 * pair's gathered sums, multipliers and shifts, a scatter store of two channels of two pixels). Here the
 * call copies the filter rows into 32-byte rows padded with zeros (so a column's bytes past the depth add
 * nothing and no step is predicated), and the sums, multipliers and shifts into arrays padded to four
 * channels, once. Then per pair of output pixels in a row, four channels at a time: each filter row's
 * loads feed both pixels' VMLADAV(A), the four channels' sums of a pixel form one vector, which is
 * requantized with the group's contiguous multipliers and shifts and stored as four consecutive bytes. */
#define SHORT_DEPTH 32
#define SHORT_CHANNELS 16
#define SHORT_COLUMN 48 /* a column and the 16-byte store of its last filter row (kh * row <= 32) */
#define SHORT_SUMS 0
#define SHORT_MULTIPLIER 4
#define SHORT_NEG_RIGHT 8
#define SHORT_LEFT 12
#define SHORT_OFFSET 16
#define SHORT_ACT_MIN 20
#define SHORT_ACT_MAX 24

typedef struct
{
    int8_t weights[SHORT_CHANNELS * SHORT_DEPTH];
    /* Per group of four channels, 32 int32 (128 bytes, so one pointer reaches each at an immediate
     * offset): SHORT_SUMS.. the sums, multipliers, min(shift, 0), max(shift, 0), then the output offset
     * and the activation range repeated in four lanes. */
    int32_t params[SHORT_CHANNELS / 4][32];
    int8_t columns[2 * SHORT_COLUMN];
    geometry g;
    const int8_t *input;
    int8_t *output;
    int32_t batches, out_h, channels, row_bytes, row_step;
    int32_t vectors;   /* 16-byte halves of a column: 1 (at most 16 bytes) or 2 */
    int32_t with_left; /* some shift is not right: every group in short_channels_c */
    int8x16_t pad;
} short_call;

/* The window of output pixel (oy, ox) into `column`. Inside the input (x_max is -1 for a dilation along
 * x), kernel_h predicated row loads (zeros past the row), each stored whole at its place in the column
 * (the next row overwrites the zeros past it); else gather_column. */
HELIA_MVE_INLINE void short_gather(const short_call *a, const int8_t *image, int32_t oy, int32_t ox, int32_t y0,
                                   int32_t row_inside, int32_t x_max, int8_t *column)
{
    const geometry *const g = &a->g;
    const int32_t x0 = ox * g->stride_w - g->pad_w;
    if (!row_inside || x0 < 0 || x0 > x_max)
    {
        gather_column(image, g, oy, ox, a->pad, column);
        return;
    }
    const int32_t step = a->row_step;
    const int32_t row_bytes = a->row_bytes;
    const int8_t *src = image + (y0 * g->in_w + x0) * g->in_c;
    if (row_bytes > 16)
    {
        /* One filter row (kh * row <= 32) of 17 to 32 bytes (1xN filters). */
        vstrbq_s8(column, vldrbq_s8(src));
        vstrbq_s8(column + 16, vldrbq_z_s8(src + 16, vctp8q((uint32_t)(row_bytes - 16))));
        return;
    }
    const mve_pred16_t row_lanes = vctp8q((uint32_t)row_bytes);
    for (int32_t ky = g->kernel_h; ky > 0; --ky, src += step, column += row_bytes)
    {
        vstrbq_s8(column, vldrbq_z_s8(src, row_lanes));
    }
}

/* Both windows of a pair of output pixels inside the input, for a 3x3 filter over 3 channels (stems):
 * rows of 9 bytes, `stride` (1 or 2) pixels apart, so every address but the rows' is an immediate. src:
 * pixel 0's window; the second column starts SHORT_COLUMN bytes after the first. */
HELIA_MVE_INLINE void short_pair_3x3x3(int8_t *columns, const int8_t *src, int32_t step, const int stride)
{
    const int8_t *src_1;
    const int8_t *src_2;
#define SHORT_3X3X3(x, c0, c1, c2)                                                                                     \
    "   vpsttt                                   \n"                                                                   \
    "   vldrbt.8        q0, [%[src], #" x "]     \n"                                                                   \
    "   vldrbt.8        q1, [%[s1], #" x "]      \n"                                                                   \
    "   vldrbt.8        q2, [%[s2], #" x "]      \n"                                                                   \
    "   vstrb.8         q0, [%[col], #" c0 "]    \n"                                                                   \
    "   vstrb.8         q1, [%[col], #" c1 "]    \n"                                                                   \
    "   vstrb.8         q2, [%[col], #" c2 "]    \n"
#define SHORT_3X3X3_OPERANDS                                                                                           \
    : [s1] "=&r"(src_1), [s2] "=&r"(src_2), [cols] "+m"(*(int8_t(*)[2 * SHORT_COLUMN])columns)                         \
    : [src] "r"(src), [step] "r"(step), [nine] "r"(9), [col] "r"(columns)                                              \
    : "q0", "q1", "q2"
#define SHORT_3X3X3_SET_UP                                                                                             \
    "   add             %[s1], %[src], %[step]   \n"                                                                   \
    "   add             %[s2], %[s1], %[step]    \n"                                                                   \
    "   vctp.8          %[nine]                  \n"
    if (stride == 1)
    {
        __asm volatile(SHORT_3X3X3_SET_UP SHORT_3X3X3("0", "0", "9", "18") SHORT_3X3X3("3", "48", "57", "66")
                           SHORT_3X3X3_OPERANDS);
    }
    else
    {
        __asm volatile(SHORT_3X3X3_SET_UP SHORT_3X3X3("0", "0", "9", "18") SHORT_3X3X3("6", "48", "57", "66")
                           SHORT_3X3X3_OPERANDS);
    }
#undef SHORT_3X3X3_SET_UP
#undef SHORT_3X3X3_OPERANDS
#undef SHORT_3X3X3
}

/* Requantizes four channels' sums of one pixel (params: their group's block) and stores them at out;
 * `lanes` 0xFFFF stores all four (a constant at each call), else the last group's own channels. */
HELIA_MVE_INLINE void short_store(const int32_t *params, int32x4_t acc, int8_t *out, mve_pred16_t lanes,
                                  const int with_left)
{
    acc = vaddq_s32(acc, vldrwq_s32(params + SHORT_SUMS));
    if (with_left)
    {
        acc = helia_mve_requantize_q(acc, vldrwq_s32(params + SHORT_MULTIPLIER), vldrwq_s32(params + SHORT_LEFT),
                                     vldrwq_s32(params + SHORT_NEG_RIGHT), 1);
    }
    else
    {
        /* Every lane shifts right: the rounding's correction needs no mask. */
        acc = vqrdmulhq_s32(acc, vldrwq_s32(params + SHORT_MULTIPLIER));
        acc = vrshlq_s32(vqaddq_s32(acc, vshrq_n_s32(acc, 31)), vldrwq_s32(params + SHORT_NEG_RIGHT));
    }
    acc = vaddq_s32(acc, vldrwq_s32(params + SHORT_OFFSET));
    acc = vminq_s32(vmaxq_s32(acc, vldrwq_s32(params + SHORT_ACT_MIN)), vldrwq_s32(params + SHORT_ACT_MAX));
    if (lanes == 0xFFFF)
    {
        vstrbq_s32(out, acc);
    }
    else
    {
        vstrbq_p_s32(out, acc, lanes);
    }
}

/* One filter row (its `vectors` 16-byte halves) against the column(s): sums into a (pixel 0) and b
 * (pixel 1, when `two`). The loads are at immediate offsets `off` and `off` + 16 from w. */
#define SHORT_ROW(off, a, b)                                                                                           \
    "   vldrw.u32       q0, [%[w], #" off "]     \n"                                                                   \
    "   vmladav.s8      %[" a "], q0, %q[x0a]    \n"                                                                   \
    "   vmladav.s8      %[" b "], q0, %q[x1a]    \n"
#define SHORT_ROW_HI(off, a, b)                                                                                        \
    "   vldrw.u32       q1, [%[w], #" off "]     \n"                                                                   \
    "   vmladava.s8     %[" a "], q1, %q[x0b]    \n"                                                                   \
    "   vmladava.s8     %[" b "], q1, %q[x1b]    \n"
/* Lanes 0 and 2, then 1 and 3, of both pixels' vectors (the first register goes to the lower lane). */
#define SHORT_LANES(lo, hi)                                                                                            \
    "   vmov            %q[s0][" hi "], %q[s0][" lo "], %[a0], %[a1] \n"                                               \
    "   vmov            %q[s1][" hi "], %q[s1][" lo "], %[b0], %[b1] \n"

/* Sums of four channels (padded filter rows at w) over two columns (x0a/x0b and x1a/x1b: their two
 * halves; for a single pixel, the same column twice): s0 pixel 0's four channels, s1 pixel 1's. w steps
 * to the next group. */
HELIA_MVE_INLINE void short_group(const int8_t **w_rows, int8x16_t x0a, int8x16_t x0b, int8x16_t x1a, int8x16_t x1b,
                                  int32x4_t *s0_out, int32x4_t *s1_out, const int vectors)
{
    const int8_t *w = *w_rows;
    int32_t a0;
    int32_t a1;
    int32_t b0;
    int32_t b1;
    int32x4_t s0;
    int32x4_t s1;
#define SHORT_OPERANDS                                                                                                 \
    : [w] "+r"(w), [a0] "=&Te"(a0), [a1] "=&Te"(a1), [b0] "=&Te"(b0), [b1] "=&Te"(b1), [s0] "=&w"(s0), [s1] "=&w"(s1)  \
    : [x0a] "w"(x0a), [x0b] "w"(x0b), [x1a] "w"(x1a), [x1b] "w"(x1b),                                                  \
      [rows] "m"(*(const int8_t(*)[4 * SHORT_DEPTH])w)                                                                 \
    : "q0", "q1"
    if (vectors == 2)
    {
        __asm volatile(SHORT_ROW("0", "a0", "b0") SHORT_ROW_HI("16", "a0", "b0") SHORT_ROW("64", "a1", "b1")
                           SHORT_ROW_HI("80", "a1", "b1") SHORT_LANES("0", "2") SHORT_ROW("32", "a0", "b0")
                               SHORT_ROW_HI("48", "a0", "b0") SHORT_ROW("96", "a1", "b1")
                                   SHORT_ROW_HI("112", "a1", "b1") SHORT_LANES("1", "3")
                       "   add             %[w], %[w], #128         \n" SHORT_OPERANDS);
    }
    else
    {
        __asm volatile(SHORT_ROW("0", "a0", "b0") SHORT_ROW("64", "a1", "b1") SHORT_LANES("0", "2")
                           SHORT_ROW("32", "a0", "b0") SHORT_ROW("96", "a1", "b1") SHORT_LANES("1", "3")
                       "   add             %[w], %[w], #128         \n" SHORT_OPERANDS);
    }
#undef SHORT_OPERANDS
    *w_rows = w;
    *s0_out = s0;
    *s1_out = s1;
}
#undef SHORT_ROW
#undef SHORT_ROW_HI
#undef SHORT_LANES

/* Every full group of four channels of two gathered columns, every shift right: one asm loop, so that
 * the columns stay in q4-q7 and the requantization's vectors are loads at immediate offsets from the
 * group's parameter block (GCC's loop reloaded the columns and the output offset and activation range
 * per group and made the clamps' vectors with VDUP). Per group: 8 weight loads, 16 VMLADAV(A), 4 VMOV
 * into the two pixels' vectors, 6 loads and 14 operations of requantization, 2 stores (VSTRB.32 takes a
 * low register as its base: "l"). */
HELIA_MVE_INLINE void short_pair_groups(const short_call *a, int8_t *out_0, int8_t *out_1, int32_t groups,
                                        const int vectors)
{
    /* Both pointers step to their group's start by pre-indexed writeback at the group's first load. */
    const int8_t *w = a->weights - 4 * SHORT_DEPTH;
    const int32_t *p = a->params[0] - 32;
    int32_t a0;
    int32_t a1;
    int32_t b0;
    int32_t b1;
#define SHORT_ROW_LO(lo, a, b)                                                                                         \
    "   vldrw.u32       q0, [%[w], #" lo "]      \n"                                                                   \
    "   vmladav.s8      %[" a "], q0, q4         \n"                                                                   \
    "   vmladav.s8      %[" b "], q0, q6         \n"
#define SHORT_ROW(lo, hi, a, b)                                                                                        \
    SHORT_ROW_LO(lo, a, b)                                                                                             \
    "   vldrw.u32       q1, [%[w], #" hi "]      \n"                                                                   \
    "   vmladava.s8     %[" a "], q1, q5         \n"                                                                   \
    "   vmladava.s8     %[" b "], q1, q7         \n"
/* The first register goes to the lower lane: lanes 0 and 2, then 1 and 3. */
#define SHORT_LANES(lo, hi)                                                                                            \
    "   vmov            q2[" hi "], q2[" lo "], %[a0], %[a1] \n"                                                       \
    "   vmov            q3[" hi "], q3[" lo "], %[b0], %[b1] \n"
#define SHORT_BOTH(op, offset)                                                                                         \
    "   vldrw.u32       q0, [%[p], #" offset "]  \n"                                                                   \
    "   " op "          q2, q2, q0               \n"                                                                   \
    "   " op "          q3, q3, q0               \n"
#define SHORT_GROUPS(macs)                                                                                             \
    __asm volatile("   vldrw.u32       q4, [%[col]]             \n"                                                    \
                   "   vldrw.u32       q5, [%[col], #16]        \n"                                                    \
                   "   vldrw.u32       q6, [%[col], #48]        \n"                                                    \
                   "   vldrw.u32       q7, [%[col], #64]        \n"                                                    \
                   "   dls             lr, %[groups]            \n"                                                    \
                   "1:                                          \n"                                                    \
                   "   add             %[w], %[w], #128         \n"                                                    \
                   macs                                                                                                \
                   "   vldrw.u32       q0, [%[p], #128]!        \n"                                                    \
                   "   vadd.i32        q2, q2, q0               \n"                                                    \
                   "   vadd.i32        q3, q3, q0               \n"                                                    \
                   SHORT_BOTH("vqrdmulh.s32", "16")                                                                    \
                   /* round half away from zero: negative sums lowered by one before VRSHL (mve_requantize.h) */       \
                   "   vshr.s32        q0, q2, #31              \n"                                                    \
                   "   vshr.s32        q1, q3, #31              \n"                                                    \
                   "   vqadd.s32       q2, q2, q0               \n"                                                    \
                   "   vqadd.s32       q3, q3, q1               \n"                                                    \
                   "   vldrw.u32       q0, [%[p], #32]          \n"                                                    \
                   "   vrshl.s32       q2, q2, q0               \n"                                                    \
                   "   vrshl.s32       q3, q3, q0               \n"                                                    \
                   SHORT_BOTH("vadd.i32", "64") SHORT_BOTH("vmax.s32", "80") SHORT_BOTH("vmin.s32", "96")              \
                   "   vstrb.32        q2, [%[out0]], #4        \n"                                                    \
                   "   vstrb.32        q3, [%[out1]], #4        \n"                                                    \
                   "   le              lr, 1b                   \n"                                                    \
                   : [w] "+r"(w), [p] "+r"(p), [out0] "+l"(out_0), [out1] "+l"(out_1), [a0] "=&Te"(a0),                \
                     [a1] "=&Te"(a1), [b0] "=&Te"(b0), [b1] "=&Te"(b1)                                                 \
                   : [col] "r"(a->columns), [groups] "r"(groups)                                                       \
                   : "q0", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "memory", "r14")
    if (vectors == 2)
    {
        SHORT_GROUPS(SHORT_ROW("0", "16", "a0", "b0") SHORT_ROW("64", "80", "a1", "b1") SHORT_LANES("0", "2")
                         SHORT_ROW("32", "48", "a0", "b0") SHORT_ROW("96", "112", "a1", "b1") SHORT_LANES("1", "3"));
    }
    else
    {
        SHORT_GROUPS(SHORT_ROW_LO("0", "a0", "b0") SHORT_ROW_LO("64", "a1", "b1") SHORT_LANES("0", "2")
                         SHORT_ROW_LO("32", "a0", "b0") SHORT_ROW_LO("96", "a1", "b1") SHORT_LANES("1", "3"));
    }
#undef SHORT_GROUPS
#undef SHORT_BOTH
#undef SHORT_LANES
#undef SHORT_ROW
#undef SHORT_ROW_LO
}

/* Channel groups from c on in C (GCC's loop): a last group of one to three channels (predicated stores),
 * a last odd pixel of a row (two 0: column 0 alone, its sums computed twice and stored once) and calls
 * with a shift that is not right (every group). Rare in real layers: one copy with the forms decided at
 * run time keeps the code small. */
static __attribute__((noinline)) void short_channels_c(const short_call *a, int8_t *out, int32_t c, int32_t two)
{
    const int32_t channels = a->channels;
    const int8_t *const column_0 = a->columns;
    const int8_t *const column_1 = two ? column_0 + SHORT_COLUMN : column_0;
    const int8_t *w = a->weights + c * SHORT_DEPTH;
    const int8x16_t x0a = vldrbq_s8(column_0);
    const int8x16_t x0b = vldrbq_s8(column_0 + 16);
    const int8x16_t x1a = vldrbq_s8(column_1);
    const int8x16_t x1b = vldrbq_s8(column_1 + 16);
    for (; c < channels; c += 4)
    {
        int32x4_t s0;
        int32x4_t s1;
        if (a->vectors == 2)
        {
            short_group(&w, x0a, x0b, x1a, x1b, &s0, &s1, 2);
        }
        else
        {
            short_group(&w, x0a, x0b, x1a, x1b, &s0, &s1, 1);
        }
        const mve_pred16_t lanes = vctp32q((uint32_t)(channels - c));
        if (a->with_left)
        {
            short_store(a->params[c / 4], s0, out + c, lanes, 1);
            if (two)
            {
                short_store(a->params[c / 4], s1, out + channels + c, lanes, 1);
            }
        }
        else
        {
            short_store(a->params[c / 4], s0, out + c, lanes, 0);
            if (two)
            {
                short_store(a->params[c / 4], s1, out + channels + c, lanes, 0);
            }
        }
    }
}

/* Every channel group of the two gathered columns (`two`), or of column 0 alone: the full groups of a
 * pair in the asm loop when every shift is right, the rest in short_channels_c. */
HELIA_MVE_INLINE void short_channels(const short_call *a, int8_t *out, const int two, const int vectors)
{
    const int32_t channels = a->channels;
    int32_t c = 0;
    if (two && !a->with_left && channels >= 4)
    {
        short_pair_groups(a, out, out + channels, channels / 4, vectors);
        c = channels & ~3;
    }
    if (c < channels)
    {
        short_channels_c(a, out, c, two);
    }
}

/* The pixel loop: row by row, pairs of output pixels, a last odd one of a row alone. stem_stride 1 or 2:
 * a 3x3 filter over 3 channels at that stride along x, whose pairs inside the input take
 * short_pair_3x3x3. */
HELIA_MVE_INLINE void short_rows(const short_call *a, const int vectors, const int stem_stride)
{
    const geometry *const g = &a->g;
    const int32_t y_max = g->in_h - 1 - (g->kernel_h - 1) * g->dilation_h;
    const int32_t x_max = g->dilation_w == 1 ? g->in_w - g->kernel_w : -1;
    const int32_t channels = a->channels;
    int8_t *const column_0 = (int8_t *)a->columns;
    int8_t *const column_1 = column_0 + SHORT_COLUMN;
    /* Pairs (ox, ox + 1) = (2p, 2p + 1) with both windows inside the input: p in [p_first, p_end). */
    const int32_t ox_first = (g->pad_w + g->stride_w - 1) / g->stride_w;
    const int32_t ox_inside = x_max < 0 ? -1 : (x_max + g->pad_w) / g->stride_w;
    const int32_t ox_last = ox_inside < g->out_w - 1 ? ox_inside : g->out_w - 1;
    const int32_t p_first = (ox_first + 1) / 2;
    const int32_t p_last = ox_last / 2 + (ox_last & 1);
    const int32_t p_end = ox_last < 1 || p_last < p_first ? p_first : p_last;
    int8_t *out = a->output;
    for (int32_t b = 0; b < a->batches; ++b)
    {
        const int8_t *const image = a->input + b * g->in_h * g->in_w * g->in_c;
        for (int32_t oy = 0; oy < a->out_h; ++oy)
        {
            const int32_t y0 = oy * g->stride_h - g->pad_h;
            const int32_t row_inside = y0 >= 0 && y0 <= y_max;
            /* Pixel ox's window starts row_offset + ox * stride * 3 bytes into the image (3x3x3 stems). */
            const int32_t row_offset = (y0 * g->in_w - g->pad_w) * g->in_c;
            int32_t ox = 0;
            if (stem_stride && row_inside && p_first < p_end)
            {
                /* The pairs before the first inside one, then the inside ones in a loop of their own. */
                for (; ox < 2 * p_first; ox += 2, out += 2 * channels)
                {
                    short_gather(a, image, oy, ox, y0, row_inside, x_max, column_0);
                    short_gather(a, image, oy, ox + 1, y0, row_inside, x_max, column_1);
                    short_channels(a, out, 1, vectors);
                }
                const int8_t *src = image + row_offset + ox * 3 * stem_stride;
                for (; ox < 2 * p_end; ox += 2, out += 2 * channels, src += 6 * stem_stride)
                {
                    short_pair_3x3x3(column_0, src, a->row_step, stem_stride);
                    short_channels(a, out, 1, vectors);
                }
            }
            for (; ox + 1 < g->out_w; ox += 2, out += 2 * channels)
            {
                short_gather(a, image, oy, ox, y0, row_inside, x_max, column_0);
                short_gather(a, image, oy, ox + 1, y0, row_inside, x_max, column_1);
                short_channels(a, out, 1, vectors);
            }
            if (ox < g->out_w)
            {
                short_gather(a, image, oy, ox, y0, row_inside, x_max, column_0);
                short_channels(a, out, 0, vectors);
                out += channels;
            }
        }
    }
}

/* One function per form (columns of one or two vectors; the 3x3x3 stems at strides 1 and 2), so each
 * loop has no branch on them. */
static __attribute__((noinline)) void short_1(const short_call *a) { short_rows(a, 1, 0); }
static __attribute__((noinline)) void short_2(const short_call *a) { short_rows(a, 2, 0); }
static __attribute__((noinline)) void short_stem_1(const short_call *a) { short_rows(a, 2, 1); }
static __attribute__((noinline)) void short_stem_2(const short_call *a) { short_rows(a, 2, 2); }

/* The short path's per-call set-up (the padded filter rows, sums, multipliers and shifts), then its loop. */
static __attribute__((noinline)) void short_run(const geometry *g, const cmsis_nn_conv_params *conv_params,
                                                const cmsis_nn_per_channel_quant_params *quant_params,
                                                const int32_t *weight_sums, const int32_t *bias,
                                                const cmsis_nn_dims *input_dims, const int8_t *input,
                                                const int8_t *filter, const cmsis_nn_dims *output_dims,
                                                int8_t *output)
{
    short_call a __attribute__((aligned(16)));
    const int32_t depth = g->kernel_h * g->kernel_w * g->in_c;
    const int32_t channels = output_dims->c;
    const int32_t padded = (channels + 3) & ~3;
    int32_t with_left = 0;
    for (int32_t c = 0; c < padded; ++c)
    {
        int8_t *const row = a.weights + c * SHORT_DEPTH;
        vstrbq_s8(row, vdupq_n_s8(0));
        vstrbq_s8(row + 16, vdupq_n_s8(0));
        int32_t *const params = a.params[c / 4] + c % 4;
        params[SHORT_OFFSET] = conv_params->output_offset;
        params[SHORT_ACT_MIN] = conv_params->activation.min;
        params[SHORT_ACT_MAX] = conv_params->activation.max;
        if (c >= channels)
        {
            params[SHORT_SUMS] = params[SHORT_MULTIPLIER] = params[SHORT_NEG_RIGHT] = params[SHORT_LEFT] = 0;
            continue;
        }
        const int8_t *const src = filter + c * depth;
        copy_bytes(row, src, depth);
        params[SHORT_SUMS] = helia_mve_row_start(weight_sums, src, depth, bias, c, conv_params->input_offset);
        const int32_t shift = quant_params->shift[c];
        params[SHORT_MULTIPLIER] = quant_params->multiplier[c];
        params[SHORT_LEFT] = shift > 0 ? shift : 0;
        params[SHORT_NEG_RIGHT] = shift < 0 ? shift : 0;
        with_left |= shift >= 0;
    }
    /* The columns' bytes past the depth meet zero weights; zeroed so that nothing indeterminate is read. */
    for (int32_t i = 0; i < 2 * SHORT_COLUMN; i += 16)
    {
        vstrbq_s8(a.columns + i, vdupq_n_s8(0));
    }
    a.g = *g;
    a.input = input;
    a.output = output;
    a.batches = input_dims->n;
    a.out_h = output_dims->h;
    a.channels = channels;
    a.row_bytes = g->kernel_w * g->in_c;
    a.row_step = g->dilation_h * g->in_w * g->in_c;
    a.pad = vdupq_n_s8((int8_t)-conv_params->input_offset);
    a.vectors = depth <= 16 ? 1 : 2;
    a.with_left = with_left;
    if (depth <= 16)
    {
        short_1(&a);
    }
    else if (g->kernel_h == 3 && g->kernel_w == 3 && g->in_c == 3 && g->dilation_w == 1 && g->stride_w <= 2)
    {
        g->stride_w == 1 ? short_stem_1(&a) : short_stem_2(&a);
    }
    else
    {
        short_2(&a);
    }
}

/* The shifts' part of the contract (each in [-31, 30]) and whether every channel shifts right (real
 * layers; the wide path's rounding relies on it), in one pass: 0 when some shift is out of range, else
 * 1 | 2 when all shift right, 1 otherwise. */
static int32_t shifts_ok(const int32_t *shift, int32_t channels)
{
    int32_t not_right = 0; /* sign bit set once a shift >= 0 was seen */
    for (int32_t c = 0; c < channels; ++c)
    {
        const int32_t s = shift[c];
        if ((uint32_t)(s + 31) > 61u)
        {
            return 0;
        }
        not_right |= ~s;
    }
    return not_right < 0 ? 1 : 3;
}

HELIA_MVE_INLINE geometry conv_geometry(const cmsis_nn_conv_params *conv_params, const cmsis_nn_dims *input_dims,
                                       const cmsis_nn_dims *filter_dims, const cmsis_nn_dims *output_dims)
{
    const geometry g = {input_dims->h,          input_dims->w,          input_dims->c,
                        filter_dims->h,         filter_dims->w,         conv_params->stride.h,
                        conv_params->stride.w,  conv_params->padding.h, conv_params->padding.w,
                        conv_params->dilation.h, conv_params->dilation.w, output_dims->w};
    return g;
}

/* The kernel's contract (helia_helium.h) but for the shifts (shifts_ok): as
 * helia_mve_conv_quantization_ok, whose loop over the shifts is folded into shifts_ok's. */
HELIA_MVE_INLINE int32_t conv_arguments_ok(const geometry *g, const cmsis_nn_context *ctx,
                                           const cmsis_nn_conv_params *conv_params, const cmsis_nn_dims *input_dims,
                                           const cmsis_nn_dims *filter_dims,
                                           const cmsis_nn_dims *output_dims)
{
    const int32_t channels = output_dims->c;
    return !(filter_dims->c != g->in_c || filter_dims->n != channels || output_dims->n != input_dims->n ||
             g->in_c < 1 || g->kernel_h < 1 || g->kernel_w < 1 || channels < 1 || output_dims->h < 1 ||
             g->out_w < 1 || g->stride_h < 1 || g->stride_w < 1 || g->dilation_h < 1 || g->dilation_w < 1 ||
             g->pad_h < 0 || g->pad_w < 0 || ctx == NULL || ctx->buf == NULL ||
             ctx->size < helia_mve_convolve_s8_buffer_size(input_dims, filter_dims) ||
             conv_params->input_offset < -127 || conv_params->input_offset > 128 ||
             conv_params->output_offset < -128 || conv_params->output_offset > 127 ||
             conv_params->activation.min < -128 || conv_params->activation.max > 127 ||
             conv_params->activation.min > conv_params->activation.max);
}

/* helia_mve_convolve_s8 for columns of at most SHORT_DEPTH bytes and at most SHORT_CHANNELS channels. */
static __attribute__((noinline)) arm_cmsis_nn_status
short_entry(const cmsis_nn_context *ctx, const cmsis_nn_context *weight_sum_ctx,
            const cmsis_nn_conv_params *conv_params, const cmsis_nn_per_channel_quant_params *quant_params,
            const cmsis_nn_dims *input_dims, const int8_t *input_data, const cmsis_nn_dims *filter_dims,
            const int8_t *filter_data, const int32_t *bias_data, const cmsis_nn_dims *output_dims,
            int8_t *output_data)
{
    const geometry g = conv_geometry(conv_params, input_dims, filter_dims, output_dims);
    if (!conv_arguments_ok(&g, ctx, conv_params, input_dims, filter_dims, output_dims) ||
        !shifts_ok(quant_params->shift, output_dims->c))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    short_run(&g, conv_params, quant_params, helia_mve_weight_sums(weight_sum_ctx, output_dims->c), bias_data,
              input_dims, input_data, filter_data, output_dims, output_data);
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status helia_mve_convolve_s8(const cmsis_nn_context *ctx,
                                          const cmsis_nn_context *weight_sum_ctx,
                                          const cmsis_nn_conv_params *conv_params,
                                          const cmsis_nn_per_channel_quant_params *quant_params,
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
    /* Stems (short columns, few channels) go to their own function: a branch here, and the rest of this
     * function compiles as it did without them. Not pointwise layers (1x1, stride 1, no padding): they are
     * helia_mve_convolve_1x1_s8's, which needs no scratch; were this path cheaper there, the compiler would
     * pick this kernel and its scratch (vww's 48x48x8 -> 16: 317,375 against 332,656 instructions, and 32
     * more bytes of arena). */
    if (filter_dims->h * filter_dims->w * input_dims->c <= SHORT_DEPTH && output_dims->c <= SHORT_CHANNELS &&
        (filter_dims->h != 1 || filter_dims->w != 1 || conv_params->stride.h != 1 || conv_params->stride.w != 1 ||
         conv_params->padding.h != 0 || conv_params->padding.w != 0))
    {
        return short_entry(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                           filter_data, bias_data, output_dims, output_data);
    }
    const geometry g = conv_geometry(conv_params, input_dims, filter_dims, output_dims);
    const int32_t depth = g.kernel_h * g.kernel_w * g.in_c;
    const int32_t channels = output_dims->c;
    const int32_t shifts = conv_arguments_ok(&g, ctx, conv_params, input_dims, filter_dims, output_dims)
                               ? shifts_ok(quant_params->shift, channels)
                               : 0;
    if (shifts == 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t *const weight_sums = helia_mve_weight_sums(weight_sum_ctx, channels);
    int8_t *const column_0 = (int8_t *)ctx->buf;
    const uint32x4_t pair_lanes = {0, 1, 0, 1};
    if (weight_sums != NULL && depth >= 16 && shifts == 3)
    {
        const wide_call a = {g,
                             input_data,
                             output_data,
                             filter_data,
                             weight_sums,
                             quant_params->multiplier,
                             quant_params->shift,
                             column_0,
                             input_dims->n,
                             output_dims->h * g.out_w,
                             channels,
                             depth,
                             conv_params->output_offset,
                             conv_params->activation.min,
                             conv_params->activation.max,
                             vdupq_n_s8((int8_t)-conv_params->input_offset),
                             pair_lanes};
        /* depth = 16 + 32 * passes + rest: rest 0 (e.g. 144), 16 (288, 576), 1 to 15 (27), 17 to 31 (40). */
        const int32_t rest = (depth - 16) & 31;
        if (depth == 144)
        {
            wide_144(&a);
        }
        else if (depth == 288)
        {
            wide_288(&a);
        }
        else if (depth < 48 && rest != 0 && rest != 16)
        {
            if (rest < 16)
            {
                wide_part_short(&a);
            }
            else
            {
                wide_half_part_short(&a);
            }
        }
        else if (rest == 0)
        {
            wide_whole(&a);
        }
        else if (rest == 16)
        {
            wide_half(&a);
        }
        else if (rest < 16)
        {
            wide_part(&a);
        }
        else
        {
            wide_half_part(&a);
        }
        return ARM_CMSIS_NN_SUCCESS;
    }
    int8_t *const column_1 = column_0 + depth;
    const int8x16_t pad = vdupq_n_s8((int8_t)-conv_params->input_offset);
    const int32_t input_offset = conv_params->input_offset;
    const int32_t output_offset = conv_params->output_offset;
    const int32x4_t act_min = vdupq_n_s32(conv_params->activation.min);
    const int32x4_t act_max = vdupq_n_s32(conv_params->activation.max);
    /* Lanes: (pixel 0, channel 0), (0, 1), (1, 0), (1, 1). */
    const uint32x4_t store_offsets = {0, 1, (uint32_t)channels, (uint32_t)channels + 1};
    const int32_t pixels = output_dims->h * g.out_w;

    for (int32_t b = 0; b < input_dims->n; ++b)
    {
        const int8_t *const image = input_data + b * g.in_h * g.in_w * g.in_c;
        int8_t *out = output_data + b * pixels * channels;
        int32_t oy = 0;
        int32_t ox = 0;
        for (int32_t p = 0; p < pixels; p += 2, out += 2 * channels)
        {
            /* A last single pixel runs as the tile's both pixels; only its own lanes are stored. */
            const int32_t pair = p + 1 < pixels;
            gather_column(image, &g, oy, ox, pad, column_0);
            next_pixel(&oy, &ox, g.out_w);
            if (pair)
            {
                gather_column(image, &g, oy, ox, pad, column_1);
                next_pixel(&oy, &ox, g.out_w);
            }
            const int8_t *const x1 = pair ? column_1 : column_0;
            const mve_pred16_t pixel_lanes = pair ? 0xFFFF : 0x00FF;
            const int8_t *w = filter_data;
            int32_t c = 0;
            for (; c + 1 < channels; c += 2, w += 2 * depth)
            {
                const int32_t start_0 = helia_mve_row_start(weight_sums, w, depth, bias_data, c, input_offset);
                const int32_t start_1 =
                    helia_mve_row_start(weight_sums, w + depth, depth, bias_data, c + 1, input_offset);
                const int32x4_t acc = helia_mve_tile_2x2(column_0, x1, w, w + depth, depth, start_0, start_1);
                finish_tile(acc, vldrwq_gather_shifted_offset_s32(quant_params->multiplier + c, pair_lanes),
                            vldrwq_gather_shifted_offset_s32(quant_params->shift + c, pair_lanes), output_offset,
                            act_min, act_max, out + c, store_offsets, pixel_lanes);
            }
            if (c < channels)
            {
                /* A last single channel: the tile's both channels, lanes 0 and 2 stored. */
                const int32_t start = helia_mve_row_start(weight_sums, w, depth, bias_data, c, input_offset);
                const int32x4_t acc = helia_mve_tile_2x2(column_0, x1, w, w, depth, start, start);
                finish_tile(acc, vdupq_n_s32(quant_params->multiplier[c]), vdupq_n_s32(quant_params->shift[c]),
                            output_offset, act_min, act_max, out + c, store_offsets,
                            (mve_pred16_t)(pixel_lanes & 0x0F0F));
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

#else /* !HELIA_HELIUM_AVAILABLE: no MVE (e.g. a host build of a module converted for a Helium core) */

#include "arm_nnfunctions.h"

/* The kernel library's general entry with the same arguments: for every call this kernel accepts it
 * computes the same bytes (tests/kernels/test_helium_parity.py). */
arm_cmsis_nn_status helia_mve_convolve_s8(const cmsis_nn_context *ctx,
                                          const cmsis_nn_context *weight_sum_ctx,
                                          const cmsis_nn_conv_params *conv_params,
                                          const cmsis_nn_per_channel_quant_params *quant_params,
                                          const cmsis_nn_dims *input_dims,
                                          const int8_t *input_data,
                                          const cmsis_nn_dims *filter_dims,
                                          const int8_t *filter_data,
                                          const cmsis_nn_dims *bias_dims,
                                          const int32_t *bias_data,
                                          const cmsis_nn_dims *output_dims,
                                          int8_t *output_data)
{
    return arm_convolve_s8(ctx, weight_sum_ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                           filter_data, bias_dims, bias_data, NULL, output_dims, output_data);
}

#endif /* HELIA_HELIUM_AVAILABLE */

int32_t helia_mve_convolve_s8_buffer_size(const cmsis_nn_dims *input_dims, const cmsis_nn_dims *filter_dims)
{
    return 2 * filter_dims->h * filter_dims->w * input_dims->c;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* float_driver.c, per float type: included once for float32 and once for float16. */

/*
 * FLT_SUF (_f32 / _f16), FLT_T, FLT_OF (bits -> value) and BITS_OF (value -> bits) select the type.
 * FN(x) names x for the type: FN(arm_softmax) is arm_softmax_f32 or arm_softmax_f16.
 */

#define FN(x) XCAT(x, FLT_SUF)
#define FN2(x, tail) XCAT(FN(x), tail)
#define NAME(x) XSTR(FN(x))
#define SIZER(x) XSTR(FN2(x, _get_buffer_size))

/* "<count> <bits...>" as an array of the type; NULL when empty and `empty_is_null`. */
static FLT_T *FN(rd_values)(int32_t *count, int empty_is_null)
{
    const int32_t n = read_int32();
    if (count != NULL)
    {
        *count = n;
    }
    if (n <= 0 && empty_is_null)
    {
        return NULL;
    }
    FLT_T *a = alloc((size_t)(n > 0 ? n : 1) * sizeof(FLT_T));
    for (int32_t i = 0; i < n; ++i)
    {
        a[i] = FLT_OF(read_int32());
    }
    return a;
}

/* An output array pre-filled with a recognisable pattern of bits. */
static FLT_T *FN(new_output)(int32_t count)
{
    FLT_T *out = alloc((size_t)(count > 0 ? count : 1) * sizeof(FLT_T));
    for (int32_t i = 0; i < count; ++i)
    {
        out[i] = FLT_OF(0x3A5A ^ (i & 0xFF));
    }
    return out;
}

static void FN(print_values)(int32_t status, const FLT_T *values, int32_t count)
{
    printf("%d %d", (int)status, (int)count);
    for (int32_t i = 0; i < count; ++i)
    {
        printf(" %ld", (long)BITS_OF(values[i]));
    }
    printf("\n");
}

/* ---- CONV_2D: <stride w h> <padding w h> <dilation w h> <act min max> <weight_format> <layout>
 *               <input dims> <filter dims> <output dims> [input] [filter] [bias] ---------------- */

static arm_nn_tensor_layout FN(rd_conv)(FN(cmsis_nn_conv_params) * p,
                                        cmsis_nn_dims *in,
                                        cmsis_nn_dims *filter,
                                        cmsis_nn_dims *out)
{
    rd_tile(&p->stride);
    rd_tile(&p->padding);
    rd_tile(&p->dilation);
    p->activation.min = FLT_OF(read_int32());
    p->activation.max = FLT_OF(read_int32());
    p->weight_format = (arm_nn_weight_format_flt)read_int32();
    const arm_nn_tensor_layout layout = (arm_nn_tensor_layout)read_int32();
    read_dims(in);
    read_dims(filter);
    read_dims(out);
    return layout;
}

static void FN(run_conv)(const char *name)
{
    FN(cmsis_nn_conv_params) p;
    cmsis_nn_dims in;
    cmsis_nn_dims filter;
    cmsis_nn_dims out;
    const arm_nn_tensor_layout layout = FN(rd_conv)(&p, &in, &filter, &out);
    int32_t bias_count;
    FLT_T *input = FN(rd_values)(NULL, 0);
    FLT_T *weights = FN(rd_values)(NULL, 0);
    FLT_T *bias = FN(rd_values)(&bias_count, 1);
    const cmsis_nn_dims bias_dims = {1, 1, 1, bias_count};
    FLT_T *output = FN(new_output)(volume(&out));
    arm_cmsis_nn_status status;
    cmsis_nn_context ctx;
    if (strcmp(name, NAME(arm_convolve_wrapper)) == 0 || strcmp(name, NAME(arm_convolve_nhwc)) == 0)
    {
        ctx = scratch(FN2(arm_convolve_wrapper, _get_buffer_size)(&p, &in, &filter, &out));
        status = (strcmp(name, NAME(arm_convolve_wrapper)) == 0)
            ? FN(arm_convolve_wrapper)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output)
            : FN(arm_convolve_nhwc)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output);
    }
    else if (strcmp(name, NAME(arm_convolve)) == 0)
    {
        ctx = scratch(FN2(arm_convolve, _get_buffer_size)(&p, &in, &filter, &out, layout));
        status = FN(arm_convolve)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output, layout);
    }
    else if (strncmp(name, "arm_convolve_1x1", 16) == 0)
    {
        ctx = scratch(FN2(arm_convolve_1x1, _get_buffer_size)(&p, &in, &filter, &out, ARM_NN_LAYOUT_NHWC));
        status = (strcmp(name, NAME(arm_convolve_1x1)) == 0)
            ? FN(arm_convolve_1x1)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output, layout)
            : FN(arm_convolve_1x1_nhwc)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output);
    }
    else
    {
        ctx = scratch(FN2(arm_convolve_1_x_n, _get_buffer_size)(&p, &in, &filter, &out, ARM_NN_LAYOUT_NHWC));
        status = (strcmp(name, NAME(arm_convolve_1_x_n)) == 0)
            ? FN(arm_convolve_1_x_n)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output, layout)
            : FN(arm_convolve_1_x_n_nhwc)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output);
    }
    FN(print_values)(status, output, volume(&out));
    free(ctx.buf);
    free(input);
    free(weights);
    free(bias);
    free(output);
}

static void FN(run_conv_sizer)(const char *name)
{
    FN(cmsis_nn_conv_params) p;
    cmsis_nn_dims in;
    cmsis_nn_dims filter;
    cmsis_nn_dims out;
    const arm_nn_tensor_layout layout = FN(rd_conv)(&p, &in, &filter, &out);
    int32_t size;
    if (strcmp(name, SIZER(arm_convolve_wrapper)) == 0)
    {
        size = FN2(arm_convolve_wrapper, _get_buffer_size)(&p, &in, &filter, &out);
    }
    else if (strcmp(name, SIZER(arm_convolve)) == 0)
    {
        size = FN2(arm_convolve, _get_buffer_size)(&p, &in, &filter, &out, layout);
    }
    else if (strcmp(name, SIZER(arm_convolve_1x1)) == 0)
    {
        size = FN2(arm_convolve_1x1, _get_buffer_size)(&p, &in, &filter, &out, layout);
    }
    else
    {
        size = FN2(arm_convolve_1_x_n, _get_buffer_size)(&p, &in, &filter, &out, layout);
    }
    print_size(size);
}

/* ---- DEPTHWISE_CONV_2D: <ch_mult> <stride> <padding> <dilation> <act> <layout> <dims x3> [input] [filter] [bias] */

static arm_nn_tensor_layout FN(rd_dw)(FN(cmsis_nn_dw_conv_params) * p,
                                      cmsis_nn_dims *in,
                                      cmsis_nn_dims *filter,
                                      cmsis_nn_dims *out)
{
    p->ch_mult = read_int32();
    rd_tile(&p->stride);
    rd_tile(&p->padding);
    rd_tile(&p->dilation);
    p->activation.min = FLT_OF(read_int32());
    p->activation.max = FLT_OF(read_int32());
    const arm_nn_tensor_layout layout = (arm_nn_tensor_layout)read_int32();
    read_dims(in);
    read_dims(filter);
    read_dims(out);
    return layout;
}

static void FN(run_depthwise)(const char *name)
{
    FN(cmsis_nn_dw_conv_params) p;
    cmsis_nn_dims in;
    cmsis_nn_dims filter;
    cmsis_nn_dims out;
    const arm_nn_tensor_layout layout = FN(rd_dw)(&p, &in, &filter, &out);
    int32_t bias_count;
    FLT_T *input = FN(rd_values)(NULL, 0);
    FLT_T *weights = FN(rd_values)(NULL, 0);
    FLT_T *bias = FN(rd_values)(&bias_count, 1);
    const cmsis_nn_dims bias_dims = {1, 1, 1, bias_count};
    FLT_T *output = FN(new_output)(volume(&out));
    arm_cmsis_nn_status status;
    cmsis_nn_context ctx;
    if (strcmp(name, NAME(arm_depthwise_conv)) == 0)
    {
        ctx = scratch(FN2(arm_depthwise_conv, _get_buffer_size)(&p, &in, &filter, &out, layout));
        status = FN(arm_depthwise_conv)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output, layout);
    }
    else
    {
        ctx = scratch(FN2(arm_depthwise_conv_wrapper, _get_buffer_size)(&p, &in, &filter, &out));
        status = (strcmp(name, NAME(arm_depthwise_conv_wrapper)) == 0)
            ? FN(arm_depthwise_conv_wrapper)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output)
            : FN(arm_depthwise_nhwc_conv)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output);
    }
    FN(print_values)(status, output, volume(&out));
    free(ctx.buf);
    free(input);
    free(weights);
    free(bias);
    free(output);
}

static void FN(run_depthwise_sizer)(const char *name)
{
    FN(cmsis_nn_dw_conv_params) p;
    cmsis_nn_dims in;
    cmsis_nn_dims filter;
    cmsis_nn_dims out;
    const arm_nn_tensor_layout layout = FN(rd_dw)(&p, &in, &filter, &out);
    print_size(strcmp(name, SIZER(arm_depthwise_conv)) == 0
                   ? FN2(arm_depthwise_conv, _get_buffer_size)(&p, &in, &filter, &out, layout)
                   : FN2(arm_depthwise_conv_wrapper, _get_buffer_size)(&p, &in, &filter, &out));
}

/* ---- FULLY_CONNECTED: <act> <weight_format> <layout> <dims x3> [input] [kernel] [bias] ------------- */

static arm_nn_tensor_layout FN(rd_fc)(FN(cmsis_nn_fc_params) * p,
                                      cmsis_nn_dims *in,
                                      cmsis_nn_dims *filter,
                                      cmsis_nn_dims *out)
{
    p->activation.min = FLT_OF(read_int32());
    p->activation.max = FLT_OF(read_int32());
    p->weight_format = (arm_nn_weight_format_flt)read_int32();
    const arm_nn_tensor_layout layout = (arm_nn_tensor_layout)read_int32();
    read_dims(in);
    read_dims(filter);
    read_dims(out);
    return layout;
}

static void FN(run_fully_connected)(const char *name)
{
    FN(cmsis_nn_fc_params) p;
    cmsis_nn_dims in;
    cmsis_nn_dims filter;
    cmsis_nn_dims out;
    const arm_nn_tensor_layout layout = FN(rd_fc)(&p, &in, &filter, &out);
    int32_t bias_count;
    FLT_T *input = FN(rd_values)(NULL, 0);
    FLT_T *weights = FN(rd_values)(NULL, 0);
    FLT_T *bias = FN(rd_values)(&bias_count, 1);
    const cmsis_nn_dims bias_dims = {1, 1, 1, bias_count};
    FLT_T *output = FN(new_output)(volume(&out));
    cmsis_nn_context ctx = scratch(FN2(arm_fully_connected, _get_buffer_size)(&p, &in, &filter, &out, layout));
    const arm_cmsis_nn_status status = (strcmp(name, NAME(arm_fully_connected)) == 0)
        ? FN(arm_fully_connected)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output, layout)
        : FN(arm_fully_connected_nhwc)(&ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out, output);
    FN(print_values)(status, output, volume(&out));
    free(ctx.buf);
    free(input);
    free(weights);
    free(bias);
    free(output);
}

static void FN(run_fc_sizer)(const char *name)
{
    (void)name;
    FN(cmsis_nn_fc_params) p;
    cmsis_nn_dims in;
    cmsis_nn_dims filter;
    cmsis_nn_dims out;
    const arm_nn_tensor_layout layout = FN(rd_fc)(&p, &in, &filter, &out);
    print_size(FN2(arm_fully_connected, _get_buffer_size)(&p, &in, &filter, &out, layout));
}

/* ---- TRANSPOSE_CONV: <stride> <padding> <padding_offsets> <dilation> <act> <layout> <dims x3> [input] [filter] [bias] */

static arm_nn_tensor_layout FN(rd_tconv)(FN(cmsis_nn_transpose_conv_params) * p,
                                         cmsis_nn_dims *in,
                                         cmsis_nn_dims *filter,
                                         cmsis_nn_dims *out)
{
    rd_tile(&p->stride);
    rd_tile(&p->padding);
    rd_tile(&p->padding_offsets);
    rd_tile(&p->dilation);
    p->activation.min = FLT_OF(read_int32());
    p->activation.max = FLT_OF(read_int32());
    const arm_nn_tensor_layout layout = (arm_nn_tensor_layout)read_int32();
    read_dims(in);
    read_dims(filter);
    read_dims(out);
    return layout;
}

static void FN(run_transpose_conv)(const char *name)
{
    FN(cmsis_nn_transpose_conv_params) p;
    cmsis_nn_dims in;
    cmsis_nn_dims filter;
    cmsis_nn_dims out;
    const arm_nn_tensor_layout layout = FN(rd_tconv)(&p, &in, &filter, &out);
    int32_t bias_count;
    FLT_T *input = FN(rd_values)(NULL, 0);
    FLT_T *weights = FN(rd_values)(NULL, 0);
    FLT_T *bias = FN(rd_values)(&bias_count, 1);
    const cmsis_nn_dims bias_dims = {1, 1, 1, bias_count};
    FLT_T *output = FN(new_output)(volume(&out));
    cmsis_nn_context ctx = scratch(FN2(arm_transpose_conv, _get_buffer_size)(&p, &in, &filter, &out));
    cmsis_nn_context output_ctx = scratch(FN2(arm_transpose_conv, _get_reverse_conv_buffer_size)(&p, &in, &filter));
    arm_cmsis_nn_status status;
    if (strcmp(name, NAME(arm_transpose_conv_wrapper)) == 0)
    {
        status = FN(arm_transpose_conv_wrapper)(&ctx, &output_ctx, &p, &in, input, &filter, weights, &bias_dims, bias,
                                                &out, output, layout);
    }
    else if (strcmp(name, NAME(arm_transpose_conv)) == 0)
    {
        status = FN(arm_transpose_conv)(&ctx, &output_ctx, &p, &in, input, &filter, weights, &bias_dims, bias, &out,
                                        output, layout);
    }
    else
    {
        status = FN(arm_transpose_conv_nhwc)(&ctx, &output_ctx, &p, &in, input, &filter, weights, &bias_dims, bias,
                                             &out, output);
    }
    FN(print_values)(status, output, volume(&out));
    free(ctx.buf);
    free(output_ctx.buf);
    free(input);
    free(weights);
    free(bias);
    free(output);
}

static void FN(run_transpose_conv_sizer)(const char *name)
{
    FN(cmsis_nn_transpose_conv_params) p;
    cmsis_nn_dims in;
    cmsis_nn_dims filter;
    cmsis_nn_dims out;
    (void)FN(rd_tconv)(&p, &in, &filter, &out);
    print_size(strcmp(name, SIZER(arm_transpose_conv)) == 0
                   ? FN2(arm_transpose_conv, _get_buffer_size)(&p, &in, &filter, &out)
                   : FN2(arm_transpose_conv, _get_reverse_conv_buffer_size)(&p, &in, &filter));
}

/* ---- AVERAGE / MAX POOL: <stride> <padding> <act> <input dims> <filter dims> <output dims> [input] */

static void FN(run_pool)(const char *name)
{
    FN(cmsis_nn_pool_params) p;
    cmsis_nn_dims in;
    cmsis_nn_dims filter;
    cmsis_nn_dims out;
    rd_tile(&p.stride);
    rd_tile(&p.padding);
    p.activation.min = FLT_OF(read_int32());
    p.activation.max = FLT_OF(read_int32());
    read_dims(&in);
    read_dims(&filter);
    read_dims(&out);
    FLT_T *input = FN(rd_values)(NULL, 0);
    FLT_T *output = FN(new_output)(volume(&out));
    cmsis_nn_context ctx = scratch(0);
    const arm_cmsis_nn_status status = (strcmp(name, NAME(arm_avg_pool)) == 0)
        ? FN(arm_avg_pool)(&ctx, &p, &in, input, &filter, &out, output)
        : FN(arm_max_pool)(&ctx, &p, &in, input, &filter, &out, output);
    FN(print_values)(status, output, volume(&out));
    free(input);
    free(output);
}

/* ---- SOFTMAX: <rows> <row_size> [input] ------------------------------------------------------------ */

static void FN(run_softmax)(const char *name)
{
    (void)name;
    const int32_t rows = read_int32();
    const int32_t row_size = read_int32();
    FLT_T *input = FN(rd_values)(NULL, 0);
    const int32_t count = (rows > 0 && row_size > 0) ? rows * row_size : 0;
    FLT_T *output = FN(new_output)(count);
    const arm_cmsis_nn_status status = FN(arm_softmax)(input, rows, row_size, output);
    FN(print_values)(status, output, count);
    free(input);
    free(output);
}

/* ---- activation: <type> <act_param> [input] --------------------------------------------------------- */

static void FN(run_activation)(const char *name)
{
    (void)name;
    const arm_nn_activation_type_flt type = (arm_nn_activation_type_flt)read_int32();
    const FLT_T act_param = FLT_OF(read_int32());
    int32_t count;
    FLT_T *input = FN(rd_values)(&count, 0);
    FLT_T *output = FN(new_output)(count);
    const arm_cmsis_nn_status status = FN(arm_nn_activation)(input, output, count, type, act_param);
    FN(print_values)(status, output, count);
    free(input);
    free(output);
}

/* ---- ADD / SUB / MUL: <act min max> [input 1] [input 2] (the block is input 1's length) ------------- */

static void FN(run_elementwise)(const char *name)
{
    const FLT_T act_min = FLT_OF(read_int32());
    const FLT_T act_max = FLT_OF(read_int32());
    int32_t count;
    FLT_T *a = FN(rd_values)(&count, 0);
    FLT_T *b = FN(rd_values)(NULL, 0);
    FLT_T *output = FN(new_output)(count);
    arm_cmsis_nn_status status;
    if (strcmp(name, NAME(arm_elementwise_add)) == 0)
    {
        status = FN(arm_elementwise_add)(a, b, output, act_min, act_max, count);
    }
#if FLT_HAS_ELEMENTWISE_SUB
    else if (strcmp(name, NAME(arm_elementwise_sub)) == 0)
    {
        status = FN(arm_elementwise_sub)(a, b, output, act_min, act_max, count);
    }
#endif
    else
    {
        status = FN(arm_elementwise_mul)(a, b, output, act_min, act_max, count);
    }
    FN(print_values)(status, output, count);
    free(a);
    free(b);
    free(output);
}

/* ---- MAXIMUM / MINIMUM: <input 1 dims> <input 2 dims> <output dims> [input 1] [input 2] -------------- */

static void FN(run_minmax)(const char *name)
{
    cmsis_nn_dims d1;
    cmsis_nn_dims d2;
    cmsis_nn_dims out;
    read_dims(&d1);
    read_dims(&d2);
    read_dims(&out);
    FLT_T *a = FN(rd_values)(NULL, 0);
    FLT_T *b = FN(rd_values)(NULL, 0);
    FLT_T *output = FN(new_output)(volume(&out));
    cmsis_nn_context ctx = scratch(0);
    const arm_cmsis_nn_status status = (strcmp(name, NAME(arm_maximum)) == 0)
        ? FN(arm_maximum)(&ctx, a, &d1, b, &d2, output, &out)
        : FN(arm_minimum)(&ctx, a, &d1, b, &d2, output, &out);
    FN(print_values)(status, output, volume(&out));
    free(a);
    free(b);
    free(output);
}

/* ---- PAD: <pad value> <input dims> <pre> <post> [input] ---------------------------------------------- */

static void FN(run_pad)(const char *name)
{
    (void)name;
    const FLT_T pad_value = FLT_OF(read_int32());
    cmsis_nn_dims in;
    cmsis_nn_dims pre;
    cmsis_nn_dims post;
    read_dims(&in);
    read_dims(&pre);
    read_dims(&post);
    FLT_T *input = FN(rd_values)(NULL, 0);
    const cmsis_nn_dims out = {pre.n + in.n + post.n, pre.h + in.h + post.h, pre.w + in.w + post.w,
                               pre.c + in.c + post.c};
    FLT_T *output = FN(new_output)(volume(&out));
    const arm_cmsis_nn_status status = FN(arm_pad)(input, output, pad_value, &in, &pre, &post);
    FN(print_values)(status, output, volume(&out));
    free(input);
    free(output);
}

#if FLT_HAS_STRIDED_SLICE
/* ---- STRIDED_SLICE: <input dims> <begin> <stride> <output dims> [input] ------------------------------- */

static void FN(run_strided_slice)(const char *name)
{
    (void)name;
    cmsis_nn_dims in;
    cmsis_nn_dims begin;
    cmsis_nn_dims stride;
    cmsis_nn_dims out;
    read_dims(&in);
    read_dims(&begin);
    read_dims(&stride);
    read_dims(&out);
    FLT_T *input = FN(rd_values)(NULL, 0);
    FLT_T *output = FN(new_output)(volume(&out));
    const arm_cmsis_nn_status status = FN(arm_strided_slice)(input, output, &in, &begin, &stride, &out);
    FN(print_values)(status, output, volume(&out));
    free(input);
    free(output);
}
#endif

/* ---- TRANSPOSE: <num_dims> <perm x4> <layout> <input dims> <output dims> [input] ----------------------- */

static void FN(run_transpose)(const char *name)
{
    (void)name;
    FN(cmsis_nn_transpose_params) p;
    p.num_dims = read_int32();
    for (int i = 0; i < 4; ++i)
    {
        p.perm[i] = read_int32();
    }
    p.layout = (arm_nn_tensor_layout)read_int32();
    cmsis_nn_dims in;
    cmsis_nn_dims out;
    read_dims(&in);
    read_dims(&out);
    int32_t count;
    FLT_T *input = FN(rd_values)(&count, 0);
    FLT_T *output = FN(new_output)(count);
    cmsis_nn_context ctx = scratch(0);
    const arm_cmsis_nn_status status = FN(arm_transpose)(&ctx, &p, &in, input, &out, output);
    FN(print_values)(status, output, count);
    free(input);
    free(output);
}

#if FLT_HAS_REDUCE_SUM
/* ---- SUM: <input dims> <axis flags> <output dims> [input] ---------------------------------------------- */

static void FN(run_reduce_sum)(const char *name)
{
    (void)name;
    cmsis_nn_dims in;
    cmsis_nn_dims axis;
    cmsis_nn_dims out;
    read_dims(&in);
    read_dims(&axis);
    read_dims(&out);
    FLT_T *input = FN(rd_values)(NULL, 0);
    FLT_T *output = FN(new_output)(volume(&out));
    const arm_cmsis_nn_status status = FN(arm_reduce_sum)(input, &in, &axis, output, &out);
    FN(print_values)(status, output, volume(&out));
    free(input);
    free(output);
}
#endif

static const handler FN(handlers)[] = {
    {NAME(arm_convolve_wrapper), FN(run_conv)},
    {NAME(arm_convolve), FN(run_conv)},
    {NAME(arm_convolve_nhwc), FN(run_conv)},
    {NAME(arm_convolve_1x1), FN(run_conv)},
    {NAME(arm_convolve_1x1_nhwc), FN(run_conv)},
    {NAME(arm_convolve_1_x_n), FN(run_conv)},
    {NAME(arm_convolve_1_x_n_nhwc), FN(run_conv)},
    {SIZER(arm_convolve_wrapper), FN(run_conv_sizer)},
    {SIZER(arm_convolve), FN(run_conv_sizer)},
    {SIZER(arm_convolve_1x1), FN(run_conv_sizer)},
    {SIZER(arm_convolve_1_x_n), FN(run_conv_sizer)},
    {NAME(arm_depthwise_conv_wrapper), FN(run_depthwise)},
    {NAME(arm_depthwise_conv), FN(run_depthwise)},
    {NAME(arm_depthwise_nhwc_conv), FN(run_depthwise)},
    {SIZER(arm_depthwise_conv_wrapper), FN(run_depthwise_sizer)},
    {SIZER(arm_depthwise_conv), FN(run_depthwise_sizer)},
    {NAME(arm_fully_connected), FN(run_fully_connected)},
    {NAME(arm_fully_connected_nhwc), FN(run_fully_connected)},
    {SIZER(arm_fully_connected), FN(run_fc_sizer)},
    {NAME(arm_transpose_conv_wrapper), FN(run_transpose_conv)},
    {NAME(arm_transpose_conv), FN(run_transpose_conv)},
    {NAME(arm_transpose_conv_nhwc), FN(run_transpose_conv)},
    {SIZER(arm_transpose_conv), FN(run_transpose_conv_sizer)},
    {XSTR(FN2(arm_transpose_conv, _get_reverse_conv_buffer_size)), FN(run_transpose_conv_sizer)},
    {NAME(arm_avg_pool), FN(run_pool)},
    {NAME(arm_max_pool), FN(run_pool)},
    {NAME(arm_softmax), FN(run_softmax)},
    {NAME(arm_nn_activation), FN(run_activation)},
    {NAME(arm_elementwise_add), FN(run_elementwise)},
#if FLT_HAS_ELEMENTWISE_SUB
    {NAME(arm_elementwise_sub), FN(run_elementwise)},
#endif
    {NAME(arm_elementwise_mul), FN(run_elementwise)},
    {NAME(arm_maximum), FN(run_minmax)},
    {NAME(arm_minimum), FN(run_minmax)},
    {NAME(arm_pad), FN(run_pad)},
#if FLT_HAS_STRIDED_SLICE
    {NAME(arm_strided_slice), FN(run_strided_slice)},
#endif
    {NAME(arm_transpose), FN(run_transpose)},
#if FLT_HAS_REDUCE_SUM
    {NAME(arm_reduce_sum), FN(run_reduce_sum)},
#endif
    {NULL, NULL},
};

#undef FN
#undef FN2
#undef NAME
#undef SIZER

/* SPDX-License-Identifier: Apache-2.0 */
/* helia-aot portable kernels: private BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND / DEPTH_TO_SPACE / SPACE_TO_DEPTH
 * moves and RESIZE_NEAREST_NEIGHBOR of NHWC tensors of any element size. */

#include "space_batch_elements.h"

/* Byte offset of pixel (n, h, w) of a tensor with h x w pixels of `pixel_bytes` each. */
static size_t pixel_offset(int32_t n, int32_t h, int32_t w, int32_t height, int32_t width, size_t pixel_bytes)
{
    return (((size_t)n * (size_t)height + (size_t)h) * (size_t)width + (size_t)w) * pixel_bytes;
}

arm_cmsis_nn_status helia_batch_to_space_nd_elements(const void *input,
                                                     const cmsis_nn_dims *input_dims,
                                                     const cmsis_nn_tile *block_shape,
                                                     const cmsis_nn_dims *crop,
                                                     void *output,
                                                     const cmsis_nn_dims *output_dims,
                                                     size_t element_size)
{
    if (input == NULL || input_dims == NULL || block_shape == NULL || crop == NULL || output == NULL ||
        output_dims == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t block_h = block_shape->h;
    const int32_t block_w = block_shape->w;
    /* crop: n = top, h = left, w = bottom, c = right (ns-cmsis-nn's packing) */
    if (block_h <= 0 || block_w <= 0 || crop->n < 0 || crop->h < 0 || crop->w < 0 || crop->c < 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (input_dims->n % (block_h * block_w) != 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t out_n = input_dims->n / (block_h * block_w);
    const int32_t out_h = input_dims->h * block_h - crop->n - crop->w;
    const int32_t out_w = input_dims->w * block_w - crop->h - crop->c;
    if (out_h < 0 || out_w < 0 || output_dims->n != out_n || output_dims->h != out_h || output_dims->w != out_w ||
        output_dims->c != input_dims->c)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const size_t pixel_bytes = (size_t)input_dims->c * element_size;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    /* Gather: every output pixel comes from exactly one input pixel. */
    for (int32_t n = 0; n < out_n; ++n)
    {
        for (int32_t h = 0; h < out_h; ++h)
        {
            const int32_t row = h + crop->n; /* row in the uncropped output */
            for (int32_t w = 0; w < out_w; ++w)
            {
                const int32_t col = w + crop->h;
                const int32_t in_b = ((row % block_h) * block_w + col % block_w) * out_n + n;
                memcpy(out + pixel_offset(n, h, w, out_h, out_w, pixel_bytes),
                       in + pixel_offset(in_b, row / block_h, col / block_w, input_dims->h, input_dims->w, pixel_bytes),
                       pixel_bytes);
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status helia_space_to_batch_nd_elements(const void *input,
                                                     const cmsis_nn_dims *input_dims,
                                                     const cmsis_nn_tile *block_shape,
                                                     const cmsis_nn_dims *pad,
                                                     void *output,
                                                     const cmsis_nn_dims *output_dims,
                                                     const void *pad_value,
                                                     size_t element_size)
{
    if (input == NULL || input_dims == NULL || block_shape == NULL || pad == NULL || output == NULL ||
        pad_value == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t block_h = block_shape->h;
    const int32_t block_w = block_shape->w;
    /* pad: n = top, h = left, w = bottom, c = right. Negative padding (a crop) is refused. */
    if (block_h <= 0 || block_w <= 0 || pad->n < 0 || pad->h < 0 || pad->w < 0 || pad->c < 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t padded_h = pad->n + input_dims->h + pad->w;
    const int32_t padded_w = pad->h + input_dims->w + pad->c;
    if (padded_h % block_h != 0 || padded_w % block_w != 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t in_n = input_dims->n;
    const int32_t out_n = in_n * block_h * block_w;
    const int32_t out_h = padded_h / block_h;
    const int32_t out_w = padded_w / block_w;
    if (output_dims != NULL && (output_dims->n != out_n || output_dims->h != out_h || output_dims->w != out_w ||
                                output_dims->c != input_dims->c))
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t channels = input_dims->c;
    const size_t pixel_bytes = (size_t)channels * element_size;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    for (int32_t n = 0; n < out_n; ++n)
    {
        const int32_t in_b = n % in_n;
        const int32_t shift_h = (n / in_n) / block_w;
        const int32_t shift_w = (n / in_n) % block_w;
        for (int32_t h = 0; h < out_h; ++h)
        {
            const int32_t row = h * block_h + shift_h - pad->n; /* row of the unpadded input */
            for (int32_t w = 0; w < out_w; ++w)
            {
                const int32_t col = w * block_w + shift_w - pad->h;
                uint8_t *dst = out + pixel_offset(n, h, w, out_h, out_w, pixel_bytes);
                if (row < 0 || row >= input_dims->h || col < 0 || col >= input_dims->w)
                {
                    for (int32_t c = 0; c < channels; ++c)
                    {
                        memcpy(dst + (size_t)c * element_size, pad_value, element_size);
                    }
                }
                else
                {
                    memcpy(dst, in + pixel_offset(in_b, row, col, input_dims->h, input_dims->w, pixel_bytes),
                           pixel_bytes);
                }
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status helia_depth_to_space_elements(const void *input,
                                                  const cmsis_nn_dims *input_dims,
                                                  int32_t block_size,
                                                  void *output,
                                                  const cmsis_nn_dims *output_dims,
                                                  size_t element_size)
{
    if (input == NULL || input_dims == NULL || output == NULL || output_dims == NULL || block_size <= 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t block_area = block_size * block_size;
    if (input_dims->c % block_area != 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t out_c = input_dims->c / block_area;
    const int32_t out_h = input_dims->h * block_size;
    const int32_t out_w = input_dims->w * block_size;
    if (output_dims->n != input_dims->n || output_dims->h != out_h || output_dims->w != out_w ||
        output_dims->c != out_c)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const size_t out_pixel_bytes = (size_t)out_c * element_size;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        for (int32_t h = 0; h < out_h; ++h)
        {
            for (int32_t w = 0; w < out_w; ++w)
            {
                const int32_t slot = (h % block_size) * block_size + w % block_size;
                const size_t src = pixel_offset(n, h / block_size, w / block_size, input_dims->h, input_dims->w,
                                                (size_t)input_dims->c * element_size) +
                    (size_t)slot * out_pixel_bytes;
                memcpy(out + pixel_offset(n, h, w, out_h, out_w, out_pixel_bytes), in + src, out_pixel_bytes);
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

arm_cmsis_nn_status helia_space_to_depth_elements(const void *input,
                                                  const cmsis_nn_dims *input_dims,
                                                  int32_t block_size,
                                                  void *output,
                                                  const cmsis_nn_dims *output_dims,
                                                  size_t element_size)
{
    if (input == NULL || input_dims == NULL || output == NULL || output_dims == NULL || block_size <= 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (input_dims->h % block_size != 0 || input_dims->w % block_size != 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t out_h = input_dims->h / block_size;
    const int32_t out_w = input_dims->w / block_size;
    const int32_t out_c = input_dims->c * block_size * block_size;
    if (output_dims->n != input_dims->n || output_dims->h != out_h || output_dims->w != out_w ||
        output_dims->c != out_c)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const size_t in_pixel_bytes = (size_t)input_dims->c * element_size;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    for (int32_t n = 0; n < input_dims->n; ++n)
    {
        for (int32_t h = 0; h < input_dims->h; ++h)
        {
            for (int32_t w = 0; w < input_dims->w; ++w)
            {
                const int32_t slot = (h % block_size) * block_size + w % block_size;
                const size_t dst = pixel_offset(n, h / block_size, w / block_size, out_h, out_w,
                                                (size_t)out_c * element_size) +
                    (size_t)slot * in_pixel_bytes;
                memcpy(out + dst, in + pixel_offset(n, h, w, input_dims->h, input_dims->w, in_pixel_bytes),
                       in_pixel_bytes);
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

/*
 * TFLite's GetNearestNeighbor: (index + offset) * scale in float, floored (rounded half away from zero
 * with align_corners), at most size - 1 (and at least 0 with half-pixel centres). The value is never
 * negative, so truncation is the floor and the fraction decides the rounding exactly: no libm.
 */
static int32_t nearest_index(int32_t index, int32_t size, float scale, float offset, bool align_corners,
                             bool half_pixel_centers)
{
    const float scaled = ((float)index + offset) * scale;
    int32_t value = (int32_t)scaled;
    if (align_corners && scaled - (float)value >= 0.5f)
    {
        value += 1;
    }
    if (value > size - 1)
    {
        value = size - 1;
    }
    if (half_pixel_centers && value < 0)
    {
        value = 0;
    }
    return value;
}

static float axis_scale(int32_t in_size, int32_t out_size, bool align_corners)
{
    if (align_corners && out_size > 1)
    {
        return (float)(in_size - 1) / (float)(out_size - 1);
    }
    return (float)in_size / (float)out_size;
}

arm_cmsis_nn_status helia_resize_nearest_neighbor_elements(const cmsis_nn_resize_params *resize_params,
                                                           const cmsis_nn_dims *input_shape,
                                                           const void *input_data,
                                                           const cmsis_nn_dims *output_size_shape,
                                                           const int32_t *output_size_data,
                                                           const cmsis_nn_dims *output_shape,
                                                           void *output_data,
                                                           size_t element_size)
{
    if (resize_params == NULL || input_shape == NULL || input_data == NULL || output_size_shape == NULL ||
        output_size_data == NULL || output_shape == NULL || output_data == NULL)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    if (input_shape->n != output_shape->n || input_shape->c != output_shape->c ||
        output_size_shape->n * output_size_shape->h * output_size_shape->w * output_size_shape->c != 2)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const int32_t out_h = output_size_data[0];
    const int32_t out_w = output_size_data[1];
    if (out_h <= 0 || out_w <= 0)
    {
        return ARM_CMSIS_NN_ARG_ERROR;
    }
    const bool align = resize_params->align_corners;
    const bool half = resize_params->half_pixel_centers;
    const float offset = half ? 0.5f : 0.0f;
    const float scale_h = axis_scale(input_shape->h, out_h, align);
    const float scale_w = axis_scale(input_shape->w, out_w, align);
    const size_t pixel_bytes = (size_t)input_shape->c * element_size;
    const uint8_t *in = (const uint8_t *)input_data;
    uint8_t *out = (uint8_t *)output_data;
    for (int32_t n = 0; n < input_shape->n; ++n)
    {
        for (int32_t y = 0; y < out_h; ++y)
        {
            const int32_t in_y = nearest_index(y, input_shape->h, scale_h, offset, align, half);
            for (int32_t x = 0; x < out_w; ++x)
            {
                const int32_t in_x = nearest_index(x, input_shape->w, scale_w, offset, align, half);
                memcpy(out, in + pixel_offset(n, in_y, in_x, input_shape->h, input_shape->w, pixel_bytes),
                       pixel_bytes);
                out += pixel_bytes;
            }
        }
    }
    return ARM_CMSIS_NN_SUCCESS;
}

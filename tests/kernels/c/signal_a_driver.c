/* SPDX-License-Identifier: Apache-2.0 */
/* Test driver for the TFLM Signal kernels of helia_signal.h (window, FFT auto scale, energy, filter bank,
 * filter bank square root). One record per line on stdin:
 *   window WINDOW_SIZE INPUT_SIZE SHIFT W[WINDOW_SIZE] IN[INPUT_SIZE]
 *   fft_auto_scale N IN[N]
 *   energy BINS START END OUT_SIZE SPECTRUM[2 * BINS]
 *   filter_bank INPUT_SIZE WEIGHTS_SIZE CHANNELS IN[INPUT_SIZE] W[WEIGHTS_SIZE] UW[WEIGHTS_SIZE]
 *               FREQ_STARTS[CHANNELS + 1] WEIGHT_STARTS[CHANNELS + 1] WIDTHS[CHANNELS + 1]
 *   square_root N SHIFT IN[N]
 * One line per record on stdout: the status, then the outputs (fft_auto_scale: the scale, then them).
 * Buffers are allocated at their exact sizes, so ASan sees any access outside them. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helia_signal.h"

#define DRIVER_NAME "signal_a_driver"
#include "driver_io.h"

static void *alloc(long count, size_t size)
{
    /* At least one byte, so a zero-length array is still a distinct allocation. */
    void *p = malloc(count > 0 ? (size_t)count * size : 1u);
    if (p == NULL)
    {
        exit(3);
    }
    return p;
}

static int16_t *read_s16(long n)
{
    int16_t *p = alloc(n, sizeof(int16_t));
    for (long i = 0; i < n; ++i)
    {
        p[i] = (int16_t)read_integer();
    }
    return p;
}

static void run_window(void)
{
    const long window_size = (long)read_integer();
    const long input_size = (long)read_integer();
    const long shift = (long)read_integer();
    int16_t *window = read_s16(window_size);
    int16_t *input = read_s16(input_size);
    int16_t *output = alloc(input_size, sizeof(int16_t));
    const int32_t status = helia_signal_window_s16(input, window, (int32_t)window_size, (int32_t)input_size,
                                                   (int32_t)shift, output);
    printf("%ld", (long)status);
    for (long i = 0; status == 0 && i < input_size; ++i)
    {
        printf(" %d", output[i]);
    }
    printf("\n");
    free(window);
    free(input);
    free(output);
}

static void run_fft_auto_scale(void)
{
    const long n = (long)read_integer();
    int16_t *input = read_s16(n);
    int16_t *output = alloc(n, sizeof(int16_t));
    int32_t scale = -99;
    const int32_t status = helia_signal_fft_auto_scale_s16(input, (int32_t)n, output, &scale);
    printf("%ld %ld", (long)status, (long)scale);
    for (long i = 0; status == 0 && i < n; ++i)
    {
        printf(" %d", output[i]);
    }
    printf("\n");
    free(input);
    free(output);
}

static void run_energy(void)
{
    const long bins = (long)read_integer();
    const long start = (long)read_integer();
    const long end = (long)read_integer();
    const long out_size = (long)read_integer();
    int16_t *spectrum = read_s16(2 * bins);
    uint32_t *output = alloc(out_size, sizeof(uint32_t));
    memset(output, 0xA5, out_size > 0 ? (size_t)out_size * sizeof(uint32_t) : 0u);
    const int32_t status = helia_signal_energy_s16_u32(spectrum, (int32_t)bins, (int32_t)start, (int32_t)end, output,
                                                       (int32_t)out_size);
    printf("%ld", (long)status);
    for (long i = 0; status == 0 && i < out_size; ++i)
    {
        printf(" %lu", (unsigned long)output[i]);
    }
    printf("\n");
    free(spectrum);
    free(output);
}

static void run_filter_bank(void)
{
    const long input_size = (long)read_integer();
    const long weights_size = (long)read_integer();
    const long channels = (long)read_integer();
    uint32_t *input = alloc(input_size, sizeof(uint32_t));
    for (long i = 0; i < input_size; ++i)
    {
        input[i] = (uint32_t)read_unsigned();
    }
    int16_t *weights = read_s16(weights_size);
    int16_t *unweights = read_s16(weights_size);
    int16_t *freq_starts = read_s16(channels + 1);
    int16_t *weight_starts = read_s16(channels + 1);
    int16_t *widths = read_s16(channels + 1);
    uint64_t *output = alloc(channels, sizeof(uint64_t));
    const int32_t status = helia_signal_filter_bank_u32_u64(input, (int32_t)input_size, weights, unweights,
                                                            (int32_t)weights_size, freq_starts, weight_starts,
                                                            widths, (int32_t)channels, output);
    printf("%ld", (long)status);
    for (long i = 0; status == 0 && i < channels; ++i)
    {
        printf(" %llu", (unsigned long long)output[i]);
    }
    printf("\n");
    free(input);
    free(weights);
    free(unweights);
    free(freq_starts);
    free(weight_starts);
    free(widths);
    free(output);
}

static void run_square_root(void)
{
    const long n = (long)read_integer();
    const long shift = (long)read_integer();
    uint64_t *input = alloc(n, sizeof(uint64_t));
    for (long i = 0; i < n; ++i)
    {
        input[i] = (uint64_t)read_unsigned();
    }
    uint32_t *output = alloc(n, sizeof(uint32_t));
    const int32_t status = helia_signal_filter_bank_square_root_u64_u32(input, (int32_t)n, (int32_t)shift, output);
    printf("%ld", (long)status);
    for (long i = 0; status == 0 && i < n; ++i)
    {
        printf(" %lu", (unsigned long)output[i]);
    }
    printf("\n");
    free(input);
    free(output);
}

int main(void)
{
    char name[64];
    while (scanf("%63s", name) == 1)
    {
        if (strcmp(name, "window") == 0)
        {
            run_window();
        }
        else if (strcmp(name, "fft_auto_scale") == 0)
        {
            run_fft_auto_scale();
        }
        else if (strcmp(name, "energy") == 0)
        {
            run_energy();
        }
        else if (strcmp(name, "filter_bank") == 0)
        {
            run_filter_bank();
        }
        else if (strcmp(name, "square_root") == 0)
        {
            run_square_root();
        }
        else
        {
            fprintf(stderr, "signal_a_driver: unknown record '%s'\n", name);
            return 2;
        }
    }
    return 0;
}

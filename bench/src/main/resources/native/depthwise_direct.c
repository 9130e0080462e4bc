/* Depthwise conv2d as a plain direct loop in C, the baseline a depthwise kernel has to beat (im2col +
 * GEMM is none: a GEMM of one row per channel runs at about 1 GFLOP/s). NCHW input, C x R x S
 * filters, output N x C x P x Q; per output row, each filter tap adds a contiguous run of inputs
 * (the valid columns only, so the inner loop has no branch and gcc -O3 -march=native vectorises it
 * at stride 1). Channels are shared among THREADS OpenMP threads. Verified once against a double
 * reference, then sampled by the harness's rule (sampling.h).
 * Usage: depthwise_direct N C H W R S STRIDE PAD THREADS MIN_SAMPLES MIN_MS */
#include <omp.h>
#include "sampling.h"

static int n, c, h, w, r, s, stride, pad, p, q, threads;
static float *in, *filt, *out;

static void conv(void) {
#pragma omp parallel for num_threads(threads) schedule(static) collapse(2)
    for (int i = 0; i < n; i++)
        for (int ch = 0; ch < c; ch++) {
            const float *img = in + ((long)i * c + ch) * h * w;
            const float *f = filt + (long)ch * r * s;
            float *o = out + ((long)i * c + ch) * p * q;
            for (int y = 0; y < p; y++) {
                float *orow = o + (long)y * q;
                for (int x = 0; x < q; x++) orow[x] = 0.0f;
                for (int fy = 0; fy < r; fy++) {
                    int iy = y * stride - pad + fy;
                    if (iy < 0 || iy >= h) continue;
                    const float *irow = img + (long)iy * w;
                    for (int fx = 0; fx < s; fx++) {
                        float tap = f[fy * s + fx];
                        /* the output columns whose input column x*stride - pad + fx lies inside the row */
                        int x0 = pad - fx > 0 ? (pad - fx + stride - 1) / stride : 0;
                        int x1 = (w - 1 + pad - fx) / stride + 1;
                        if (x1 > q) x1 = q;
                        const float *src = irow + fx - pad;
                        if (stride == 1) {
                            for (int x = x0; x < x1; x++) orow[x] += tap * src[x];
                        } else {
                            for (int x = x0; x < x1; x++) orow[x] += tap * src[(long)x * stride];
                        }
                    }
                }
            }
        }
}

int main(int argc, char **argv) {
    if (argc != 12) { fprintf(stderr, "usage: depthwise_direct N C H W R S STRIDE PAD THREADS MIN_SAMPLES MIN_MS\n"); return 2; }
    n = atoi(argv[1]); c = atoi(argv[2]); h = atoi(argv[3]); w = atoi(argv[4]); r = atoi(argv[5]); s = atoi(argv[6]);
    stride = atoi(argv[7]); pad = atoi(argv[8]); threads = atoi(argv[9]);
    p = (h + 2 * pad - r) / stride + 1;
    q = (w + 2 * pad - s) / stride + 1;
    in = malloc(sizeof(float) * n * c * h * w);
    filt = malloc(sizeof(float) * c * r * s);
    out = malloc(sizeof(float) * n * c * p * q);
    srand(42);
    for (long i = 0; i < (long)n * c * h * w; i++) in[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    for (long i = 0; i < (long)c * r * s; i++) filt[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    conv();
    /* Spot-check 64 outputs, borders included, against a double reference. */
    double worst = 0;
    long total = (long)n * c * p * q;
    for (int t = 0; t < 64; t++) {
        long idx = t == 0 ? 0 : t == 1 ? total - 1 : (long)t * 104729 % total;
        int i = (int)(idx / ((long)c * p * q)), ch = (int)(idx / ((long)p * q) % c), y = (int)(idx % ((long)p * q) / q), x = (int)(idx % q);
        double ref = 0;
        for (int fy = 0; fy < r; fy++)
            for (int fx = 0; fx < s; fx++) {
                int iy = y * stride - pad + fy, ix = x * stride - pad + fx;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                ref += (double)in[(((long)i * c + ch) * h + iy) * w + ix] * filt[((long)ch * r + fy) * s + fx];
            }
        double d = fabs(ref - out[idx]);
        if (d > worst) worst = d;
    }
    int correct = worst <= 1e-5 * r * s;
    printf("{\"max_error\": %g, \"correct\": %s, ", worst, correct ? "true" : "false");
    sample_and_print(conv, atoi(argv[10]), atof(argv[11]));
    printf("}\n");
    return 0;
}

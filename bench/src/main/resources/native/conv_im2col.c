/* conv2d the way Caffe and most CPU frameworks did it before dedicated kernels: NCHW input, KCRS
 * filters, per image an im2col copy into a (C*R*S) x (P*Q) matrix and one cblas_sgemm
 * out[K][P*Q] = filter[K][C*R*S] * col. A 1x1, stride-1, unpadded layer skips the copy (the input
 * already is that matrix), as those frameworks do, so the baseline is not handicapped on the
 * pointwise layers. The copy is inside the timed call: it is part of the algorithm's cost.
 * Timed like sgemm.c: verify once, then sample by the harness's rule (sampling.h).
 * Usage: conv_im2col N C H W K R S STRIDE PAD DILATION THREADS MIN_SAMPLES MIN_MS */
#include <cblas.h>
#include "sampling.h"

void openblas_set_num_threads(int);

static int n, c, h, w, k, r, s, stride, pad, dil, p, q, direct;
static float *in, *filt, *col, *out;

static void conv(void) {
    long pq = (long)p * q, crs = (long)c * r * s;
    for (int i = 0; i < n; i++) {
        const float *img = in + (long)i * c * h * w;
        const float *b = img;
        if (!direct) {
            for (int ch = 0; ch < c; ch++)
                for (int fy = 0; fy < r; fy++)
                    for (int fx = 0; fx < s; fx++) {
                        float *row = col + (((long)ch * r + fy) * s + fx) * pq;
                        for (int y = 0; y < p; y++) {
                            int iy = y * stride - pad + fy * dil;
                            for (int x = 0; x < q; x++) {
                                int ix = x * stride - pad + fx * dil;
                                row[(long)y * q + x] = iy < 0 || iy >= h || ix < 0 || ix >= w ? 0.0f : img[((long)ch * h + iy) * w + ix];
                            }
                        }
                    }
            b = col;
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, k, (int)pq, (int)crs, 1.0f, filt, (int)crs, b, (int)pq,
                    0.0f, out + (long)i * k * pq, (int)pq);
    }
}

int main(int argc, char **argv) {
    if (argc != 14) { fprintf(stderr, "usage: conv_im2col N C H W K R S STRIDE PAD DILATION THREADS MIN_SAMPLES MIN_MS\n"); return 2; }
    n = atoi(argv[1]); c = atoi(argv[2]); h = atoi(argv[3]); w = atoi(argv[4]); k = atoi(argv[5]);
    r = atoi(argv[6]); s = atoi(argv[7]); stride = atoi(argv[8]); pad = atoi(argv[9]); dil = atoi(argv[10]);
    int threads = atoi(argv[11]), samples = atoi(argv[12]);
    p = (h + 2 * pad - dil * (r - 1) - 1) / stride + 1;
    q = (w + 2 * pad - dil * (s - 1) - 1) / stride + 1;
    direct = r == 1 && s == 1 && stride == 1 && pad == 0;
    openblas_set_num_threads(threads);
    long crs = (long)c * r * s, pq = (long)p * q;
    in = malloc(sizeof(float) * n * c * h * w);
    filt = malloc(sizeof(float) * k * crs);
    col = malloc(sizeof(float) * crs * pq);
    out = malloc(sizeof(float) * n * k * pq);
    srand(42);
    for (long i = 0; i < (long)n * c * h * w; i++) in[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    for (long i = 0; i < (long)k * crs; i++) filt[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    conv();
    /* Spot-check 64 outputs against a direct convolution accumulated in double. */
    double worst = 0;
    for (int t = 0; t < 64; t++) {
        long idx = (long)t * 104729 % ((long)n * k * pq);
        int i = (int)(idx / (k * pq)), kk = (int)(idx / pq % k), y = (int)(idx % pq / q), x = (int)(idx % q);
        double ref = 0;
        for (int ch = 0; ch < c; ch++)
            for (int fy = 0; fy < r; fy++)
                for (int fx = 0; fx < s; fx++) {
                    int iy = y * stride - pad + fy * dil, ix = x * stride - pad + fx * dil;
                    if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                    ref += (double)in[(((long)i * c + ch) * h + iy) * w + ix] * filt[((long)kk * c + ch) * r * s + fy * s + fx];
                }
        double d = fabs(ref - out[idx]);
        if (d > worst) worst = d;
    }
    /* Rounding grows with the reduction length; a wrong index or a missed tap errs by O(1). */
    int correct = worst <= 1e-5 * crs;
    printf("{\"max_error\": %g, \"im2col_copy\": %s, \"correct\": %s, ", worst, direct ? "false" : "true", correct ? "true" : "false");
    sample_and_print(conv, samples, atof(argv[13]));
    printf("}\n");
    return 0;
}

/*
 * Tiled fp32 GEMM, C = A*B (row-major, A MxK, B KxN), for tunefarm's command kernels.
 * Tile sizes and the unroll factor are compile-time parameters (-DTM= -DTN= -DTK= -DUNROLL=),
 * so every configuration is its own binary, as a tuned kernel would ship.
 *
 * usage: sgemm M N K [seed] [repetitions]
 * Inputs come from the seed; the answer is checked against a naive loop before any time is taken;
 * prints one JSON line: {"times_ms": [...], "correct": true|false, "max_error": e}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef TM
#define TM 16
#endif
#ifndef TN
#define TN 16
#endif
#ifndef TK
#define TK 16
#endif
#ifndef UNROLL
#define UNROLL 1
#endif

#define MIN(a, b) ((a) < (b) ? (a) : (b))

static unsigned long long state;

static float next_float(void) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float) ((state >> 40) & 0xFFFFFF) / (float) 0x800000 - 1.0f; /* [-1, 1) */
}

static void gemm_tiled(int m, int n, int k, const float *a, const float *b, float *c) {
    memset(c, 0, sizeof(float) * (size_t) m * n);
    for (int i0 = 0; i0 < m; i0 += TM)
        for (int p0 = 0; p0 < k; p0 += TK)
            for (int j0 = 0; j0 < n; j0 += TN) {
                int i1 = MIN(i0 + TM, m), p1 = MIN(p0 + TK, k), j1 = MIN(j0 + TN, n);
                for (int i = i0; i < i1; i++)
                    for (int p = p0; p < p1; p++) {
                        float av = a[(size_t) i * k + p];
                        const float *brow = b + (size_t) p * n;
                        float *crow = c + (size_t) i * n;
                        int j = j0;
                        for (; j + UNROLL <= j1; j += UNROLL)
                            for (int u = 0; u < UNROLL; u++) crow[j + u] += av * brow[j + u];
                        for (; j < j1; j++) crow[j] += av * brow[j];
                    }
            }
}

static void gemm_naive(int m, int n, int k, const float *a, const float *b, float *c) {
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p < k; p++) s += (double) a[(size_t) i * k + p] * b[(size_t) p * n + j];
            c[(size_t) i * n + j] = (float) s;
        }
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s M N K [seed] [repetitions]\n", argv[0]);
        return 2;
    }
    int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
    state = argc > 4 ? strtoull(argv[4], NULL, 10) : 42;
    int reps = argc > 5 ? atoi(argv[5]) : 10;
    if (m <= 0 || n <= 0 || k <= 0 || reps <= 0) {
        fprintf(stderr, "M, N, K and repetitions must be positive\n");
        return 2;
    }
    float *a = malloc(sizeof(float) * (size_t) m * k), *b = malloc(sizeof(float) * (size_t) k * n);
    float *c = malloc(sizeof(float) * (size_t) m * n), *ref = malloc(sizeof(float) * (size_t) m * n);
    if (!a || !b || !c || !ref) {
        fprintf(stderr, "out of memory\n");
        return 3;
    }
    for (size_t i = 0; i < (size_t) m * k; i++) a[i] = next_float();
    for (size_t i = 0; i < (size_t) k * n; i++) b[i] = next_float();

    gemm_tiled(m, n, k, a, b, c); /* also the warm-up: pages touched, caches filled */
    gemm_naive(m, n, k, a, b, ref);
    double max_error = 0;
    for (size_t i = 0; i < (size_t) m * n; i++) {
        double d = (double) c[i] - ref[i];
        if (d < 0) d = -d;
        if (d != d) d = 1e30; /* NaN: must fail the check */
        if (d > max_error) max_error = d;
    }
    int correct = max_error <= 1e-5 * k + 1e-4; /* fp32 reordering over K terms of |x| < 1 */

    printf("{\"times_ms\": [");
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        gemm_tiled(m, n, k, a, b, c);
        double t1 = now_ms();
        printf("%s%.6f", r ? ", " : "", t1 - t0);
    }
    printf("], \"correct\": %s, \"max_error\": %.3g}\n", correct ? "true" : "false", max_error);
    free(a); free(b); free(c); free(ref);
    return 0;
}

/* cblas_sgemm timed the way the tunefarm harness times a kernel: verify once, warm up, calibrate
 * calls per sample to at least min_ms, take samples, report the median per call as JSON.
 * Usage: sgemm M N K THREADS MIN_SAMPLES MIN_MS */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void openblas_set_num_threads(int);

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv) {
    if (argc != 7) { fprintf(stderr, "usage: sgemm M N K THREADS MIN_SAMPLES MIN_MS\n"); return 2; }
    int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]), threads = atoi(argv[4]), samples = atoi(argv[5]);
    double min_ns = atof(argv[6]) * 1e6;
    openblas_set_num_threads(threads);
    float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n), *c = malloc(sizeof(float) * m * n);
    srand(42);
    for (long i = 0; i < (long)m * k; i++) a[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    for (long i = 0; i < (long)k * n; i++) b[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
    /* Spot-check 64 entries against a double dot product. */
    double worst = 0;
    for (int s = 0; s < 64; s++) {
        int i = (int)((long)s * 7919 % m), j = (int)((long)s * 104729 % n);
        double ref = 0;
        for (int p = 0; p < k; p++) ref += (double)a[(long)i * k + p] * b[(long)p * n + j];
        double d = fabs(ref - c[(long)i * n + j]);
        if (d > worst) worst = d;
    }
    int correct = worst <= 4.0 * k * 1.1920929e-7 * 1000.0;
    long calls = 1;
    for (;;) {
        double t0 = now_ns();
        for (long r = 0; r < calls; r++) cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
        if (now_ns() - t0 >= min_ns || calls >= (1L << 30)) break;
        calls *= 2;
    }
    double warm_end = now_ns() + 300e6;
    while (now_ns() < warm_end) cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
    double *per_call = malloc(sizeof(double) * samples);
    for (int s = 0; s < samples; s++) {
        double t0 = now_ns();
        for (long r = 0; r < calls; r++) cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
        per_call[s] = (now_ns() - t0) / calls;
    }
    qsort(per_call, samples, sizeof(double), cmp);
    double median = samples % 2 ? per_call[samples / 2] : (per_call[samples / 2 - 1] + per_call[samples / 2]) / 2;
    printf("{\"median_ns\": %.1f, \"min_ns\": %.1f, \"calls_per_sample\": %ld, \"max_error\": %g, \"correct\": %s}\n",
           median, per_call[0], calls, worst, correct ? "true" : "false");
    return 0;
}

/* Read bandwidth: sums a FLOATS-long float array once per call with THREADS threads (OpenMP), the
 * roofline of a kernel that must stream that much memory once (batch-1 GEMM streams B). Sampled by
 * the harness's rule as sgemm.c (calibrated calls per sample, 300 ms warm-up, extra samples for
 * interference up to as many again), every sample printed; the statistic is computed in Java.
 * Usage: stream_read FLOATS THREADS MIN_SAMPLES MIN_MS */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}
static int cmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}
static double median_of_sorted(const double *s, int n) {
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
/* As sgemm.c: samples at or below Stats.fence. */
static int kept_below_fence(const double *samples, int n) {
    double *s = malloc(sizeof(double) * n), *d = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) s[i] = samples[i];
    qsort(s, n, sizeof(double), cmp);
    double median = median_of_sorted(s, n);
    for (int i = 0; i < n; i++) d[i] = fabs(s[i] - median);
    qsort(d, n, sizeof(double), cmp);
    double spread = 3.0 * 1.4826 * median_of_sorted(d, n);
    double fence = median + (spread > 0.01 * median ? spread : 0.01 * median);
    int kept = 0;
    while (kept < n && s[kept] <= fence) kept++;
    free(s);
    free(d);
    return kept;
}
static volatile float sink;
static float pass(const float *x, long n, int threads) {
    float total = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : total) schedule(static)
    for (long i = 0; i < n; i++) total += x[i];
    return total;
}
int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: stream_read FLOATS THREADS MIN_SAMPLES MIN_MS\n"); return 2; }
    long n = atol(argv[1]);
    int threads = atoi(argv[2]), samples = atoi(argv[3]);
    double min_ns = atof(argv[4]) * 1e6;
    float *x = malloc(sizeof(float) * n);
    /* First touch by the threads that will read it, as the GEMM's B is written once and read by its team. */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long i = 0; i < n; i++) x[i] = (float)(i % 1000) * 1e-3f;
    long calls = 1;
    for (;;) {
        double t0 = now_ns();
        for (long r = 0; r < calls; r++) sink = pass(x, n, threads);
        if (now_ns() - t0 >= min_ns || calls >= (1L << 30)) break;
        calls *= 2;
    }
    double warm_end = now_ns() + 300e6;
    while (now_ns() < warm_end) sink = pass(x, n, threads);
    int cap = samples * 2, taken = 0;
    double *per_call = malloc(sizeof(double) * cap);
    while (taken < samples || (taken < cap && kept_below_fence(per_call, taken) < samples)) {
        double t0 = now_ns();
        for (long r = 0; r < calls; r++) sink = pass(x, n, threads);
        per_call[taken++] = (now_ns() - t0) / calls;
    }
    printf("{\"calls_per_sample\": %ld, \"bytes\": %ld, \"samples_ns\": [", calls, n * (long)sizeof(float));
    for (int i = 0; i < taken; i++) printf("%s%.1f", i ? ", " : "", per_call[i]);
    printf("]}\n");
    return 0;
}

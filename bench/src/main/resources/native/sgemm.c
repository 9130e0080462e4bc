/* cblas_sgemm timed the way the tunefarm harness times a kernel: verify once, calibrate calls per
 * sample to at least min_ms, warm up, take samples by the harness's rule, print them all as JSON.
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
static double median_of_sorted(const double *s, int n) {
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
/* How many of the first n samples lie at or below the interference fence: the median plus
 * max(3 robust sigmas, 1% of the median), as org.tunefarm.measure.Stats.fence. */
static int kept_below_fence(const double *samples, int n) {
    double *s = malloc(sizeof(double) * n), *d = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) s[i] = samples[i];
    qsort(s, n, sizeof(double), cmp);
    double median = median_of_sorted(s, n);
    for (int i = 0; i < n; i++) d[i] = fabs(s[i] - median);
    qsort(d, n, sizeof(double), cmp);
    double sigma = 1.4826 * median_of_sorted(d, n), spread = 3.0 * sigma;
    double fence = median + (spread > 0.01 * median ? spread : 0.01 * median);
    int kept = 0;
    while (kept < n && s[kept] <= fence) kept++;
    free(s);
    free(d);
    return kept;
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
    /* The harness's sampling rule: MIN_SAMPLES samples, plus one for each set aside as interference
     * (Stats.withoutInterference's fence), up to as many again; every sample is printed, and the
     * bench computes the statistic in Java, the same code for both sides. */
    int cap = samples * 2, taken = 0;
    double *per_call = malloc(sizeof(double) * cap);
    while (taken < samples || (taken < cap && kept_below_fence(per_call, taken) < samples)) {
        double t0 = now_ns();
        for (long r = 0; r < calls; r++) cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
        per_call[taken++] = (now_ns() - t0) / calls;
    }
    printf("{\"calls_per_sample\": %ld, \"max_error\": %g, \"correct\": %s, \"samples_ns\": [", calls, worst, correct ? "true" : "false");
    for (int i = 0; i < taken; i++) printf("%s%.1f", i ? ", " : "", per_call[i]);
    printf("]}\n");
    return 0;
}

/* The tunefarm harness's sampling rule, shared by the bench's C programs so that both sides of a
 * comparison are sampled alike: calibrate calls per sample to at least MIN_MS, warm up for 300 ms,
 * take MIN_SAMPLES samples plus one for each sample set aside as interference (above
 * org.tunefarm.measure.Stats.fence: the median plus max(3 robust sigmas, 1% of the median)), up to
 * as many again, and print every sample; the bench computes the statistic in Java, with the same
 * code as for its own kernels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median_of_sorted(const double *s, int n) {
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* How many of the first n samples lie at or below the interference fence. */
static int kept_below_fence(const double *samples, int n) {
    double *s = malloc(sizeof(double) * n), *d = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) s[i] = samples[i];
    qsort(s, n, sizeof(double), cmp_double);
    double median = median_of_sorted(s, n);
    for (int i = 0; i < n; i++) d[i] = fabs(s[i] - median);
    qsort(d, n, sizeof(double), cmp_double);
    double spread = 3.0 * 1.4826 * median_of_sorted(d, n);
    double fence = median + (spread > 0.01 * median ? spread : 0.01 * median);
    int kept = 0;
    while (kept < n && s[kept] <= fence) kept++;
    free(s);
    free(d);
    return kept;
}

/* Samples `call` by the rule above and prints `"calls_per_sample": N, "samples_ns": [...]`. */
static void sample_and_print(void (*call)(void), int samples, double min_ms) {
    double min_ns = min_ms * 1e6;
    long calls = 1;
    for (;;) {
        double t0 = now_ns();
        for (long r = 0; r < calls; r++) call();
        if (now_ns() - t0 >= min_ns || calls >= (1L << 30)) break;
        calls *= 2;
    }
    double warm_end = now_ns() + 300e6;
    while (now_ns() < warm_end) call();
    int cap = samples * 2, taken = 0;
    double *per_call = malloc(sizeof(double) * cap);
    while (taken < samples || (taken < cap && kept_below_fence(per_call, taken) < samples)) {
        double t0 = now_ns();
        for (long r = 0; r < calls; r++) call();
        per_call[taken++] = (now_ns() - t0) / calls;
    }
    printf("\"calls_per_sample\": %ld, \"samples_ns\": [", calls);
    for (int i = 0; i < taken; i++) printf("%s%.1f", i ? ", " : "", per_call[i]);
    printf("]");
    free(per_call);
}

/* The tunefarm harness's sampling rule, shared by the bench's C programs so that both sides of a
 * comparison are sampled alike: calibrate calls per sample to at least MIN_MS, warm up for 300 ms,
 * take MIN_SAMPLES samples plus one for each sample set aside as interference (above
 * org.tunefarm.measure.Stats.fence: the median plus max(3 robust sigmas, 1% of the median)), up to
 * as many again, and print every sample; the bench computes the statistic in Java, with the same
 * code as for its own kernels. As in the harness (WarmHarness.PREEMPTED_SHARE), a sample during
 * which this process's threads waited, runnable, for a CPU for over 5% of it and at least 1 ms (their run delay in
 * /proc/self/task/TID/schedstat) is set aside as preempted and replaced, up to MIN_SAMPLES such;
 * here every thread of the process does the work (the library's pool or OpenMP's team). */
#include <dirent.h>
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

/* The run delay of every thread of this process so far, ns; -1 where /proc cannot say. */
static long long run_delay_ns(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    long long sum = 0;
    int any = 0;
    struct dirent *e;
    char path[300];
    while ((e = readdir(tasks)) != NULL) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        unsigned long long on_cpu, waited;
        if (fscanf(f, "%llu %llu", &on_cpu, &waited) == 2) {
            sum += (long long)waited;
            any = 1;
        }
        fclose(f);
    }
    closedir(tasks);
    return any ? sum : -1;
}

/* Samples `call` by the rule above and prints `"calls_per_sample": N, "preempted": P, "samples_ns": [...]`. */
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
    int cap = samples * 2, taken = 0, preempted = 0;
    double *per_call = malloc(sizeof(double) * cap);
    while (taken < samples || (taken < cap && kept_below_fence(per_call, taken) < samples)) {
        long long d0 = run_delay_ns();
        double t0 = now_ns();
        for (long r = 0; r < calls; r++) call();
        double ns = now_ns() - t0;
        long long d1 = run_delay_ns();
        if (d0 >= 0 && d1 >= 0 && (double)(d1 - d0) > 0.05 * ns && d1 - d0 >= 1000000 && preempted < samples) {
            preempted++;
            continue;
        }
        per_call[taken++] = ns / calls;
    }
    printf("\"calls_per_sample\": %ld, \"preempted\": %d, \"samples_ns\": [", calls, preempted);
    for (int i = 0; i < taken; i++) printf("%s%.1f", i ? ", " : "", per_call[i]);
    printf("]");
    free(per_call);
}

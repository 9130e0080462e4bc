/* Read bandwidth: sums a FLOATS-long float array once per call with THREADS threads (OpenMP), the
 * roofline of a kernel that must stream that much memory once (batch-1 GEMM streams B), sampled
 * by the harness's rule (sampling.h).
 * Usage: stream_read FLOATS THREADS MIN_SAMPLES MIN_MS */
#include <omp.h>
#include "sampling.h"

static long n;
static int threads;
static float *x;
static volatile float sink;

/* Floats summed side by side: as many independent sums as four 512-bit or eight 256-bit
 * registers hold, so the loop waits on memory, not on one chain of dependent adds. A single
 * sum (one vector accumulator) read 0.8x of this on a Zen 5 at one thread: a roofline below
 * the memory's, which a GEMV could pass. */
#define LANES 64

static void call(void) {
    float total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
        /* The same contiguous share per thread as schedule(static) over the first touch below. */
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        long lo = n / LANES * t / nt * LANES, hi = t == nt - 1 ? n : n / LANES * (t + 1) / nt * LANES;
        float part[LANES] = {0};
        long i = lo;
        for (; i + LANES <= hi; i += LANES)
            for (int l = 0; l < LANES; l++) part[l] += x[i + l];
        for (; i < hi; i++) total += x[i];
        for (int l = 0; l < LANES; l++) total += part[l];
    }
    sink = total;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: stream_read FLOATS THREADS MIN_SAMPLES MIN_MS\n"); return 2; }
    n = atol(argv[1]);
    threads = atoi(argv[2]);
    x = malloc(sizeof(float) * n);
    /* First touch by the threads that will read it, as the GEMM's B is written once and read by its team. */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long i = 0; i < n; i++) x[i] = (float)(i % 1000) * 1e-3f;
    printf("{\"bytes\": %ld, ", n * (long)sizeof(float));
    sample_and_print(call, atoi(argv[3]), atof(argv[4]));
    printf("}\n");
    return 0;
}

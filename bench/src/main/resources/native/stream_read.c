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

static void call(void) {
    float total = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : total) schedule(static)
    for (long i = 0; i < n; i++) total += x[i];
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

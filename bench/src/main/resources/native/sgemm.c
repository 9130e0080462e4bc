/* cblas_sgemm timed the way the tunefarm harness times a kernel: verify once, then sample by the
 * harness's rule (sampling.h), every sample printed as JSON.
 * Usage: sgemm M N K THREADS MIN_SAMPLES MIN_MS */
#include <cblas.h>
#include "sampling.h"
void openblas_set_num_threads(int);
char *openblas_get_corename(void);

static int m, n, k;
static float *a, *b, *c;

static void call(void) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}

int main(int argc, char **argv) {
    if (argc != 7) { fprintf(stderr, "usage: sgemm M N K THREADS MIN_SAMPLES MIN_MS\n"); return 2; }
    m = atoi(argv[1]); n = atoi(argv[2]); k = atoi(argv[3]);
    int threads = atoi(argv[4]), samples = atoi(argv[5]);
    openblas_set_num_threads(threads);
    a = malloc(sizeof(float) * m * k); b = malloc(sizeof(float) * k * n); c = malloc(sizeof(float) * m * n);
    srand(42);
    for (long i = 0; i < (long)m * k; i++) a[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    for (long i = 0; i < (long)k * n; i++) b[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
    call();
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
    /* The kernel set OpenBLAS chose for this CPU (or OPENBLAS_CORETYPE forced): Debian's 0.3.21
     * runs its AVX2 "Haswell" set on a Zen 5, AVX-512 and all. */
    printf("{\"core\": \"%s\", \"max_error\": %g, \"correct\": %s, ", openblas_get_corename(), worst, correct ? "true" : "false");
    sample_and_print(call, samples, atof(argv[6]));
    printf("}\n");
    return 0;
}

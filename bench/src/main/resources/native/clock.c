/* The core clock, measured: a chain of dependent integer adds retires one per cycle on every
 * x86-64 core of the last decade, so adds per second is cycles per second. Best of several runs,
 * since another process can only make a run slower. Prints GHz. */
#include <stdio.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

#define ADD10 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"

int main(void) {
    long iters = 2000000, x = 0, one = 1;
    double best = 1e300;
    for (int run = 0; run < 15; run++) {
        double t0 = now_ns();
        for (long i = 0; i < iters; i++) __asm__ volatile(ADD10 ADD10 ADD10 ADD10 ADD10 : "+r"(x) : "r"(one));
        double t = now_ns() - t0;
        if (t < best) best = t;
    }
    printf("%.4f\n", iters * 50.0 / best);
    return x == 0; /* use x */
}

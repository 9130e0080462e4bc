/*
 * Looks shapes up in a generated tunefarm header and prints one line per shape:
 *   lookup_test CPU_MODEL OP DTYPE SHAPE...      SHAPE: M=128,N=128,K=128
 * prints "SHAPE: exact|nearest|default KERNEL_ID NAME=VALUE..." or "SHAPE: none".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tunefarm_table.h"

int main(int argc, char **argv) {
    int a;
    if (argc < 5) {
        fprintf(stderr, "usage: lookup_test CPU_MODEL OP DTYPE SHAPE...\n");
        return 2;
    }
    for (a = 4; a < argc; a++) {
        char buf[256];
        char *names[8];
        long long dims[8];
        int n = 0, i;
        char *p;
        tunefarm_choice c;
        const tunefarm_entry *e;
        strncpy(buf, argv[a], sizeof buf - 1);
        buf[sizeof buf - 1] = '\0';
        for (p = strtok(buf, ","); p != NULL && n < 8; p = strtok(NULL, ",")) {
            char *eq = strchr(p, '=');
            if (eq == NULL) return 2;
            *eq = '\0';
            names[n] = p;
            dims[n] = strtoll(eq + 1, NULL, 10);
            n++;
        }
        e = tunefarm_lookup(argv[1], argv[2], argv[3], n, (const char *const *) names, dims, &c);
        printf("%s: ", argv[a]);
        if (e == NULL) {
            printf("none\n");
            continue;
        }
        printf("%s %s", tunefarm_match_name(c.match), e->kernel_id);
        for (i = 0; i < e->nparams; i++) printf(" %s=%lld", e->param_names[i], c.params[i]);
        printf("\n");
    }
    return 0;
}

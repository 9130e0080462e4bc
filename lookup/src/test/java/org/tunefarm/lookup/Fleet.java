package org.tunefarm.lookup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** The hand-written table of {@code tables/fleet.json} and its classes, for the lookup tests. */
final class Fleet {

    static final String ZEN_2C = "zen4-2c-avx512-jdk25-aaaa1111";
    static final String ZEN_4C = "zen4-4c-avx512-jdk21-cccc3333";
    static final String ZEN_8C = "zen4-8c-avx512-jdk21-bbbb2222";
    static final String ZEN_8C_AVX256 = "zen4-8c-avx256-jdk21-abab0000";
    static final String ICELAKE = "icelake-4c-avx512-jdk25-dddd4444";
    static final String IMPORTED = "kerneltuner-a100-imported";
    static final String EPYC = "AMD EPYC 9B14";

    private Fleet() {}

    static Table table() {
        try {
            return Table.loadResource("tables/fleet.json");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Integer> gemm(int m, int n, int k) {
        return Map.of("M", m, "N", n, "K", k);
    }
}

package org.tunefarm.coordinator.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.Match;
import io.vertx.micrometer.MatchType;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.MicrometerMetricsFactory;

/**
 * Where a coordinator's meters live: one Prometheus registry per coordinator (not Micrometer's
 * global one, so coordinators sharing a JVM in tests do not mix), handed to Vert.x through its
 * builder ({@code Vertx.builder().withMetrics(factory(registry))}), so Vert.x's HTTP and
 * event-bus meters land beside the farm's.
 */
public final class PrometheusMeters {

    private PrometheusMeters() {}

    public static PrometheusMeterRegistry registry() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    public static MicrometerMetricsFactory factory(PrometheusMeterRegistry registry) {
        return new MicrometerMetricsFactory(registry);
    }

    /**
     * Vert.x's metrics, with labels kept bounded: HTTP by route template (never the raw path),
     * method and code; event-bus addresses with the replica's per-node addresses folded into one
     * value each (Vert.x leaves its own {@code __vertx.*} reply addresses out). Vert.x keeps one
     * backend per registry name for the whole JVM, so each coordinator names its own.
     */
    public static MicrometerMetricsOptions options() {
        return new MicrometerMetricsOptions().setEnabled(true).setJvmMetricsEnabled(true)
                .setRegistryName("tunefarm-" + java.util.UUID.randomUUID())
                .setLabels(java.util.EnumSet.of(Label.HTTP_ROUTE, Label.HTTP_METHOD, Label.HTTP_CODE, Label.EB_ADDRESS, Label.EB_SIDE,
                        Label.EB_FAILURE, Label.POOL_TYPE, Label.POOL_NAME))
                .addLabelMatch(fold("tunefarm\\.replica\\..+\\.records", "tunefarm.replica.records"))
                .addLabelMatch(fold("tunefarm\\.replica\\..+\\.sweeps", "tunefarm.replica.sweeps"))
                .addLabelMatch(fold("tunefarm\\.replica\\..+\\.read", "tunefarm.replica.read"));
    }

    /** A rule that rewrites matching event-bus addresses to one value. */
    private static Match fold(String regex, String alias) {
        return new Match().setDomain(MetricsDomain.EVENT_BUS).setLabel(Label.EB_ADDRESS.toString()).setType(MatchType.REGEX).setValue(regex)
                .setAlias(alias);
    }
}

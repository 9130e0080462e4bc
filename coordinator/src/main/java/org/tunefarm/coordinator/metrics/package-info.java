/**
 * Prometheus metrics at {@code /metrics}: Vert.x's own HTTP, event-bus and JVM meters through
 * vertx-micrometer-metrics ({@link org.tunefarm.coordinator.metrics.PrometheusMeters}, one
 * registry per coordinator handed to {@code Vertx.builder().withMetrics}), and the farm's
 * ({@link org.tunefarm.coordinator.metrics.FarmMetrics}, {@link
 * org.tunefarm.coordinator.metrics.ReplicationLag}). Farm-wide figures come from the cluster maps
 * and counters, so every coordinator reports the same value; the rest are the coordinator's own.
 * Labels stay bounded: device classes, doors and refusal kinds, statuses, route templates.
 */
package org.tunefarm.coordinator.metrics;

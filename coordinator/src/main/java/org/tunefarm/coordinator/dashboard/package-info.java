/**
 * Watching the farm over HTTP: the dashboard page at {@code /}, its live feed, the reads only it
 * needs, and the routes for {@code /metrics} and the OpenAPI document ({@link
 * org.tunefarm.coordinator.dashboard.Watch}, mounted by the REST verticle).
 *
 * <p>Every coordinator serves all of it, leader or not: agents and sweeps come from the cluster
 * maps the leader publishes ({@link org.tunefarm.coordinator.dashboard.FarmView}, read once a
 * second), and everything derived from records (each search's points, rates and ETAs, failures by
 * status, each agent's last candidate and sensor readings) from this coordinator's own replica
 * of the record log, which it watches as records become durable ({@code RecordTally}). The page
 * reads the feed ({@code LiveFeed}, Server-Sent Events) with {@code fetch}, so the read token goes
 * in the {@code Authorization} header as on every other read; the page's static files hold no
 * farm data and load without a token.
 */
package org.tunefarm.coordinator.dashboard;

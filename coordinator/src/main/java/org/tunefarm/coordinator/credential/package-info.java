/**
 * Who may speak for an agent. An agent enrolls once with the farm token and gets a credential of
 * its own; the farm keeps only salted hashes, live in a cluster map that every coordinator's bridge
 * checks at registration, and on disk in every coordinator's {@code credentials.jsonl}, so they
 * survive a leader change and a restart of the whole farm. Once an id is enrolled, the farm token
 * alone no longer registers it; an admin revokes an id (closed at once on every coordinator) or
 * issues it a new credential. The bridge ({@code bridge/}) applies it; REST
 * ({@code api/AgentRoutes}) administers it.
 */
package org.tunefarm.coordinator.credential;

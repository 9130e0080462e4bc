/**
 * The audit trail of admin actions (sweeps started or cancelled, agents enrolled or revoked): one
 * {@link org.tunefarm.coordinator.audit.Audit} seam, written by each coordinator to
 * {@code audit.jsonl} in its data folder, append-only, with who acted (which token or agent, from
 * which address) and when.
 */
package org.tunefarm.coordinator.audit;

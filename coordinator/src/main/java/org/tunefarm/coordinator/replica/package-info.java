/**
 * Every coordinator's full copy of the record and sweep logs. {@link org.tunefarm.coordinator.replica.Replication}
 * makes a leader's writes durable on a second coordinator before an agent is acknowledged;
 * {@link org.tunefarm.coordinator.replica.ReplicaVerticle} is the receiving side and answers reads
 * of its log by byte offset; {@link org.tunefarm.coordinator.replica.CatchUp} copies what a
 * coordinator lacks from each peer, incrementally, at start, before a takeover, when a member joins
 * or returns (a healed partition) and every few seconds, after the bytes both logs share (at the
 * first read) or the lines both hold (later rounds, compared by sums of line hashes, whatever their order);
 * {@link org.tunefarm.coordinator.replica.LogSeed} gives a coordinator with an empty log a peer's
 * whole log as one byte stream, which {@link org.tunefarm.coordinator.replica.LogStreams} serves,
 * before it opens it; and
 * {@link org.tunefarm.coordinator.replica.VersionedRecords} counts the candidates of which two
 * different measurements arrived (both halves of a partition measured them): the log keeps one.
 */
package org.tunefarm.coordinator.replica;

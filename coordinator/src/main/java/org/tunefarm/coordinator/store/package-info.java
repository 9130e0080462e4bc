/**
 * Where the farm's truth is kept: the {@link org.tunefarm.coordinator.store.RecordLog} of
 * measurements and the {@link org.tunefarm.coordinator.store.SweepLog} of accepted sweeps and of
 * the moments each device class's searches began, both JSON lines fsynced before anything is
 * acknowledged. The record log commits in groups ({@code GroupCommit}): one writer thread writes, in
 * call order, every append queued while its previous fsync ran and covers them with one fsync.
 * Both are opened by {@code LineScan}: only a torn last line is cut; any other unreadable line is
 * moved byte for byte to the log's {@link org.tunefarm.coordinator.store.Quarantine} and the log is
 * rewritten without it, so one damaged line never costs the records after it.
 * The record log is read once per start: its opening pass hands every record to the coordinator's
 * other readers (the dashboard's tally, a leader's sweeps and table), and keeps each record's id as
 * a 96-bit fingerprint with its version in a primitive table ({@code RecordIds}, 16 bytes a
 * record) that refuses a duplicate. Other coordinators copy it by byte offset, page by page
 * ({@link org.tunefarm.coordinator.store.RecordPage}), as the log's own lines.
 * Nothing here knows Vert.x or Hazelcast.
 */
package org.tunefarm.coordinator.store;

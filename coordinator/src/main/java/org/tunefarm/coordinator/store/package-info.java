/**
 * Where the farm's truth is kept: the {@link org.tunefarm.coordinator.store.RecordLog} of
 * measurements and the {@link org.tunefarm.coordinator.store.SweepLog} of accepted sweeps and of
 * the moments each device class's searches began, both JSON lines fsynced before anything is
 * acknowledged. The record log commits in groups ({@code GroupCommit}): one writer thread writes, in
 * call order, every append queued while its previous fsync ran and covers them with one fsync.
 * Both are opened by {@code LineScan}: only a torn last line is cut; any other unreadable line is
 * moved byte for byte to the log's {@link org.tunefarm.coordinator.store.Quarantine} and the log is
 * rewritten without it, so one damaged line never costs the records after it.
 * Nothing here knows Vert.x or Hazelcast.
 */
package org.tunefarm.coordinator.store;

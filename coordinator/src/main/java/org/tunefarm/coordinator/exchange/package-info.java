/**
 * The best-kernel table outside the farm, and other tuners' measurements coming in: a table
 * document read back from a file or the REST answer ({@link TableSnapshot}, schema
 * {@code tunefarm.table/1} or {@code /2}); what it becomes for others (a self-contained C header
 * for command kernels, {@link CHeader}; Kernel Tuner cache files, {@link KernelTunerExport});
 * what changed between two tables ({@link TableDiff}); and a Kernel Tuner cache turned into
 * records ({@link KernelTunerImport}). Nothing here speaks to Vert.x: the CLI and the REST route
 * call these.
 */
package org.tunefarm.coordinator.exchange;

/**
 * {@code tunefarm bench partition}: a real network partition, staged in Linux network namespaces
 * ({@link org.tunefarm.coordinator.partition.NetworkStage}), during which real coordinator and
 * agent processes run a sleep sweep ({@link org.tunefarm.coordinator.partition.PartitionRun}), and
 * the check of their record logs afterwards ({@link org.tunefarm.coordinator.partition.PartitionAudit}).
 * The command stages the network, runs itself again inside the hub namespace and removes the
 * namespaces whatever happened ({@link org.tunefarm.coordinator.partition.PartitionCommand}).
 */
package org.tunefarm.coordinator.partition;

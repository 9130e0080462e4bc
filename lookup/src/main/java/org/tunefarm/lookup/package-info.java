/**
 * Looking a kernel up in a best-kernel table from inside an application: which parameters, for
 * this device, for this shape. Depends on Jackson databind alone, so an application embeds this
 * jar and nothing else of tunefarm; Java 17+.
 *
 * <p>{@link org.tunefarm.lookup.Table} loads a {@code tunefarm.table/2} document;
 * {@link org.tunefarm.lookup.Table#forDevice} resolves once which of its device classes answers
 * for the device at hand ({@link org.tunefarm.lookup.Device}: a class string, or a profile a C
 * program can fill in, matched by the {@link org.tunefarm.lookup.DeviceRule}s); the resulting
 * {@link org.tunefarm.lookup.DeviceTable} hands out a {@link org.tunefarm.lookup.KernelIndex} per
 * kernel, whose {@code lookup(int[])} answers an exact, nearest or default
 * {@link org.tunefarm.lookup.Answer} ({@link org.tunefarm.lookup.ShapeRule}) without allocating.
 */
package org.tunefarm.lookup;

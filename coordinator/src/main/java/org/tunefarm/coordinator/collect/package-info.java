/**
 * Collections of candidate indices without a boxed {@code Long} per entry. A search keeps what
 * it proposed and measured for as long as its sweep runs, and a restarted leader rebuilds that
 * memory for every record of a season's history: in hash maps of boxed keys it took some 500
 * bytes a record, in these about a tenth of that.
 */
package org.tunefarm.coordinator.collect;

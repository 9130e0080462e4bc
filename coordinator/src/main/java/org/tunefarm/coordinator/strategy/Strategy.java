package org.tunefarm.coordinator.strategy;

import java.util.List;

/**
 * A search strategy in ask/tell form. The sweep asks for candidates whenever agents want work and
 * tells results as they arrive, in any order, while other proposals are still out; so a strategy
 * never waits for a result before proposing, unless it has nothing sensible left to propose.
 *
 * <p>Candidates are indices of the {@link org.tunefarm.space.SearchSpace} the strategy was built
 * for. Implementations are not thread-safe by themselves; {@link Strategies#create} returns one
 * whose calls are serialised. They know nothing of Vert.x or Hazelcast.
 */
public interface Strategy {

    /**
     * Up to {@code n} new candidates: each valid, none proposed before by this strategy. Fewer,
     * or none, when the budget is spent, the space is exhausted, or the strategy waits for results.
     */
    List<Long> propose(int n);

    /** The outcome of a proposed candidate. A second result for the same index is ignored. */
    void tell(long index, Result result);

    /** True once the strategy will never propose again (budget spent or space exhausted). */
    default boolean finished() {
        return false;
    }
}

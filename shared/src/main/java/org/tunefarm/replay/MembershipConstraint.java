package org.tunefarm.replay;

import java.util.Arrays;

import org.tunefarm.space.Constraint;
import org.tunefarm.space.SearchSpace;

/**
 * Valid means "present in a recorded set of configurations": the constraint of a replayed space,
 * whose real restrictions are unknown but whose valid points were all measured. Holds the indices
 * sorted rather than in a hash set: half the memory of boxed longs and it doubles as the
 * enumeration of the valid points, which strategies on small spaces use directly.
 */
public final class MembershipConstraint implements Constraint {

    private final long[] members;
    private final String text;

    /** @param members the valid indices, in any order, without repeats */
    public MembershipConstraint(long[] members, String text) {
        this.members = members.clone();
        Arrays.sort(this.members);
        for (int i = 1; i < this.members.length; i++) {
            if (this.members[i] == this.members[i - 1]) throw new IllegalArgumentException("index " + this.members[i] + " listed twice");
        }
        this.text = text;
    }

    @Override public boolean test(int[] choices, SearchSpace space) {
        return contains(space.index(choices));
    }

    public boolean contains(long index) {
        return Arrays.binarySearch(members, index) >= 0;
    }

    /** The valid indices, ascending (a copy). */
    public long[] members() {
        return members.clone();
    }

    public int count() {
        return members.length;
    }

    @Override public String text() {
        return text;
    }
}

package org.tunefarm.coordinator.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One writer thread that takes, each turn, everything submitted since its last turn, in the order
 * it was submitted, and hands it to {@link Commit} as one group. A log whose commit writes the
 * group and forces it once pays one fsync for every append that arrived while the previous fsync
 * ran: under load the groups grow by themselves, and a lone append waits for no timer.
 *
 * <p>Why a thread of its own rather than the callers' (Vert.x workers): the order of the log must
 * be the order of the calls, which a pool of workers racing for a lock does not keep; and the
 * callers on event loops need not block at all.
 */
final class GroupCommit<T> implements AutoCloseable {

    /** Makes a group durable and tells each member; runs on the writer thread and must not throw. */
    interface Commit<T> {
        void commit(List<T> group);
    }

    private final Commit<T> commit;
    private final ArrayDeque<T> queue = new ArrayDeque<>();
    private final Thread writer;
    private boolean closed;

    GroupCommit(String name, Commit<T> commit) {
        this.commit = commit;
        this.writer = Thread.ofPlatform().name(name).daemon().start(this::run);
    }

    /** Queues an item for the next group; false once closed. */
    synchronized boolean submit(T item) {
        if (closed) return false;
        queue.add(item);
        notifyAll();
        return true;
    }

    private void run() {
        for (List<T> group = next(); group != null; group = next()) commit.commit(group);
    }

    /** Everything queued, once there is something; null when closed and drained. */
    private synchronized List<T> next() {
        while (queue.isEmpty() && !closed) {
            try {
                wait();
            } catch (InterruptedException e) {
                // Nobody interrupts the writer (an interrupt would close the log's channel mid-force); keep waiting.
            }
        }
        if (queue.isEmpty()) return null;
        List<T> group = new ArrayList<>(queue);
        queue.clear();
        return group;
    }

    /** Refuses new items, commits what is queued, and waits for the writer to finish. */
    @Override public void close() throws InterruptedException {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        writer.join();
    }
}

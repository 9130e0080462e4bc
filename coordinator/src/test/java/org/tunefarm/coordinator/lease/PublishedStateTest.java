package org.tunefarm.coordinator.lease;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The leader's published view is fenced by whether its coordinator heads the cluster: a leader
 * whose member has merged into another cluster writes nothing more, and a rewrite puts a thing
 * back whatever was written before.
 */
class PublishedStateTest {
    final Vertx vertx = Vertx.vertx();

    @AfterEach void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private String read(String key) throws Exception {
        return vertx.sharedData().<String, String>getAsyncMap("published").compose(m -> m.get(key)).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    private void put(String key, String value) throws Exception {
        vertx.sharedData().<String, String>getAsyncMap("published").compose(m -> m.put(key, value)).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @Test void writesOnlyWhileItsCoordinatorHeadsTheCluster() throws Exception {
        AtomicBoolean heads = new AtomicBoolean(true);
        // The kind of a thing is the thing itself here, so every change is written at once.
        PublishedState<String> published = new PublishedState<>(vertx, "published", s -> s, s -> s, heads::get);
        published.changed("sweep", "running");
        await().atMost(Duration.ofSeconds(10)).until(() -> "running".equals(read("sweep")));

        heads.set(false);
        published.changed("sweep", "paused");
        published.forget("sweep");
        published.rewrite("sweep", "cancelled");
        // A non-clustered Vert.x's map takes a put within the call, so a write not fenced would show here.
        assertEquals("running", read("sweep"), "a coordinator that no longer heads the cluster wrote");

        heads.set(true);
        put("sweep", "stale");
        published.rewrite("sweep", "done");
        await().atMost(Duration.ofSeconds(10)).until(() -> "done".equals(read("sweep")));
    }
}

package org.tunefarm.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The farm id's file and its agreement through a shared map, on real files. A local Vert.x stands
 * for a cluster here (its shared data is one cluster's maps); {@link TableDocumentFarmTest} shows
 * the same with real coordinators.
 */
class FarmIdTest {
    @TempDir Path dir;

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    static String agree(Vertx cluster, Path data) throws Exception {
        return await(await(FarmId.agree(cluster, data)).current());
    }

    @Test void aNewFarmMakesAnIdAndKeepsItAcrossARestart() throws Exception {
        Path data = dir.resolve("first");
        String id;
        Vertx cluster = Vertx.vertx();
        try {
            id = agree(cluster, data);
        } finally {
            await(cluster.close());
        }
        assertEquals(id, UUID.fromString(id).toString());
        assertEquals(id + "\n", Files.readString(data.resolve(FarmId.FILE)));
        Vertx restarted = Vertx.vertx(); // a new cluster, with nothing in its maps: the file brings the id back
        try {
            assertEquals(id, agree(restarted, data));
        } finally {
            await(restarted.close());
        }
    }

    @Test void aCoordinatorJoiningAClusterAdoptsItsIdAndStoresIt() throws Exception {
        Vertx cluster = Vertx.vertx();
        try {
            Path first = dir.resolve("first"), second = dir.resolve("second");
            String id = agree(cluster, first);
            // the second kept another farm's id before: the cluster's wins, and is what it keeps now
            String other = UUID.randomUUID().toString();
            Files.createDirectories(second);
            Files.writeString(second.resolve(FarmId.FILE), other + "\n");
            assertEquals(id, agree(cluster, second));
            assertEquals(id + "\n", Files.readString(second.resolve(FarmId.FILE)));
            assertNotEquals(other, id);
        } finally {
            await(cluster.close());
        }
    }

    @Test void aFileThatHoldsNoIdIsMovedAsideNotLost() throws Exception {
        Files.writeString(dir.resolve(FarmId.FILE), "not a uuid\n");
        Vertx cluster = Vertx.vertx();
        try {
            String id = agree(cluster, dir);
            assertEquals(id, UUID.fromString(id).toString());
            assertEquals("not a uuid\n", Files.readString(dir.resolve(FarmId.FILE + ".unreadable")));
            assertEquals(id + "\n", Files.readString(dir.resolve(FarmId.FILE)));
            assertFalse(Files.exists(dir.resolve(FarmId.FILE + ".next")), "no half-written file left behind");
        } finally {
            await(cluster.close());
        }
    }
}

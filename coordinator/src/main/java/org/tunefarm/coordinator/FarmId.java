package org.tunefarm.coordinator;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import java.util.logging.Logger;
import org.tunefarm.coordinator.store.DurableFile;

/**
 * The farm's id: a UUID the coordinator cluster creates once and keeps, so a shipped table says
 * which farm measured it. Each coordinator keeps it in its data folder ({@value #FILE}); the
 * cluster agrees on one through a cluster map, where the first coordinator to offer its id wins
 * and every other adopts it (and stores it), so all coordinators of a cluster report the same id
 * and a restart keeps it. A coordinator with no id of its own, in a cluster that has none, makes one.
 */
public final class FarmId {
    private static final Logger LOG = Logger.getLogger(FarmId.class.getName());
    /** The file in the data folder. */
    public static final String FILE = "farm-id";
    /** The cluster map holding the agreed id under {@link #KEY}. */
    public static final String MAP = "tunefarm.farm";
    static final String KEY = "id";

    private final Vertx vertx;
    private final String agreed;

    private FarmId(Vertx vertx, String agreed) {
        this.vertx = vertx;
        this.agreed = agreed;
    }

    /** Agrees on the id with the cluster, storing the agreed one in {@code dataDir} when it is new here. */
    public static Future<FarmId> agree(Vertx vertx, Path dataDir) {
        Path file = dataDir.resolve(FILE);
        return vertx.executeBlocking(() -> stored(file)).compose(stored -> {
            String offered = stored != null ? stored : UUID.randomUUID().toString();
            return map(vertx).compose(m -> m.putIfAbsent(KEY, offered)).compose(held -> {
                String id = held != null ? held : offered;
                if (id.equals(stored)) return Future.succeededFuture(new FarmId(vertx, id));
                if (stored != null) LOG.warning(() -> "this coordinator kept farm id " + stored + ", its cluster has " + id + ": adopting the cluster's");
                return vertx.executeBlocking(() -> {
                    DurableFile.write(file, id + "\n");
                    return new FarmId(vertx, id);
                });
            });
        });
    }

    /**
     * The cluster's id now: the one every coordinator reports. Should the map have lost it (every
     * member holding it gone at once), this coordinator offers the id it agreed on at start again.
     */
    public Future<String> current() {
        return map(vertx).compose(m -> m.get(KEY).compose(id -> id != null ? Future.succeededFuture(id)
                : m.putIfAbsent(KEY, agreed).map(held -> held != null ? held : agreed)));
    }

    /**
     * The id kept in {@code file}, or null when there is none. A file that does not hold a UUID (it
     * is only ever replaced whole, so something else wrote it) is moved aside, not lost, and the
     * coordinator goes on as one without an id.
     */
    static String stored(Path file) throws IOException {
        if (!Files.exists(file)) return null;
        String text = Files.readString(file, StandardCharsets.UTF_8).trim();
        String canonical;
        try {
            canonical = UUID.fromString(text).toString();
        } catch (IllegalArgumentException e) {
            return invalid(file);
        }
        // fromString also takes shortened forms such as 1-2-3-4-5, which no coordinator writes
        return canonical.equalsIgnoreCase(text) ? canonical : invalid(file);
    }

    private static String invalid(Path file) throws IOException {
        Path aside = file.resolveSibling(FILE + ".unreadable");
        Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
        LOG.warning(() -> file + " does not hold a farm id (a UUID); moved to " + aside.getFileName());
        return null;
    }

    private static Future<AsyncMap<String, String>> map(Vertx vertx) {
        return vertx.sharedData().getAsyncMap(MAP);
    }
}

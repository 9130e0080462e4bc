package org.tunefarm.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading a document: every source, the schema check, unknown fields ignored, bad fields named. */
class TableLoadTest {

    @Test void loadsFromFileResourceUrlAndStreamAlike(@TempDir Path dir) throws Exception {
        URL url = TableLoadTest.class.getClassLoader().getResource("tables/fleet.json");
        Path file = dir.resolve("table.json");
        try (InputStream in = url.openStream()) {
            Files.copy(in, file);
        }
        Table fromResource = Table.loadResource("tables/fleet.json");
        Table fromFile = Table.load(file);
        Table fromUrl = Table.load(file.toUri().toURL());
        Table fromStream;
        try (InputStream in = Files.newInputStream(file)) {
            fromStream = Table.load(in);
        }
        for (Table t : List.of(fromResource, fromFile, fromUrl, fromStream, Table.parse(Files.readString(file)))) {
            assertEquals(13, t.size());
            assertEquals("8c0e5c1e-2f8a-4a52-9b7e-3f1f4b8f0a11", t.farmId());
            assertEquals(Instant.ofEpochMilli(1764770000000L), t.generatedAt());
            assertEquals(List.of("s-1", "s-2"), t.sweeps());
            assertEquals(Set.of(Fleet.ZEN_2C, Fleet.ZEN_4C, Fleet.ZEN_8C, Fleet.ZEN_8C_AVX256, Fleet.ICELAKE, Fleet.IMPORTED), t.deviceClasses());
        }
        assertThrows(java.io.FileNotFoundException.class, () -> Table.loadResource("tables/absent.json"));
    }

    @Test void unknownFieldsAreIgnoredAndKnownOnesRead() {
        Table t = Fleet.table();
        ClassProfile zen = t.classes().get(Fleet.ZEN_2C);
        assertEquals(new ClassProfile(Fleet.ZEN_2C, Fleet.EPYC, "Zen 4", 2, 2, "Linux", "amd64", "Eclipse Adoptium", 25, 512, "avx512"), zen);
        // The imported class has no profile: it is absent from classes, yet has entries.
        assertNull(t.classes().get(Fleet.IMPORTED));
        Answer a = t.forDevice(Device.ofClass(Fleet.ZEN_2C)).lookup("gemm", "fp32", Fleet.gemm(512, 512, 512));
        assertEquals(Map.of("kernel", "vector", "tileM", 64, "microRows", 4, "packB", 1), a.params());
    }

    @Test void aVersionOneDocumentIsRefusedNamingTheSchemaField() {
        TableFormatException e = assertThrows(TableFormatException.class, () -> Table.loadResource("tables/v1.json"));
        assertEquals("schema", e.field());
        assertTrue(e.getMessage().startsWith("schema: expected \"tunefarm.table/2\", got \"tunefarm.table/1\""), e.getMessage());
        TableFormatException none = assertThrows(TableFormatException.class, () -> Table.parse("{\"entries\": []}"));
        assertEquals("schema", none.field());
        assertEquals("schema", assertThrows(TableFormatException.class, () -> Table.parse("{\"schema\": 2, \"entries\": []}")).field());
    }

    @Test void badFieldsAreNamed() {
        String head = "{\"schema\": \"tunefarm.table/2\", \"entries\": [";
        String good = "{\"deviceClass\": \"c\", \"objective\": \"latency\", \"kernel\": {\"op\": \"gemm\", \"shape\": {\"M\": 1}, \"dtype\": \"fp32\"}, \"params\": {}}";
        assertEquals(1, Table.parse(head + good + "]}").size());
        Map<String, String> cases = Map.of(
                "entries[0].kernel.shape.M", good.replace("\"M\": 1", "\"M\": \"x\""),
                "entries[0].kernel.shape", good.replace("{\"M\": 1}", "{}"),
                "entries[0].objective", good.replace("\"objective\": \"latency\", ", ""),
                "entries[0].params", good.replace("\"params\": {}", "\"params\": [1]"),
                "entries[0].deviceClass", good.replace("\"c\"", "7"),
                "entries[0].stats.medianNs", good.replace("\"params\": {}", "\"params\": {}, \"stats\": {\"medianNs\": \"fast\"}"),
                "entries[1]", good + ", " + good);
        cases.forEach((field, entry) -> {
            TableFormatException e = assertThrows(TableFormatException.class, () -> Table.parse(head + entry + "]}"), field);
            assertEquals(field, e.field(), e.getMessage());
        });
        assertEquals("entries", assertThrows(TableFormatException.class, () -> Table.parse("{\"schema\": \"tunefarm.table/2\"}")).field());
        assertEquals("document", assertThrows(TableFormatException.class, () -> Table.parse("{\"schema\": ")).field());
        assertEquals("classes.c.vectorBits", assertThrows(TableFormatException.class,
                () -> Table.parse("{\"schema\": \"tunefarm.table/2\", \"classes\": {\"c\": {\"vectorBits\": \"wide\"}}, \"entries\": []}")).field());
    }
}

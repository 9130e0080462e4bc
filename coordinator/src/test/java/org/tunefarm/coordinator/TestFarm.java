package org.tunefarm.coordinator;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.tunefarm.coordinator.local.FreePort;

/**
 * Coordinator configs for tests that need one coordinator to themselves. The built-in Hazelcast
 * config joins every member on 127.0.0.1 named {@code tunefarm}, so tests running at the same
 * time on one machine (other modules, other checkouts) would join one cluster and answer each
 * other's agents; here each test farm gets its own cluster name and no join.
 */
public final class TestFarm {

    private TestFarm() {}

    /** Free ports, data in {@code data}, a Hazelcast member alone in its own cluster. */
    public static CoordinatorConfig config(Path data) throws IOException {
        String yaml;
        try (InputStream in = TestFarm.class.getResourceAsStream("/hazelcast-default.yaml")) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        yaml = yaml.replace("cluster-name: tunefarm", "cluster-name: tunefarm-test-" + UUID.randomUUID())
                .replace("      tcp-ip:\n        enabled: true", "      tcp-ip:\n        enabled: false");
        Files.createDirectories(data);
        Path file = data.resolve("hazelcast-alone.yaml");
        Files.writeString(file, yaml);
        return CoordinatorConfig.defaults().withDataDir(data).withPorts(FreePort.pick(), FreePort.pick()).withHazelcast(file);
    }
}

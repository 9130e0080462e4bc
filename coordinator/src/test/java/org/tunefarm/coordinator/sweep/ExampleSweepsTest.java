package org.tunefarm.coordinator.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The sweeps a user copies from the README and configs/ are accepted as they stand. */
class ExampleSweepsTest {

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("../configs/sweeps"))) {
            List<Path> yaml = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
            assertFalse(yaml.isEmpty(), "configs/sweeps holds the example sweeps");
            return yaml.stream();
        }
    }

    @ParameterizedTest @MethodSource("examples")
    void exampleSweepIsAccepted(Path file) throws IOException {
        SweepSpec spec = SweepSpecReader.read(Files.readString(file));
        assertFalse(spec.keys().isEmpty(), file.toString());
    }

    @org.junit.jupiter.api.Test
    void theDemoSweepIsAcceptedAndCoversTheThreeShapes() throws IOException {
        try (InputStream in = ExampleSweepsTest.class.getResourceAsStream("/demo-gemm.yaml")) {
            SweepSpec spec = SweepSpecReader.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            assertEquals(3, spec.shapes().size());
        }
    }
}

package org.tunefarm.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.tunefarm.kernel.KernelKey;
import org.tunefarm.kernel.KernelSpecs;
import org.tunefarm.space.SearchSpace;

class ReplaySpecTest {

    static final String CACHE = """
            {"device_name": "Fake GPU", "kernel_name": "k", "tune_params_keys": ["bx", "mode"],
             "tune_params": {"bx": [16, 32, 64], "mode": ["a", "b"]},
             "cache": {
            "32,a": {"bx": 32, "mode": "a", "time": 3.0, "times": [3.0, 2.0, 2.5]},
            "16,b": {"bx": 16, "mode": "b", "time": 1.5, "times": [1.5]},
            "64,b": {"bx": 64, "mode": "b", "time": "RuntimeFailedConfig"}}}
            """;

    @TempDir Path dir;

    @Test void eachCacheFileOfTheFolderBecomesAReplayOperationNamedByItsStem() throws IOException {
        Files.writeString(dir.resolve("fake_GPU.json"), CACHE);
        Files.writeString(dir.resolve("notes.txt"), "not a cache");
        List<ReplaySpec> specs = ReplaySpaces.in(dir);
        assertEquals(List.of("replay.fake_GPU"), specs.stream().map(ReplaySpec::op).toList());
        ReplaySpec s = specs.get(0);
        KernelKey key = s.key();
        assertEquals(Map.of("n", 1), key.shape());
        SearchSpace space = s.space(key, 8);
        assertEquals(3, space.countValid(), "the recorded configurations are the valid space");
        assertEquals(Map.of("bx", 16, "mode", "b"), s.defaultConfig(key, 8), "the lowest-index recorded configuration");
        assertEquals(0, s.flops(key));
        assertThrows(IllegalArgumentException.class, () -> s.space(new KernelKey(s.op(), Map.of("M", 4), "fp32"), 8));
    }

    @Test void aSweepThatNarrowsNothingKeepsTheMembershipConstraintThatListsTheSpace() throws IOException {
        Files.writeString(dir.resolve("narrow_GPU.json"), CACHE);
        SearchSpace space = new ReplaySpec(dir.resolve("narrow_GPU.json")).recorded().space();
        SearchSpace same = space.narrow(Map.of(), List.of());
        assertSame(space, same);
        assertTrue(same.constraints().get(0) instanceof MembershipConstraint);
    }

    @Test void registeringTheSameFolderTwiceKeepsTheLoadedSpec() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("twice"));
        Files.writeString(folder.resolve("twice_GPU.json"), CACHE);
        ReplaySpec first = ReplaySpaces.register(folder).get(0);
        first.recorded();
        ReplaySpec again = ReplaySpaces.register(folder).get(0);
        assertSame(first, again);
        assertSame(first, KernelSpecs.get("replay.twice_GPU"));
        assertTrue(KernelSpecs.all().contains(first));

        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve("twice_GPU.json"), CACHE);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReplaySpaces.register(other));
        assertTrue(e.getMessage().contains("already registered"), e.getMessage());
    }

    @Test void aFolderThatIsNotThereIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReplaySpaces.in(dir.resolve("missing")));
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
    }
}

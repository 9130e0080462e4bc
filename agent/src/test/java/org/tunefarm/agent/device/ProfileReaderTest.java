package org.tunefarm.agent.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunefarm.device.DeviceProfile;
import oshi.hardware.CentralProcessor.ProcessorCache;
import oshi.hardware.CentralProcessor.ProcessorCache.Type;

class ProfileReaderTest {

    @Test
    void readsThisMachineStably() {
        DeviceProfile a = ProfileReader.read(Map.of("rack", "dev"));
        DeviceProfile b = ProfileReader.read(Map.of("rack", "dev"));
        assertEquals(a.deviceClass(), b.deviceClass());
        assertTrue(a.logicalCores() >= a.physicalCores() && a.physicalCores() >= 1, a.toString());
        assertEquals(Runtime.version().feature(), a.jvmMajor());
        assertEquals(System.getProperty("os.arch"), a.arch());
        assertEquals(Map.of("rack", "dev"), a.labels());
        // Surefire runs with --add-modules jdk.incubator.vector, so the preferred species is known.
        assertTrue(a.vectorBits() >= 64, a.toString());
    }

    @Test
    void cacheSizesTakeDataAndUnifiedCachesNotInstruction() {
        List<ProcessorCache> caches = List.of(
                new ProcessorCache(1, 8, 64, 65536L, Type.INSTRUCTION),
                new ProcessorCache(1, 12, 64, 49152L, Type.DATA),
                new ProcessorCache(2, 16, 64, 1048576L, Type.UNIFIED),
                new ProcessorCache(3, 16, 64, 33554432L, Type.UNIFIED));
        assertEquals(48, ProfileReader.cacheKiB(caches, 1));
        assertEquals(1024, ProfileReader.cacheKiB(caches, 2));
        assertEquals(32768, ProfileReader.cacheKiB(caches, 3));
        assertEquals(0, ProfileReader.cacheKiB(List.of(), 3));
    }
}

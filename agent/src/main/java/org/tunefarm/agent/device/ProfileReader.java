package org.tunefarm.agent.device;

import java.util.List;
import java.util.Map;
import org.tunefarm.agent.kernels.VectorWidth;
import org.tunefarm.device.DeviceProfile;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;
import oshi.hardware.CentralProcessor.ProcessorCache;
import oshi.hardware.GraphicsCard;
import oshi.hardware.HardwareAbstractionLayer;

/**
 * Reads this machine's {@link DeviceProfile} with OSHI. Slow (tens of ms): read once at start.
 * The vector width is the kernels' ({@link VectorWidth}: forced or preferred, 0 without the
 * Vector API), so a board whose JVM lacks the module, or a run forced to 128 bits, is its own class.
 *
 * @throws IllegalArgumentException when {@code -Dtunefarm.vectorBits} names a width this JVM cannot use
 */
public final class ProfileReader {

    private ProfileReader() {}

    /** This machine and JVM, with the user's labels. */
    public static DeviceProfile read(Map<String, String> labels) {
        SystemInfo system = new SystemInfo();
        HardwareAbstractionLayer hw = system.getHardware();
        CentralProcessor cpu = hw.getProcessor();
        CentralProcessor.ProcessorIdentifier id = cpu.getProcessorIdentifier();
        List<ProcessorCache> caches = cpu.getProcessorCaches();
        int logical = Math.max(1, cpu.getLogicalProcessorCount());
        int physical = Math.min(logical, Math.max(1, cpu.getPhysicalProcessorCount()));
        return new DeviceProfile(
                id.getName().strip(),
                id.getMicroarchitecture() == null ? "unknown" : id.getMicroarchitecture().strip(),
                physical,
                logical,
                cacheKiB(caches, 1),
                cacheKiB(caches, 2),
                cacheKiB(caches, 3),
                DeviceProfile.memoryClassGiB(hw.getMemory().getTotal()),
                system.getOperatingSystem().getFamily(),
                System.getProperty("os.arch"),
                System.getProperty("java.vm.vendor", "unknown"),
                Runtime.version().feature(),
                VectorWidth.bits(),
                hw.getGraphicsCards().stream().map(GraphicsCard::getName).toList(),
                labels);
    }

    /** Largest data or unified cache of a level, KiB; 0 when OSHI does not know it. */
    static int cacheKiB(List<ProcessorCache> caches, int level) {
        long bytes = 0;
        for (ProcessorCache c : caches) {
            if (c.getLevel() == level && c.getType() != ProcessorCache.Type.INSTRUCTION && c.getType() != ProcessorCache.Type.TRACE) {
                bytes = Math.max(bytes, Integer.toUnsignedLong(c.getCacheSize()));
            }
        }
        return (int) (bytes / 1024);
    }
}

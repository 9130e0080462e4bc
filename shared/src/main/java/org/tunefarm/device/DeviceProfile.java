package org.tunefarm.device;

import java.util.List;
import java.util.Map;

/** Placeholder until the profile reader lands. */
public record DeviceProfile(String cpuModel, String microarchitecture, int physicalCores, int logicalCores,
                            long l1dKiB, long l2KiB, long l3KiB, int memoryGiB, String os, String arch,
                            String jvmVendor, int jvmMajor, int vectorBits, List<String> gpus, Map<String, String> labels) {
    public String deviceClass() {
        return microarchitecture + "-" + physicalCores + "c-jdk" + jvmMajor;
    }
}

package org.tunefarm.examples;

import java.util.Map;
import org.tunefarm.agent.device.ProfileReader;
import org.tunefarm.device.DeviceProfile;
import org.tunefarm.lookup.Device;

/**
 * This machine as the lookup library sees it, read the way an agent reads its own: the device
 * class it would register in (no labels; an agent started with labels is another class, which
 * the profile rules then find), and the profile fields for the rules that match without it.
 */
final class ThisDevice {

    private ThisDevice() {}

    static DeviceProfile profile() {
        return ProfileReader.read(Map.of());
    }

    static Device of(DeviceProfile p) {
        return Device.ofClass(p.deviceClass())
                .withCpuModel(p.cpuModel(), p.vectorBits())
                .withIsa(Device.isa(p.arch(), p.vectorBits()))
                .withJvmMajor(p.jvmMajor())
                .withPhysicalCores(p.physicalCores());
    }
}

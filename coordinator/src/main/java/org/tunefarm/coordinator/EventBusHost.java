package org.tunefarm.coordinator;

import com.hazelcast.config.Config;
import com.hazelcast.config.InterfacesConfig;

/**
 * The address the clustered event bus listens on and advertises: the one the Hazelcast member is
 * configured to use (its public address, else its first fully written interface), so coordinators
 * on other hosts, or in other network namespaces, reach each other's event bus where they reach
 * the member. Without either, loopback: the built-in single-machine config.
 */
final class EventBusHost {
    static final String LOOPBACK = "127.0.0.1";

    private EventBusHost() {}

    static String of(Config member) {
        String pub = member.getNetworkConfig().getPublicAddress();
        if (pub != null && !pub.isBlank()) return pub.contains(":") && !pub.startsWith("[") ? pub.substring(0, pub.indexOf(':')) : pub;
        InterfacesConfig interfaces = member.getNetworkConfig().getInterfaces();
        if (interfaces.isEnabled()) {
            for (String i : interfaces.getInterfaces()) if (!i.contains("*") && !i.contains("-")) return i;
        }
        return LOOPBACK;
    }
}

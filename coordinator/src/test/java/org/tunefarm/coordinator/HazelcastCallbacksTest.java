package org.tunefarm.coordinator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A real member's future callbacks run on the coordinator's pool once it is installed, not on a
 * thread started for each (Hazelcast's choice wherever the common pool has a single thread, as
 * on a 2-core machine).
 */
class HazelcastCallbacksTest {

    @Test void aMembersFutureCallbacksRunOnThePoolNotOnAThreadEach() throws Exception {
        HazelcastCallbacks.install();
        Config config = new Config().setClusterName("callbacks-" + UUID.randomUUID());
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        try {
            for (int i = 0; i < 20; i++) {
                String ran = member.<Integer, Integer>getMap("m").putAsync(i, i).toCompletableFuture()
                        .thenApplyAsync(v -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS);
                assertTrue(ran.startsWith("hz-callbacks-"), "a callback ran on " + ran);
            }
        } finally {
            member.shutdown();
        }
    }
}

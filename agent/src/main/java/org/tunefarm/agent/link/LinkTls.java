package org.tunefarm.agent.link;

import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * TLS for the agent's connection to the farm. The coordinator's certificate is checked against
 * {@code trustFile} (a PEM CA or the coordinator's own certificate) when given, else against the
 * JVM's trusted CAs, and its name or IP must match the address the agent dials.
 *
 * @param trustFile PEM certificates to trust, or null for the JVM's default trust store
 */
public record LinkTls(Path trustFile) {

    public LinkTls {
        if (trustFile != null && !Files.isReadable(trustFile)) throw new IllegalArgumentException("--trust: cannot read " + trustFile);
    }

    NetClientOptions apply(NetClientOptions options) {
        options.setSsl(true).setHostnameVerificationAlgorithm("HTTPS");
        if (trustFile != null) options.setTrustOptions(new PemTrustOptions().addCertPath(trustFile.toString()));
        return options;
    }
}

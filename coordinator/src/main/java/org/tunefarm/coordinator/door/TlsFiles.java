package org.tunefarm.coordinator.door;

import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.TCPSSLOptions;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The coordinator's certificate and private key, PEM files, used for both the agent bridge and
 * REST when configured ({@code tls: {certFile, keyFile}} in coordinator.yaml).
 *
 * @param certFile certificate chain, PEM
 * @param keyFile  its private key, PEM (PKCS#8 or PKCS#1)
 */
public record TlsFiles(Path certFile, Path keyFile) {

    public TlsFiles {
        if (certFile == null || keyFile == null) throw new IllegalArgumentException("tls: both certFile and keyFile are required");
    }

    /** Refuses to start with a missing file, rather than failing on the first handshake. */
    public void check() {
        if (!Files.isReadable(certFile)) throw new IllegalArgumentException("tls.certFile: cannot read " + certFile);
        if (!Files.isReadable(keyFile)) throw new IllegalArgumentException("tls.keyFile: cannot read " + keyFile);
    }

    /** Turns TLS on for a server's options (NetServerOptions, HttpServerOptions). */
    public <T extends TCPSSLOptions> T apply(T options) {
        check();
        options.setSsl(true);
        options.setKeyCertOptions(new PemKeyCertOptions().setCertPath(certFile.toString()).setKeyPath(keyFile.toString()));
        return options;
    }
}

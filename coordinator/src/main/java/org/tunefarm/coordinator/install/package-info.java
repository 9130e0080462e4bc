/**
 * The coordinator serves its own agent: {@code GET /install/agent.sh} (the installer, with this
 * farm's address, bridge port and TLS filled in), {@code GET /install/tunefarm-agent.jar} (the
 * agent jar this coordinator was built with) and its SHA-256 beside it. A board or a phone needs
 * one line, {@code curl -fsSL http://FARM:8080/install/agent.sh | bash -s -- --token-file FILE};
 * the farm token is the only secret, and it never travels this way.
 *
 * <p>{@link org.tunefarm.coordinator.install.AgentInstall} holds the routes;
 * {@link org.tunefarm.coordinator.install.InstallerScript} renders the script from
 * {@code deploy/install-agent.sh}, which also runs from a checkout; {@link
 * org.tunefarm.coordinator.install.AgentJar} finds the jar and its checksum.
 */
package org.tunefarm.coordinator.install;

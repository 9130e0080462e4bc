package org.tunefarm.coordinator.bridge;

import org.tunefarm.coordinator.credential.Credential;

/**
 * Who may register an agent id: the holder of its credential once it enrolled, anyone with the
 * farm token while it never did, nobody once it is revoked. So the farm token alone can no longer
 * take over (displace) an enrolled agent.
 */
final class CredentialCheck {

    /**
     * Why a registration is refused, as the agent is told it: 404 tells an agent holding a
     * credential the farm does not know (its data was wiped) to enroll again.
     */
    record Refusal(int code, String kind, String message) {}

    private CredentialCheck() {}

    /**
     * @param stored    the farm's state for the id, null when it never enrolled
     * @param given     the token on the register frame
     * @param farmToken whether {@code given} is the farm token
     * @return null when the registration may go on
     */
    static Refusal refusal(Credential stored, String id, String given, boolean farmToken) {
        if (stored == null) {
            return farmToken ? null : new Refusal(404, "not-enrolled", "headers.token: agent " + id + " is not enrolled here: enroll with the farm token");
        }
        if (!stored.enrolled()) return new Refusal(403, "revoked", "agentId: agent " + id + " was revoked: an admin must enroll it again");
        if (stored.matches(given)) return null;
        return new Refusal(401, "bad-credential", farmToken
                ? "headers.token: agent " + id + " is enrolled: it registers with its own credential, not the farm token"
                : "headers.token: not the credential of agent " + id);
    }
}

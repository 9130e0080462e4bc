package org.tunefarm.coordinator.credential;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * What the farm keeps about one agent's credential: never the credential itself, only a salted
 * SHA-256 of it. A credential is 256 random bits, so a fast hash is enough: there is nothing to
 * guess from a dictionary. The newest state of an id wins ({@link #newerThan}), so copies kept by
 * every coordinator converge whatever order they arrive in.
 *
 * @param state {@code enrolled} (the hash registers the id) or {@code revoked} (nothing does)
 * @param salt  hex, null when revoked
 * @param hash  hex SHA-256 of salt and credential, null when revoked
 * @param at    when this state was set, epoch ms
 * @param by    who set it: {@code agent@ADDRESS} for a self-enrollment, {@code admin@ADDRESS} otherwise
 */
public record Credential(String agentId, String state, String salt, String hash, long at, String by) {
    public static final String ENROLLED = "enrolled";
    public static final String REVOKED = "revoked";
    /** Agent ids: as the dispatcher accepts them. */
    public static final String ID_PATTERN = "[A-Za-z0-9._:-]{1,100}";

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A fresh credential and what the farm keeps of it. */
    public record Issued(Credential stored, String secret) {
        @Override public String toString() {
            return "Issued[" + stored + "]";
        }
    }

    public static Issued issue(String agentId, String by, long now) {
        byte[] secret = new byte[32];
        byte[] salt = new byte[16];
        RANDOM.nextBytes(secret);
        RANDOM.nextBytes(salt);
        String s = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        return new Issued(new Credential(agentId, ENROLLED, HexFormat.of().formatHex(salt), digest(salt, s), now, by), s);
    }

    public static Credential revoked(String agentId, String by, long now) {
        return new Credential(agentId, REVOKED, null, null, now, by);
    }

    public boolean enrolled() {
        return ENROLLED.equals(state);
    }

    /** Whether {@code secret} is this enrolled credential (constant time). */
    public boolean matches(String secret) {
        if (!enrolled() || secret == null || salt == null || hash == null) return false;
        byte[] given = HexFormat.of().parseHex(digest(HexFormat.of().parseHex(salt), secret));
        return MessageDigest.isEqual(HexFormat.of().parseHex(hash), given);
    }

    /** Whether this state replaces {@code other}: later, or at the same ms the larger hash, so every copy picks the same. */
    public boolean newerThan(Credential other) {
        if (other == null) return true;
        if (at != other.at) return at > other.at;
        return String.valueOf(hash).compareTo(String.valueOf(other.hash)) > 0;
    }

    private static String digest(byte[] salt, String secret) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(salt);
            d.update(secret.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}

package io.baton.node.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * API key tokens: {@code bk_} and 256 random bits in base64url, shown once when created; the keys
 * file keeps only {@code sha256:<hex>} of the token. Thread-safe.
 */
public final class ApiTokens {
  public static final String PREFIX = "bk_";
  public static final String HASH_PREFIX = "sha256:";
  private static final SecureRandom RANDOM = new SecureRandom();

  private ApiTokens() {}

  /** A fresh token. */
  public static String generate() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** A new key's id: {@code key_} and 64 random bits in hex; not secret (it names the key). */
  public static String keyId() {
    byte[] bytes = new byte[8];
    RANDOM.nextBytes(bytes);
    return "key_" + HexFormat.of().formatHex(bytes);
  }

  /** {@code sha256:<hex>} of the token, as the keys file stores it. */
  public static String hash(String token) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return HASH_PREFIX + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** Compares two hashes in time that does not depend on where they differ. */
  static boolean sameHash(String a, String b) {
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
  }
}

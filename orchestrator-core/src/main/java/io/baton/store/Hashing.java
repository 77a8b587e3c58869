package io.baton.store;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The sha-256 addresses of content. */
public final class Hashing {
  private Hashing() {}

  /** Lowercase hex sha-256 of the bytes. */
  public static String sha256(byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("every JVM has SHA-256", impossible);
    }
  }
}

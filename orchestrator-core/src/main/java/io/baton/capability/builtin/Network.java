package io.baton.capability.builtin;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * An IPv4 or IPv6 network in CIDR form ({@code 10.0.0.0/8}); an address alone is a network of one.
 * Parsed without DNS: only literal addresses are accepted. Immutable and thread-safe.
 */
final class Network {
  private final String text;
  private final byte[] base;
  private final int prefix;
  private final String meaning;

  private Network(String text, byte[] base, int prefix, String meaning) {
    this.text = text;
    this.base = base.clone();
    this.prefix = prefix;
    this.meaning = meaning;
  }

  /** What the network is, for messages ("link-local"). */
  String meaning() {
    return meaning;
  }

  /** Whether {@code text} is written as an address or CIDR rather than a host name. */
  static boolean looksLikeAddress(String text) {
    String address = text.contains("/") ? text.substring(0, text.indexOf('/')) : text;
    return address.contains(":") || address.matches("[0-9.]+");
  }

  /**
   * @throws IllegalArgumentException {@code text} is not an address or CIDR; the message names
   *     {@code meaning} (the key it came from)
   */
  static Network parse(String text, String meaning) {
    int slash = text.indexOf('/');
    String address = slash < 0 ? text : text.substring(0, slash);
    byte[] base = literal(address, text, meaning);
    int bits = base.length * 8;
    int prefix = bits;
    if (slash >= 0) {
      try {
        prefix = Integer.parseInt(text.substring(slash + 1));
      } catch (NumberFormatException e) {
        prefix = -1;
      }
      if (prefix < 0 || prefix > bits) {
        throw new IllegalArgumentException(
            meaning + ": '" + text + "' has a prefix length outside 0.." + bits);
      }
    }
    return new Network(text, base, prefix, meaning);
  }

  private static byte[] literal(String address, String text, String meaning) {
    boolean v6 = address.contains(":");
    boolean v4 = address.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    if (v4) {
      int start = 0;
      while (v4 && start <= address.length()) {
        int dot = address.indexOf('.', start);
        int end = dot < 0 ? address.length() : dot;
        v4 = Integer.parseInt(address.substring(start, end)) <= 255;
        start = end + 1;
      }
    }
    if (!v4 && !(v6 && address.matches("[0-9a-fA-F:.]+"))) {
      throw new IllegalArgumentException(meaning + ": '" + text + "' is not an IP address or CIDR");
    }
    try {
      return InetAddress.getByName(address).getAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(
          meaning + ": '" + text + "' is not an IP address or CIDR", e);
    }
  }

  boolean contains(InetAddress address) {
    byte[] candidate = address.getAddress();
    if (candidate.length != base.length) {
      return false;
    }
    int bits = base.length * 8;
    BigInteger mask =
        BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE).shiftRight(prefix).not();
    return new BigInteger(1, candidate).and(mask).equals(new BigInteger(1, base).and(mask));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Network network && network.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }
}

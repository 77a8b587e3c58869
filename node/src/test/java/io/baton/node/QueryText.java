package io.baton.node;

import java.nio.charset.StandardCharsets;

/**
 * Turns any text into a query string that a URI can carry: {@code &} and {@code =} keep their
 * meaning, every other character outside the unreserved set is percent-encoded, so the node sees
 * the fuzzer's names and values as they were.
 */
final class QueryText {
  private static final String HEX = "0123456789ABCDEF";

  private QueryText() {}

  static String encode(String text) {
    StringBuilder query = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (c == '&' || c == '=' || isUnreserved(c)) {
        query.append(c);
      } else {
        query.append('%').append(HEX.charAt((b >> 4) & 0xf)).append(HEX.charAt(b & 0xf));
      }
    }
    return query.toString();
  }

  private static boolean isUnreserved(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }
}

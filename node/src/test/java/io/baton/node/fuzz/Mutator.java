package io.baton.node.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;

/**
 * Mutates seed inputs the way a fuzzer's havoc stage does, on text: flips, inserts, deletes,
 * duplicates and splices bytes; swaps in values of other JSON types, huge numbers, deep nesting,
 * control and non-ASCII characters, YAML tags and anchors. Deterministic for a seed.
 */
final class Mutator {
  private static final List<String> TOKENS =
      List.of(
          "null",
          "true",
          "-1",
          "0",
          "1e309",
          "-9223372036854775809",
          "[]",
          "{}",
          "\"\"",
          "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
          "{\"a\":",
          "\\u0000",
          "\u0000",
          "\ud800",
          "\uFEFF",
          "{{",
          "}}",
          "{{ input.",
          "{{ steps.x.output }}",
          "{{ run.id }}",
          "!!binary",
          "!!java.lang.Runtime",
          "&a",
          "*a",
          "<<: *a",
          ": ",
          "- ",
          "\t",
          "\n",
          "\r\n",
          "'",
          "\"",
          "#",
          "---\n",
          "...",
          "%YAML 1.2\n",
          "~",
          "0x7fffffff",
          "PT1S",
          "1s",
          "-1s",
          "99999999d",
          "ééé",
          "\u202e",
          "../../etc/passwd",
          "%00",
          "%",
          "${env:HOME}");

  private final Random random;

  Mutator(long seed) {
    this.random = new Random(seed);
  }

  String mutate(String seed) {
    String text = seed;
    int rounds = 1 + random.nextInt(4);
    for (int i = 0; i < rounds; i++) {
      text = once(text);
    }
    return text;
  }

  private String once(String text) {
    int at = text.isEmpty() ? 0 : random.nextInt(text.length() + 1);
    switch (random.nextInt(9)) {
      case 0:
        return text.substring(0, at) + token() + text.substring(at);
      case 1:
        return text.substring(0, at);
      case 2:
        return text.isEmpty()
            ? text
            : text.substring(0, at)
                + text.substring(Math.min(text.length(), at + 1 + random.nextInt(8)));
      case 3:
        return flipByte(text);
      case 4:
        return text.substring(0, at) + text.substring(at / 2, at) + text.substring(at);
      case 5:
        return text.substring(0, at) + "a".repeat(random.nextInt(70_000)) + text.substring(at);
      case 6:
        return text.substring(0, at) + "[".repeat(random.nextInt(5000)) + text.substring(at);
      case 7:
        return text.replaceFirst(
            "\"[^\"]*\"|\\b\\d+\\b|true|false", Matcher.quoteReplacement(token()));
      default:
        return text.substring(0, at) + (char) random.nextInt(0x3000) + text.substring(at);
    }
  }

  private String flipByte(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0) {
      return text;
    }
    bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private String token() {
    return TOKENS.get(random.nextInt(TOKENS.size()));
  }

  int nextInt(int bound) {
    return random.nextInt(bound);
  }
}

package io.baton.time;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Baton writes them everywhere (flows, configuration, CLI): a number with a unit,
 * {@code 100ms}, {@code 2s}, {@code 5m}, {@code 24h}, {@code 7d}, or a sum such as {@code 1h30m}. A
 * bare number is refused: its unit would depend on the key.
 */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");
  private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:ms|s|m|h|d))+");

  private Durations() {}

  /**
   * Parses a duration.
   *
   * @throws IllegalArgumentException with a message that shows the accepted forms
   */
  public static Duration parse(String text) {
    String trimmed = text == null ? "" : text.trim();
    if (!WHOLE.matcher(trimmed).matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration; write a number with a unit: 250ms, 10s, 5m, 2h, 1d");
    }
    Duration total = Duration.ZERO;
    Matcher part = PART.matcher(trimmed);
    while (part.find()) {
      total = total.plus(unit(Long.parseLong(part.group(1)), part.group(2)));
    }
    return total;
  }

  private static Duration unit(long amount, String unit) {
    return switch (unit) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      default -> Duration.ofDays(amount);
    };
  }

  /** The shortest text {@link #parse} reads back as the same duration. */
  public static String format(Duration duration) {
    if (duration.isZero()) {
      return "0s";
    }
    StringBuilder text = new StringBuilder();
    long millis = duration.toMillis();
    long[] sizes = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
    String[] units = {"d", "h", "m", "s", "ms"};
    for (int i = 0; i < sizes.length; i++) {
      if (millis >= sizes[i]) {
        text.append(millis / sizes[i]).append(units[i]);
        millis %= sizes[i];
      }
    }
    return text.toString();
  }
}

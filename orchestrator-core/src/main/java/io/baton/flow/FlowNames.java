package io.baton.flow;

import java.util.regex.Pattern;

/**
 * The names flows and steps may take: letters, digits, {@code -} and {@code _}, starting with a
 * letter, at most {@link #MAX_LENGTH} characters, so that every step can be named in a template
 * ({@code steps.NAME.output}).
 */
public final class FlowNames {
  /** The longest name: a name travels in URLs, headers and log lines. */
  public static final int MAX_LENGTH = 200;

  private static final Pattern NAME =
      Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0," + (MAX_LENGTH - 1) + "}");

  /** What a valid name looks like, for messages. */
  public static final String RULE = "use letters, digits, '-' and '_', starting with a letter";

  private FlowNames() {}

  /** Whether the name is longer than {@link #MAX_LENGTH}. */
  public static boolean tooLong(String name) {
    return name != null && name.length() > MAX_LENGTH;
  }

  public static boolean isValid(String name) {
    return name != null && NAME.matcher(name).matches();
  }
}

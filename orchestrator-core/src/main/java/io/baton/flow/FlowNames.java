package io.baton.flow;

import java.util.regex.Pattern;

/**
 * The names flows and steps may take: letters, digits, {@code -} and {@code _}, starting with a
 * letter, so that every step can be named in a template ({@code steps.NAME.output}).
 */
public final class FlowNames {
  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");

  /** What a valid name looks like, for messages. */
  public static final String RULE = "use letters, digits, '-' and '_', starting with a letter";

  private FlowNames() {}

  public static boolean isValid(String name) {
    return name != null && NAME.matcher(name).matches();
  }
}

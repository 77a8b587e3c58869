package io.baton.flow;

import java.util.regex.Pattern;

/**
 * Field paths as problems name them: {@code steps[2].retry.delay}. Keys that are not plain words
 * are quoted: {@code params.headers["x.y"]}.
 */
final class FieldPaths {
  static final String ROOT = "";
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_-]+");

  private FieldPaths() {}

  static String key(String parent, String key) {
    if (!PLAIN.matcher(key).matches()) {
      return parent + "[\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
    }
    return parent.isEmpty() ? key : parent + "." + key;
  }

  static String index(String parent, int index) {
    return parent + "[" + index + "]";
  }

  /** Whether {@code path} is {@code ancestor} or lies under it. */
  static boolean isWithin(String path, String ancestor) {
    if (ancestor.isEmpty() || path.equals(ancestor)) {
      return true;
    }
    if (!path.startsWith(ancestor)) {
      return false;
    }
    char next = path.charAt(ancestor.length());
    return next == '.' || next == '[';
  }
}

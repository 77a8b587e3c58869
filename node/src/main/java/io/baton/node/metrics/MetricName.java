package io.baton.node.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A Dropwizard name read as a Prometheus name and labels. {@code baton.runs.finished{flow=a,
 * status=failed}} (as {@link io.baton.engine.EngineMetrics#labelled} writes it) becomes {@code
 * baton_runs_finished} with two labels; any other name is only sanitized: dots, dashes and every
 * other character Prometheus does not allow become underscores, camel case becomes snake case
 * ({@code pool.TotalConnections} becomes {@code pool_total_connections}).
 *
 * @param base the Prometheus name before any type suffix
 * @param labels label names (sanitized) and values, in the order given
 */
record MetricName(String base, Map<String, String> labels) {
  static MetricName parse(String dropwizardName) {
    int open = dropwizardName.indexOf('{');
    if (open > 0 && dropwizardName.endsWith("}")) {
      Map<String, String> labels =
          labels(dropwizardName.substring(open + 1, dropwizardName.length() - 1));
      if (labels != null) {
        return new MetricName(sanitize(dropwizardName.substring(0, open)), labels);
      }
    }
    return new MetricName(sanitize(dropwizardName), Map.of());
  }

  /** {@code a=1,b=x\,y}, with backslash escapes; null when it is not such a list. */
  private static Map<String, String> labels(String list) {
    Map<String, String> labels = new LinkedHashMap<>();
    StringBuilder token = new StringBuilder();
    String name = null;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      if (c == '\\' && i + 1 < list.length()) {
        token.append(list.charAt(++i));
      } else if (c == '=' && name == null) {
        name = token.toString();
        token.setLength(0);
      } else if (c == ',' && name != null) {
        labels.put(labelName(name), token.toString());
        name = null;
        token.setLength(0);
      } else {
        token.append(c);
      }
    }
    if (name == null || name.isEmpty()) {
      return list.isEmpty() ? labels : null;
    }
    labels.put(labelName(name), token.toString());
    return Collections.unmodifiableMap(labels);
  }

  static String sanitize(String name) {
    String snake =
        name.replaceAll("([a-z0-9])([A-Z])", "$1_$2")
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9_:]", "_")
            .replaceAll("_+", "_");
    return snake.isEmpty() || Character.isDigit(snake.charAt(0)) ? "_" + snake : snake;
  }

  private static String labelName(String name) {
    String sanitized = sanitize(name).replace(':', '_');
    return sanitized.startsWith("__") ? sanitized.substring(1) : sanitized;
  }
}

package io.baton.node.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One Prometheus metric family being written: its name, type and help, and the sample lines of each
 * label set. Not thread-safe; one per scrape.
 */
final class Family {
  enum Type {
    COUNTER,
    GAUGE,
    HISTOGRAM,
    SUMMARY;

    String text() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The names of the samples a family of this type writes. */
    List<String> sampleNames(String family) {
      return switch (this) {
        case COUNTER, GAUGE -> List.of(family);
        case HISTOGRAM -> List.of(family + "_bucket", family + "_sum", family + "_count");
        case SUMMARY -> List.of(family, family + "_sum", family + "_count");
      };
    }
  }

  private final String name;
  private final Type type;
  private final String help;
  private final Map<Map<String, String>, List<String>> series = new LinkedHashMap<>();

  Family(String name, Type type, String help) {
    this.name = name;
    this.type = type;
    this.help = help;
  }

  String name() {
    return name;
  }

  Type type() {
    return type;
  }

  boolean has(Map<String, String> labels) {
    return series.containsKey(labels);
  }

  /** Starts the series of a label set; its samples follow with {@link Series#sample}. */
  Series series(Map<String, String> labels) {
    List<String> lines = new ArrayList<>();
    series.put(labels, lines);
    return new Series(labels, lines);
  }

  /**
   * Writes the family. A series without labels beside labelled ones is their in-process total (see
   * {@link io.baton.engine.EngineMetrics}); Prometheus sums labels itself, so it is left out.
   */
  void writeTo(StringBuilder out) {
    boolean labelled = series.keySet().stream().anyMatch(labels -> !labels.isEmpty());
    out.append("# HELP ").append(name).append(' ').append(escapeHelp(help)).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type.text()).append('\n');
    series.forEach(
        (labels, lines) -> {
          if (!(labelled && labels.isEmpty())) {
            lines.forEach(line -> out.append(line).append('\n'));
          }
        });
  }

  private static String escapeHelp(String help) {
    return help.replace("\\", "\\\\").replace("\n", "\\n");
  }

  /** The sample lines of one label set. */
  final class Series {
    private final Map<String, String> labels;
    private final List<String> lines;

    private Series(Map<String, String> labels, List<String> lines) {
      this.labels = labels;
      this.lines = lines;
    }

    Series sample(String suffix, String extraLabel, String extraValue, String value) {
      Map<String, String> all = new LinkedHashMap<>(labels);
      if (extraLabel != null) {
        all.put(extraLabel, extraValue);
      }
      lines.add(name + suffix + labelText(all) + " " + value);
      return this;
    }

    Series sample(String suffix, String value) {
      return sample(suffix, null, null, value);
    }
  }

  private static String labelText(Map<String, String> labels) {
    if (labels.isEmpty()) {
      return "";
    }
    StringBuilder text = new StringBuilder("{");
    labels.forEach(
        (label, value) ->
            text.append(text.length() == 1 ? "" : ",")
                .append(label)
                .append("=\"")
                .append(value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
                .append('"'));
    return text.append('}').toString();
  }
}

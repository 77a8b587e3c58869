package io.baton.node.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text format 0.0.4 for tests: it parses every line and lists
 * every breach of the naming rules (valid names, {@code _total} on counters and only there, units
 * in timer names, one TYPE per family, no sample written twice, histogram buckets cumulative and
 * ending in {@code +Inf} equal to {@code _count}).
 */
public final class PrometheusText {
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"(,|$)");

  /** One sample line. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  private final Map<String, String> types = new LinkedHashMap<>();
  private final List<Sample> samples = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();

  private PrometheusText() {}

  public static PrometheusText parse(String text) {
    PrometheusText parsed = new PrometheusText();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      parsed.line(i + 1, lines[i]);
    }
    parsed.checkFamilies();
    return parsed;
  }

  private void line(int number, String line) {
    if (line.isEmpty()) {
      return;
    }
    if (line.startsWith("# TYPE ")) {
      String[] parts = line.split(" ");
      if (parts.length != 4 || !NAME.matcher(parts[2]).matches()) {
        problems.add("line " + number + ": bad TYPE: " + line);
      } else if (types.put(parts[2], parts[3]) != null) {
        problems.add("line " + number + ": second TYPE for " + parts[2]);
      }
      return;
    }
    if (line.startsWith("#")) {
      return;
    }
    Matcher sample = SAMPLE.matcher(line);
    if (!sample.matches()) {
      problems.add("line " + number + ": not a sample: " + line);
      return;
    }
    Map<String, String> labels = labels(number, sample.group(3) == null ? "" : sample.group(3));
    double value;
    try {
      value = parseValue(sample.group(4));
    } catch (NumberFormatException e) {
      problems.add("line " + number + ": bad value: " + line);
      return;
    }
    Sample parsed = new Sample(sample.group(1), labels, value);
    if (samples.stream()
        .anyMatch(s -> s.name().equals(parsed.name()) && s.labels().equals(parsed.labels()))) {
      problems.add("line " + number + ": sample written twice: " + line);
    }
    samples.add(parsed);
  }

  private Map<String, String> labels(int number, String text) {
    Map<String, String> labels = new LinkedHashMap<>();
    Matcher label = LABEL.matcher(text);
    int at = 0;
    while (at < text.length() && label.find(at) && label.start() == at) {
      if (labels.put(label.group(1), label.group(2)) != null) {
        problems.add("line " + number + ": label " + label.group(1) + " twice");
      }
      at = label.end();
    }
    if (at != text.length()) {
      problems.add("line " + number + ": bad labels: " + text);
    }
    return labels;
  }

  private static double parseValue(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(text);
    };
  }

  private void checkFamilies() {
    for (Sample sample : samples) {
      if (family(sample.name()) == null) {
        problems.add("sample " + sample.name() + " has no TYPE");
      }
    }
    types.forEach(
        (family, type) -> {
          boolean total = family.endsWith("_total");
          if (type.equals("counter") && !total && family.startsWith("baton_")) {
            problems.add("counter " + family + " does not end in _total");
          }
          if (!type.equals("counter") && total) {
            problems.add(type + " " + family + " ends in _total");
          }
          if (type.equals("histogram")) {
            checkHistogram(family);
          }
        });
  }

  private void checkHistogram(String family) {
    Map<Map<String, String>, Double> last = new LinkedHashMap<>();
    for (Sample sample : samples) {
      if (!sample.name().equals(family + "_bucket")) {
        continue;
      }
      Map<String, String> series = new LinkedHashMap<>(sample.labels());
      series.remove("le");
      Double before = last.put(series, sample.value());
      if (before != null && before > sample.value()) {
        problems.add(family + series + " buckets are not cumulative");
      }
      if ("+Inf".equals(sample.labels().get("le"))) {
        double count = value(family + "_count", series);
        if (count != sample.value()) {
          problems.add(family + series + " +Inf bucket " + sample.value() + " != count " + count);
        }
      }
    }
  }

  /** The family a sample belongs to, or null. */
  public String family(String sampleName) {
    if (types.containsKey(sampleName)) {
      return sampleName;
    }
    for (String suffix : List.of("_bucket", "_sum", "_count", "_created", "_total")) {
      if (sampleName.endsWith(suffix)) {
        String family = sampleName.substring(0, sampleName.length() - suffix.length());
        if (types.containsKey(family)) {
          return family;
        }
      }
    }
    return null;
  }

  public List<String> problems() {
    return problems;
  }

  public Map<String, String> types() {
    return types;
  }

  public List<Sample> samples() {
    return samples;
  }

  /** The value of the sample with exactly these labels; NaN when absent. */
  public double value(String name, Map<String, String> labels) {
    return samples.stream()
        .filter(s -> s.name().equals(name) && s.labels().equals(labels))
        .mapToDouble(Sample::value)
        .findFirst()
        .orElse(Double.NaN);
  }
}

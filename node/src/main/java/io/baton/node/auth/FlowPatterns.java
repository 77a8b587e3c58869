package io.baton.node.auth;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Flow-name patterns a key is limited to: {@code *} matches any run of characters, everything else
 * literally ({@code billing-*}). No patterns: every flow. Immutable.
 */
public final class FlowPatterns {
  public static final FlowPatterns ANY = new FlowPatterns(List.of());

  private final List<String> patterns;
  private final List<Pattern> compiled;

  private FlowPatterns(List<String> patterns) {
    this.patterns = List.copyOf(patterns);
    this.compiled = this.patterns.stream().map(FlowPatterns::compile).toList();
  }

  public static FlowPatterns of(List<String> patterns) {
    return patterns == null || patterns.isEmpty() ? ANY : new FlowPatterns(patterns);
  }

  private static Pattern compile(String glob) {
    List<String> parts = List.of(glob.split("\\*", -1));
    return Pattern.compile(
        String.join(".*", parts.stream().map(Pattern::quote).toList()), Pattern.DOTALL);
  }

  /** Whether the limit is on: some patterns, not every flow. */
  public boolean limited() {
    return !patterns.isEmpty();
  }

  public boolean matches(String flowName) {
    if (!limited()) {
      return true;
    }
    return flowName != null && compiled.stream().anyMatch(p -> p.matcher(flowName).matches());
  }

  public List<String> patterns() {
    return patterns;
  }

  @Override
  public String toString() {
    return limited() ? String.join(", ", patterns) : "*";
  }
}

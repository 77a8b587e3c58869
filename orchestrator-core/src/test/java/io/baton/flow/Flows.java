package io.baton.flow;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.baton.capability.builtin.BuiltInCapabilities;
import java.net.http.HttpClient;
import java.util.List;

/** Parses flows for tests with the built-ins and the test-only {@code echo} capability. */
final class Flows {
  static final String FILE = "flow.yaml";
  static final FlowParser PARSER =
      new FlowParser(
          BuiltInCapabilities.registry(HttpClient.newHttpClient(), Flows.class.getClassLoader()));

  private Flows() {}

  static Flow parse(String text) {
    return PARSER.parse(text, FILE);
  }

  /** Every problem the parser reports for {@code text}; fails when the text parses. */
  static List<FlowProblem> problemsIn(String text) {
    FlowValidationException[] thrown = new FlowValidationException[1];
    assertThatThrownBy(() -> parse(text))
        .isInstanceOfSatisfying(FlowValidationException.class, e -> thrown[0] = e);
    return thrown[0].problems();
  }

  /** A problem in {@link #FILE}. */
  static FlowProblem problem(int line, int column, String field, String message) {
    return new FlowProblem(FILE, line, column, field, message);
  }
}

package io.baton.node;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.builtin.BuiltInCapabilities;
import io.baton.flow.FlowParser;
import io.baton.flow.FlowValidationException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Tag;

/**
 * Coverage-guided fuzzing of the flow parser (Jazzer): any text is accepted as a flow or refused
 * with {@link FlowValidationException} problems that name the file and say what is wrong; nothing
 * else escapes. In the suite, Jazzer replays the corpus in {@code
 * src/test/resources/io/baton/node/FlowParserFuzzTestInputs/flow_parser} (the examples and the test
 * flows, plus every finding once fixed); {@code JAZZER_FUZZ=1} fuzzes (README, "Heavy runs").
 */
@Tag("fuzz") // own test JVM (node/pom.xml, execution "fuzz")
class FlowParserFuzzTest {
  private static final String FILE = "fuzzed.yaml";
  private static final FlowParser PARSER =
      new FlowParser(
          BuiltInCapabilities.register(
                  CapabilityRegistry.builder(),
                  HttpClient.newHttpClient(),
                  FlowParserFuzzTest.class.getClassLoader())
              .build());

  @FuzzTest(maxDuration = "5m")
  void flow_parser(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    try {
      PARSER.parse(text, FILE);
    } catch (FlowValidationException refused) {
      FuzzChecks.refusedWithProblems(refused, FILE);
    }
  }
}

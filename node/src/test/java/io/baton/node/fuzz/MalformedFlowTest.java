package io.baton.node.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.capability.CapabilityRegistry;
import io.baton.capability.builtin.BuiltInCapabilities;
import io.baton.flow.FlowParser;
import io.baton.flow.FlowProblem;
import io.baton.flow.FlowValidationException;
import io.baton.node.http.TestFlows;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The flow parser, given mutated flows (seeded from the examples and the test flows), either
 * accepts a flow or refuses it with {@link FlowValidationException}, each problem naming a line;
 * nothing else escapes. {@code -Dbaton.fuzz.cases=N}, {@code -Dbaton.fuzz.seed=S} as in {@link
 * MalformedInputApiTest}.
 */
class MalformedFlowTest {
  private static final int CASES = Integer.getInteger("baton.fuzz.cases", 1000);
  private static final long SEED = Long.getLong("baton.fuzz.seed", System.nanoTime());

  @Test
  void every_mutated_flow_is_accepted_or_refused_with_problems_that_say_where() throws IOException {
    CapabilityRegistry capabilities =
        BuiltInCapabilities.register(
                CapabilityRegistry.builder(),
                HttpClient.newHttpClient(),
                MalformedFlowTest.class.getClassLoader())
            .build();
    FlowParser parser = new FlowParser(capabilities);
    List<String> seeds = seeds();
    Mutator mutator = new Mutator(SEED);
    for (int i = 0; i < CASES; i++) {
      String text = mutator.mutate(seeds.get(mutator.nextInt(seeds.size())));
      String what = "seed " + SEED + " (-Dbaton.fuzz.seed=" + SEED + "), case " + i + ":\n" + text;
      try {
        parser.parse(text, "fuzzed.yaml");
      } catch (FlowValidationException refused) {
        assertThat(refused.problems()).as(what).isNotEmpty();
        for (FlowProblem problem : refused.problems()) {
          assertThat(problem.file()).as(what).isEqualTo("fuzzed.yaml");
          assertThat(problem.message()).as(what).isNotBlank();
        }
      } catch (RuntimeException escaped) {
        throw new AssertionError(what + "\nescaped: " + escaped, escaped);
      }
    }
  }

  private static List<String> seeds() throws IOException {
    List<String> seeds = new ArrayList<>();
    seeds.add(TestFlows.approval("seed-approval"));
    seeds.add(TestFlows.quick("seed-quick"));
    seeds.add(TestFlows.toggled("seed-toggled", "switch"));
    Path examples = Path.of("..", "examples");
    if (Files.isDirectory(examples)) {
      try (Stream<Path> files = Files.list(examples)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
          seeds.add(Files.readString(file));
        }
      }
    }
    return seeds;
  }
}

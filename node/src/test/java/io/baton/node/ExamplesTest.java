package io.baton.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.capability.CapabilityRegistry;
import io.baton.capability.builtin.BuiltInCapabilities;
import io.baton.flow.Flow;
import io.baton.flow.FlowParser;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every flow in {@code examples/} is valid, since {@code baton dev} applies them all at start. */
class ExamplesTest {
  @Test
  void every_example_flow_is_valid_and_the_event_examples_are_triggered() throws IOException {
    CapabilityRegistry capabilities =
        BuiltInCapabilities.registry(HttpClient.newHttpClient(), getClass().getClassLoader());
    FlowParser parser = new FlowParser(capabilities);
    Path examples = Path.of(System.getProperty("baton.root", ".."), "examples");
    List<Path> files;
    try (Stream<Path> listed = Files.list(examples)) {
      files = listed.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    for (Path file : files) {
      Flow flow = parser.parse(Files.readString(file), file.toString());
      if (flow.name().equals("on-order-created")) {
        assertThat(flow.trigger().orElseThrow().matches("order.created")).isTrue();
      }
      if (flow.name().equals("notify-packed")) {
        assertThat(flow.trigger().orElseThrow().matches("order.packed")).isTrue();
      }
    }
  }
}

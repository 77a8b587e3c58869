package io.baton.engine.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.baton.engine.FlowReader;
import io.baton.flow.Backoff;
import io.baton.flow.EventTrigger;
import io.baton.flow.Flow;
import io.baton.flow.FlowDefinition;
import io.baton.flow.RecoveryPolicy;
import io.baton.flow.RepeatCondition;
import io.baton.flow.RepeatPolicy;
import io.baton.flow.RetryPolicy;
import io.baton.flow.StepDefinition;
import io.baton.journal.JournalCodec;
import io.baton.store.Hashing;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Flows built in code for engine tests: the definition is serialized as its own canonical JSON, so
 * tests need no YAML parser. Not thread-safe while building.
 */
public final class TestFlows {
  private static final ObjectMapper CANONICAL =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
          .build();

  /** Reads what {@link #flow} wrote. */
  public static final FlowReader READER =
      (text, source) -> {
        try {
          return flow(CANONICAL.readValue(text, FlowDefinition.class));
        } catch (JsonProcessingException e) {
          throw new UncheckedIOException(e);
        }
      };

  private final String name;
  private final List<StepDefinition> steps = new ArrayList<>();
  private RecoveryPolicy recovery = RecoveryPolicy.RESUME;
  private Duration maxResumeAge;
  private JsonNode output;
  private EventTrigger trigger;

  private TestFlows(String name) {
    this.name = name;
  }

  public static TestFlows named(String name) {
    return new TestFlows(name);
  }

  public static Flow flow(FlowDefinition definition) {
    try {
      String json = CANONICAL.writeValueAsString(definition);
      return new Flow(definition, Hashing.sha256(json.getBytes(StandardCharsets.UTF_8)), json);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonNode json(String text) {
    try {
      return JournalCodec.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A step after the previous one (or first). */
  public TestFlows step(String step, String capability, String params) {
    List<String> needs = steps.isEmpty() ? List.of() : List.of(steps.get(steps.size() - 1).name());
    return step(step, capability, params, needs, null, null);
  }

  public TestFlows step(
      String step,
      String capability,
      String params,
      List<String> needs,
      Duration timeout,
      RetryPolicy retry) {
    steps.add(
        new StepDefinition(
            step, capability, null, params == null ? null : json(params), needs, timeout, retry));
    return this;
  }

  /** Replaces the last step's retry policy. */
  public TestFlows retry(
      int maxAttempts,
      Duration delay,
      Backoff backoff,
      Duration maxDelay,
      boolean jitter,
      List<String> retryOn) {
    StepDefinition last = steps.remove(steps.size() - 1);
    steps.add(
        new StepDefinition(
            last.name(),
            last.capability(),
            last.operation(),
            last.params(),
            last.needs(),
            last.timeout(),
            new RetryPolicy(maxAttempts, delay, backoff, maxDelay, jitter, retryOn),
            last.repeat()));
    return this;
  }

  /** Makes the last step repeat until {@code until} holds, at most {@code max} times. */
  public TestFlows repeat(String until, int max, Duration every) {
    StepDefinition last = steps.remove(steps.size() - 1);
    steps.add(
        new StepDefinition(
            last.name(),
            last.capability(),
            last.operation(),
            last.params(),
            last.needs(),
            last.timeout(),
            last.retry(),
            new RepeatPolicy(RepeatCondition.parse(until), max, every)));
    return this;
  }

  /** Replaces the last step's timeout. */
  public TestFlows timeout(Duration timeout) {
    StepDefinition last = steps.remove(steps.size() - 1);
    steps.add(
        new StepDefinition(
            last.name(),
            last.capability(),
            last.operation(),
            last.params(),
            last.needs(),
            timeout,
            last.retry(),
            last.repeat()));
    return this;
  }

  public TestFlows recovery(RecoveryPolicy policy) {
    this.recovery = policy;
    return this;
  }

  public TestFlows maxResumeAge(Duration age) {
    this.maxResumeAge = age;
    return this;
  }

  /** The run's output template: JSON, or a plain template string. */
  public TestFlows output(String template) {
    this.output = template.startsWith("{{") ? TextNode.valueOf(template) : json(template);
    return this;
  }

  /** Events of these types start the flow; {@code keyTemplate} may be null (the event's id). */
  public TestFlows trigger(String keyTemplate, String... types) {
    this.trigger = new EventTrigger(List.of(types), keyTemplate);
    return this;
  }

  public Flow build() {
    return flow(new FlowDefinition(name, "", recovery, maxResumeAge, output, steps, trigger));
  }
}

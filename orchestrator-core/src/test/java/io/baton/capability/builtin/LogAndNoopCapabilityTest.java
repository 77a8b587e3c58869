package io.baton.capability.builtin;

import static io.baton.capability.builtin.Invocations.RUN;
import static io.baton.capability.builtin.Invocations.invocation;
import static io.baton.capability.builtin.Invocations.json;
import static io.baton.capability.builtin.Invocations.outcomeOf;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.baton.capability.Capability.ParamProblem;
import io.baton.capability.StepOutcome;
import io.baton.capability.StepOutcome.Completed;
import io.baton.testkit.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class LogAndNoopCapabilityTest {
  private final SettableClock clock = new SettableClock();
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(LogCapability.class);

  @BeforeEach
  void captureLog() {
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void releaseLog() {
    logger.detachAppender(logged);
  }

  @Test
  void noop_completes_with_its_params_as_output() throws Exception {
    StepOutcome outcome =
        outcomeOf(new NoopCapability().invoke(invocation(null, json("{\"a\": [1, 2]}"), clock)));

    assertThat(outcome).isEqualTo(new Completed(json("{\"a\": [1, 2]}")));
  }

  @Test
  void noop_without_params_completes_with_null() throws Exception {
    StepOutcome outcome = outcomeOf(new NoopCapability().invoke(invocation(null, null, clock)));

    assertThat(outcome).isEqualTo(new Completed(json("null")));
  }

  @Test
  void log_writes_the_message_with_the_run_id_and_outputs_it() throws Exception {
    StepOutcome outcome =
        outcomeOf(
            new LogCapability()
                .invoke(invocation(null, json("{\"message\": \"shipped A-7\"}"), clock)));

    assertThat(outcome).isEqualTo(new Completed(json("{\"message\": \"shipped A-7\"}")));
    assertThat(logged.list)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.INFO);
              assertThat(event.getFormattedMessage())
                  .isEqualTo("run " + RUN + " step call: shipped A-7");
              assertThat(event.getKeyValuePairs())
                  .anySatisfy(
                      pair -> {
                        assertThat(pair.key).isEqualTo("runId");
                        assertThat(pair.value).isEqualTo(RUN);
                      });
            });
  }

  @Test
  void log_honours_the_level_and_writes_a_non_string_message_as_json() throws Exception {
    outcomeOf(
        new LogCapability()
            .invoke(
                invocation(null, json("{\"message\": {\"n\": 1}, \"level\": \"warn\"}"), clock)));

    assertThat(logged.list)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getLevel()).isEqualTo(Level.WARN);
              assertThat(event.getFormattedMessage()).endsWith(": {\"n\":1}");
            });
  }

  @Test
  void log_needs_a_message_and_a_known_level() {
    assertThat(new LogCapability().validate(null, json("{\"level\": \"loud\"}")))
        .containsExactly(
            new ParamProblem("message", "missing param 'message': log needs a message to write"),
            new ParamProblem(
                "level", "'loud' is not a log level; use one of: trace, debug, info, warn, error"));
  }
}

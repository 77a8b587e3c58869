package io.baton.capability.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Cancellation;
import io.baton.capability.CancellationSignal;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import io.baton.journal.JournalCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Invocations for capability tests: one run, one step, first attempt. */
final class Invocations {
  static final UUID RUN = UUID.fromString("6f1c2b9e-0000-4000-8000-00000000c0de");
  static final String STEP = "call";

  private Invocations() {}

  static Invocation invocation(
      String operation, JsonNode params, Clock clock, Instant deadline, Cancellation cancel) {
    return new Invocation(
        RUN,
        STEP,
        operation,
        params,
        1,
        deadline,
        cancel,
        Invocation.idempotencyKey(RUN, STEP),
        clock);
  }

  static Invocation invocation(String operation, JsonNode params, Clock clock) {
    return invocation(operation, params, clock, null, new CancellationSignal());
  }

  static JsonNode json(String text) {
    try {
      return JournalCodec.mapper().readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The outcome, waiting a bounded time for it. */
  static StepOutcome outcomeOf(CompletionStage<StepOutcome> stage)
      throws InterruptedException, ExecutionException, TimeoutException {
    return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
  }
}

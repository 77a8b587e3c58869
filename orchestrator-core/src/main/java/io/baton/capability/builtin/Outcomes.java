package io.baton.capability.builtin;

import io.baton.capability.ErrorCodes;
import io.baton.capability.StepOutcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Keeps the promise that a built-in never throws out of {@code invoke}. */
final class Outcomes {
  private static final Logger log = LoggerFactory.getLogger(Outcomes.class);

  private Outcomes() {}

  /** The outcome {@code work} computes now, or an internal error if it throws (a bug). */
  static CompletionStage<StepOutcome> now(String capability, Supplier<StepOutcome> work) {
    return CompletableFuture.completedFuture(guarded(capability, work));
  }

  static StepOutcome guarded(String capability, Supplier<StepOutcome> work) {
    try {
      return work.get();
    } catch (RuntimeException bug) {
      return internalError(capability, bug);
    }
  }

  /** The outcome of a bug: logged, and retryable, since a bug may depend on the moment. */
  static StepOutcome internalError(String capability, RuntimeException bug) {
    log.error("capability {} threw instead of returning an outcome", capability, bug);
    return StepOutcome.failed(
        ErrorCodes.INTERNAL, "capability " + capability + " failed: " + bug, true);
  }
}

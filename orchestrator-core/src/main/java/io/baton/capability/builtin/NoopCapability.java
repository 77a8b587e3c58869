package io.baton.capability.builtin;

import io.baton.capability.Capability;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import java.util.concurrent.CompletionStage;

/** {@code noop}: completes at once with its rendered params as output (null without params). */
public final class NoopCapability implements Capability {
  public static final String NAME = "noop";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletionStage<StepOutcome> invoke(Invocation invocation) {
    return Outcomes.now(NAME, () -> StepOutcome.completed(invocation.params()));
  }
}

package io.baton.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.capability.Capability;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.Invocation;
import io.baton.capability.StepOutcome;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/** One node's capabilities in the simulation: each invocation is reported before it runs. */
final class ObservedCapabilities {
  private ObservedCapabilities() {}

  static CapabilityRegistry of(CapabilityRegistry shared, Consumer<Invocation> observer) {
    CapabilityRegistry.Builder builder = CapabilityRegistry.builder();
    for (Capability capability : shared.all()) {
      builder.register(observed(capability, observer));
    }
    return builder.build();
  }

  private static Capability observed(Capability capability, Consumer<Invocation> observer) {
    return new Capability() {
      @Override
      public String name() {
        return capability.name();
      }

      @Override
      public Optional<String> defaultOperation() {
        return capability.defaultOperation();
      }

      @Override
      public Set<String> operations() {
        return capability.operations();
      }

      @Override
      public List<ParamProblem> validate(String operation, JsonNode params) {
        return capability.validate(operation, params);
      }

      @Override
      public CompletionStage<StepOutcome> invoke(Invocation invocation) {
        observer.accept(invocation);
        return capability.invoke(invocation);
      }
    };
  }
}

package io.baton.store.postgres.testkit;

import java.util.Map;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Disables named tests that a class inherits from a shared compliance suite, each with the reason
 * printed in the test report. Only for gaps in a suite that its owner has been told about, with the
 * behaviour covered by a replacement test in the same class.
 */
public final class SkipInheritedTests implements ExecutionCondition {
  private final Map<String, String> reasons;

  private SkipInheritedTests(Map<String, String> reasons) {
    this.reasons = Map.copyOf(reasons);
  }

  public static SkipInheritedTests of(String method, String reason) {
    return new SkipInheritedTests(Map.of(method, reason));
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return context
        .getTestMethod()
        .map(method -> reasons.get(method.getName()))
        .map(ConditionEvaluationResult::disabled)
        .orElse(ConditionEvaluationResult.enabled("not a known suite gap"));
  }
}

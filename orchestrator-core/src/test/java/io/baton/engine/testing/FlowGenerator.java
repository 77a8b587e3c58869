package io.baton.engine.testing;

import io.baton.flow.Backoff;
import io.baton.flow.Flow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded random flows for property tests and the cluster simulation. */
public final class FlowGenerator {
  private FlowGenerator() {}

  /**
   * A flow of 2 to 7 deterministic ({@code det}) steps, in sequence or a DAG, whose steps fail a
   * few times before succeeding; some exhaust their attempts.
   */
  public static Flow dagOfDeterministicSteps(Random random, String name) {
    return dag(random, name, false);
  }

  /** Like {@link #dagOfDeterministicSteps}, with {@code det-slow} steps that take up to 20 s. */
  public static Flow dagOfSlowSteps(Random random, String name) {
    return dag(random, name, true);
  }

  /**
   * Like {@link #dagOfDeterministicSteps}, where about half the steps {@code repeat}: each
   * iteration's output carries its number, the step's {@code until} holds at iteration 1 to 4, its
   * {@code max} is sometimes below that (the step then fails with repeat_exhausted), and it waits
   * nothing, 100 ms or 5 s (long enough to park the run) between iterations.
   */
  public static Flow loopOfDeterministicSteps(Random random, String name) {
    TestFlows flow = TestFlows.named(name);
    int count = 2 + random.nextInt(4);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String step = "s" + i;
      List<String> needs = needs(random, names);
      int failFirst = pick(random, new int[] {0, 0, 0, 1, 2});
      boolean loops = random.nextBoolean();
      String params = detParams(failFirst, needs);
      if (loops) {
        params = params.replace("\"in\": {", "\"in\": {\"iter\": \"{{ run.iteration }}\", ");
      }
      flow.step(step, "det", params, needs, null, null)
          .retry(failFirst + 1, Duration.ofMillis(100), Backoff.FIXED, null, false, List.of());
      if (loops) {
        int holdsAt = 1 + random.nextInt(4);
        int max = Math.max(1, holdsAt - 1 + random.nextInt(3));
        Duration every =
            new Duration[] {Duration.ZERO, Duration.ofMillis(100), Duration.ofSeconds(5)}
                [random.nextInt(3)];
        flow.repeat("{{ steps." + step + ".output.in.iter }} == " + holdsAt, max, every);
      }
      names.add(step);
    }
    return flow.build();
  }

  private static Flow dag(Random random, String name, boolean slow) {
    TestFlows flow = TestFlows.named(name);
    int count = 2 + random.nextInt(6);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String step = "s" + i;
      List<String> needs = needs(random, names);
      int failFirst = pick(random, new int[] {0, 0, 0, 0, 1, 1, 2, 9});
      int maxAttempts = failFirst == 9 ? 1 + random.nextInt(3) : failFirst + 1 + random.nextInt(2);
      String params = detParams(failFirst, needs);
      if (slow) {
        params =
            params.substring(0, params.length() - 1)
                + ", \"millis\": "
                + random.nextInt(20_000)
                + "}";
      }
      flow.step(step, slow ? "det-slow" : "det", params, needs, null, null)
          .retry(
              maxAttempts,
              Duration.ofMillis(100),
              Backoff.values()[random.nextInt(3)],
              null,
              false,
              List.of());
      names.add(step);
    }
    return flow.build();
  }

  /**
   * Params of a {@code det} step that fails {@code failFirst} times and reads its needs' outputs.
   */
  public static String detParams(int failFirst, List<String> needs) {
    StringBuilder params =
        new StringBuilder("{\"failFirst\": " + failFirst + ", \"in\": {\"x\": \"{{ input.x }}\"");
    for (String need : needs) {
      params
          .append(", \"")
          .append(need)
          .append("\": \"{{ steps.")
          .append(need)
          .append(".output.attempt }}\"");
    }
    return params.append("}}").toString();
  }

  private static List<String> needs(Random random, List<String> earlier) {
    if (earlier.isEmpty()) {
      return List.of();
    }
    if (random.nextBoolean()) {
      return List.of(earlier.get(earlier.size() - 1));
    }
    List<String> needs = new ArrayList<>();
    for (String candidate : earlier) {
      if (random.nextInt(3) == 0) {
        needs.add(candidate);
      }
    }
    return needs.isEmpty() ? List.of(earlier.get(random.nextInt(earlier.size()))) : needs;
  }

  private static int pick(Random random, int[] choices) {
    return choices[random.nextInt(choices.length)];
  }
}

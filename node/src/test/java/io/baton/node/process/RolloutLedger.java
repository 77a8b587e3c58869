package io.baton.node.process;

import static io.baton.node.process.ProcessTestSupport.completions;
import static io.baton.node.process.ProcessTestSupport.get;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a rollout under load submitted, and the checker of what the cluster did with it: no run lost
 * (every submission is a run that succeeded), none repeated (every step completion journaled once),
 * every side effect's Idempotency-Key belongs to a submitted run. Run times (for the p99 figures
 * and the slowest runs) are of the runs of {@link #TIMED_FLOW} only: the others wait for people and
 * timers by design.
 */
final class RolloutLedger {
  private static final int SLOWEST_SHOWN = 8;
  private static final String TIMED_FLOW = "rollout";

  /** A submitted run: its idempotency key, id, flow, and whether it was sent during the roll. */
  record Submitted(String key, String runId, String flow, boolean duringRoll) {}

  /** The checker's findings: every list empty means nothing was lost or repeated. */
  record Verdict(
      List<String> notSucceeded,
      List<String> completedTwice,
      Set<String> unknownSideEffects,
      Map<String, Duration> p99ByPhase,
      List<String> slowestDuringRoll,
      String rollTail) {
    boolean clean() {
      return notSucceeded.isEmpty() && completedTwice.isEmpty() && unknownSideEffects.isEmpty();
    }
  }

  private final Map<String, Submitted> byKey = new ConcurrentHashMap<>();

  void submitted(String key, String runId, String flow, boolean duringRoll) {
    Submitted earlier = byKey.putIfAbsent(key, new Submitted(key, runId, flow, duringRoll));
    if (earlier != null && !earlier.runId().equals(runId)) {
      throw new AssertionError(
          "submission " + key + " made two runs: " + earlier.runId() + " and " + runId);
    }
  }

  int size() {
    return byKey.size();
  }

  long count(String flow) {
    return byKey.values().stream().filter(s -> s.flow().equals(flow)).count();
  }

  List<String> runIds() {
    return byKey.values().stream().map(Submitted::runId).toList();
  }

  /**
   * Reads every run from {@code api} and checks it against the ledger and the side effects; {@code
   * steps} names each flow's steps, each of which must be journaled completed exactly once.
   */
  Verdict check(String api, Map<String, List<String>> steps, Set<String> sideEffectKeys)
      throws Exception {
    List<String> notSucceeded = new ArrayList<>();
    List<String> completedTwice = new ArrayList<>();
    Map<Boolean, List<Duration>> durations = new TreeMap<>();
    Map<String, Duration> duringRoll = new HashMap<>();
    for (Submitted submitted : byKey.values()) {
      JsonNode run = get(api + "/api/runs/" + submitted.runId());
      if (!run.path("status").asText().equals("SUCCEEDED")) {
        notSucceeded.add(submitted.runId() + " " + run.path("status").asText());
        continue;
      }
      for (String step : steps.get(submitted.flow())) {
        long completed = completions(api, submitted.runId(), step);
        if (completed != 1) {
          completedTwice.add(submitted.runId() + "/" + step + " x" + completed);
        }
      }
      if (!submitted.flow().equals(TIMED_FLOW)) {
        continue;
      }
      Duration took =
          Duration.between(
              Instant.parse(run.path("createdAt").asText()),
              Instant.parse(run.path("updatedAt").asText()));
      durations.computeIfAbsent(submitted.duringRoll(), k -> new ArrayList<>()).add(took);
      if (submitted.duringRoll()) {
        duringRoll.put(submitted.runId(), took);
      }
    }
    Set<String> runIds = Set.copyOf(runIds());
    Set<String> unknown = new TreeSet<>();
    for (String key : sideEffectKeys) {
      String runId = key.contains("/") ? key.substring(0, key.indexOf('/')) : key;
      if (!runIds.contains(runId)) {
        unknown.add(key);
      }
    }
    Map<String, Duration> p99 = new TreeMap<>();
    durations.forEach((during, list) -> p99.put(during ? "during roll" : "steady", p99(list)));
    String rollTail = tail(durations.get(false), durations.get(true));
    List<String> slowest = new ArrayList<>();
    for (Map.Entry<String, Duration> slow :
        duringRoll.entrySet().stream()
            .sorted(Map.Entry.<String, Duration>comparingByValue().reversed())
            .limit(SLOWEST_SHOWN)
            .toList()) {
      slowest.add(slow.getKey() + " " + slow.getValue() + " " + claims(api, slow.getKey()));
    }
    return new Verdict(notSucceeded, completedTwice, unknown, p99, slowest, rollTail);
  }

  /**
   * Where a slow run's time went, from its journal: each claim's reason and node, and each step's
   * start and completion, as milliseconds since the run's creation ({@code call 3-412} started 3 ms
   * and completed 412 ms after it).
   */
  private static List<String> claims(String api, String runId) throws Exception {
    List<String> timeline = new ArrayList<>();
    Instant created = null;
    for (JsonNode entry : get(api + "/api/runs/" + runId + "/journal").path("entries")) {
      Instant at = Instant.parse(entry.path("timestamp").asText());
      JsonNode event = entry.path("event");
      if (created == null) {
        created = at;
      }
      String type = event.path("type").asText();
      if (type.equals("RunClaimed")) {
        timeline.add(
            event.path("reason").asText()
                + " by "
                + event.path("node").asText()
                + " at +"
                + Duration.between(created, at).toMillis()
                + " ms");
      } else if (type.equals("StepCompleted")) {
        String started = event.path("startedAt").asText();
        timeline.add(
            event.path("step").asText()
                + " "
                + (started.isEmpty()
                    ? "?"
                    : Duration.between(created, Instant.parse(started)).toMillis())
                + "-"
                + Duration.between(created, at).toMillis());
      }
    }
    return timeline;
  }

  /**
   * How many runs of the roll took longer than twice the steady p99, of how many: a figure that a
   * longer roll (more runs at ease) does not dilute as it dilutes the p99.
   */
  private static String tail(List<Duration> steady, List<Duration> roll) {
    if (steady == null || roll == null) {
      return "no runs in one of the phases";
    }
    Duration bound = p99(steady).multipliedBy(2);
    long over = roll.stream().filter(took -> took.compareTo(bound) > 0).count();
    return over + " of " + roll.size() + " runs of the roll took longer than " + bound;
  }

  private static Duration p99(List<Duration> durations) {
    List<Duration> sorted = durations.stream().sorted().toList();
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1));
  }
}

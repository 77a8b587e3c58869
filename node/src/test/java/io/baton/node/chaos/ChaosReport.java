package io.baton.node.chaos;

import io.baton.journal.RunClaimed;
import io.baton.journal.StepFailed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a chaos run prints: the seed and the command to replay it, the faults, the figures, the
 * verdict.
 */
record ChaosReport(
    ChaosOptions options,
    Duration ranFor,
    String loadBefore,
    String loadAfter,
    List<InjectedFault> faults,
    Map<FaultKind, FailoverLatencies.Figures> latencies,
    ChaosEvidence evidence,
    ChaosVerdict verdict) {

  /** The 1, 5 and 15 minute load averages of this machine, as /proc/loadavg says. */
  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  String format() {
    StringBuilder out = new StringBuilder();
    header(out);
    faults(out);
    runs(out);
    figures(out);
    checks(out);
    return out.toString();
  }

  private void header(StringBuilder out) {
    line(
        out,
        "baton chaos: seed %d, %d nodes, %s runs/s, workload %s (asked %s), etcd %d members,"
            + " private PostgreSQL, lease TTL %s",
        options.seed(),
        options.nodes(),
        options.rate(),
        seconds(ranFor),
        seconds(options.duration()),
        ChaosCluster.ETCD_MEMBERS,
        seconds(options.leaseTtl()));
    line(out, "replay: %s", options.command());
    line(
        out,
        "load average (1/5/15 min): %s before, %s after; %d cores",
        loadBefore,
        loadAfter,
        Runtime.getRuntime().availableProcessors());
  }

  private void faults(StringBuilder out) {
    line(out, "faults, in order:");
    for (InjectedFault fault : faults) {
      line(
          out,
          "  %-20s %-18s held %6s, every node ready %s after the strike",
          fault.planned().kind().label(),
          fault.planned().describe(),
          seconds(fault.planned().hold()),
          fault.untilReady() == null ? "NEVER" : seconds(fault.untilReady()));
    }
  }

  private void runs(StringBuilder out) {
    Map<Workload.Kind, Long> kinds =
        evidence.submissions().stream()
            .collect(Collectors.groupingBy(Workload.Submission::kind, Collectors.counting()));
    line(
        out,
        "runs: %d accepted %s; %d ledger requests; %d failed attempts journaled;"
            + " %d claims journaled",
        evidence.submissions().size(),
        kinds,
        evidence.sideEffects().size(),
        count(StepFailed.class),
        count(RunClaimed.class));
    line(
        out,
        "fenced-out writes: %d counted, %d logged, over %d node processes",
        evidence.fences().stream().mapToLong(f -> Math.max(0, f.counted())).sum(),
        evidence.fences().stream().mapToLong(ChaosEvidence.FenceCount::logged).sum(),
        evidence.fences().size());
  }

  private void figures(StringBuilder out) {
    line(
        out,
        "failover per fault kind (adoption: the struck node's runs claimed by others as"
            + " orphans or hand-offs, from the strike; stall: longest time without a step"
            + " completion in the cluster):");
    latencies.forEach(
        (kind, figures) ->
            line(
                out,
                "  %-20s %d× adoption n=%-4d p50 %-7s p99 %-7s | stall p50 %-7s p99 %-7s",
                kind.label(),
                figures.faults(),
                figures.adoptions().size(),
                quantile(figures.adoptions(), 0.5),
                quantile(figures.adoptions(), 0.99),
                quantile(figures.stalls(), 0.5),
                quantile(figures.stalls(), 0.99)));
  }

  private void checks(StringBuilder out) {
    line(
        out,
        "checks: runs with a wrong or no final status %d, step completions journaled twice"
            + " %d, side effects of no journaled attempt %d, fenced-out writes not counted %d,"
            + " harness findings %d",
        verdict.wrongStatus().size(),
        verdict.completedTwice().size(),
        verdict.unknownSideEffects().size(),
        verdict.uncountedFences().size() + verdict.unverifiedFences().size(),
        verdict.harnessFindings().size());
    List<String> violations = verdict.violations();
    violations.stream().limit(50).forEach(v -> line(out, "  VIOLATION %s", v));
    if (violations.size() > 50) {
      line(out, "  ... and %d more", violations.size() - 50);
    }
    wrongRunsJournals(out);
    line(
        out,
        "verdict: %s (seed %d)",
        verdict.clean() ? "CLEAN" : violations.size() + " VIOLATIONS",
        options.seed());
  }

  /** The journal of the first runs that ended wrong: the database is dropped when the run ends. */
  private void wrongRunsJournals(StringBuilder out) {
    evidence.submissions().stream()
        .filter(s -> evidence.statuses().get(s.runId()) != s.kind().expected)
        .limit(5)
        .forEach(
            s -> {
              line(out, "  journal of %s (%s):", s.runId(), s.kind());
              evidence.journal().stream()
                  .filter(e -> e.rootRunId().equals(s.runId()))
                  .forEach(e -> line(out, "    %d %s %s", e.seq(), e.timestamp(), e.event()));
            });
  }

  private long count(Class<?> type) {
    return evidence.journal().stream().filter(e -> type.isInstance(e.event())).count();
  }

  private static String quantile(List<Duration> durations, double q) {
    Duration value = FailoverLatencies.quantile(durations, q);
    return value == null ? "-" : seconds(value);
  }

  private static String seconds(Duration duration) {
    return duration.toMillis() < 10_000
        ? duration.toMillis() + "ms"
        : String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
  }

  private static void line(StringBuilder out, String format, Object... args) {
    out.append(String.format(Locale.ROOT, format, args)).append('\n');
  }
}

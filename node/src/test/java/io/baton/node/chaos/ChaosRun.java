package io.baton.node.chaos;

import io.baton.journal.JournalEntry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One chaos run from start to verdict: start the cluster and the ledger, run the workload while
 * faults strike in the seeded order (at least one full cycle of every kind, then more until the
 * duration is spent), stop submitting, wait (bounded) for every run to end, gather the evidence and
 * judge it.
 */
final class ChaosRun {
  private static final Logger log = LoggerFactory.getLogger(ChaosRun.class);
  private static final Duration WARM_UP = Duration.ofSeconds(5);

  private ChaosRun() {}

  /** The outcome: the report, and the evidence it was judged on (for planting tests). */
  record Outcome(ChaosReport report, ChaosEvidence evidence) {}

  static Outcome run(ChaosOptions options) throws Exception {
    String loadBefore = ChaosReport.loadAverage();
    Instant started = Instant.now();
    try (Ledger ledger = new Ledger(options.seed());
        ChaosCluster cluster = ChaosCluster.start(options);
        FenceWatch fences = new FenceWatch(cluster);
        Workload workload = new Workload(cluster, options, ledger.url())) {
      log.info("chaos: {} nodes ready after {}", options.nodes(), since(started));
      FaultInjector injector = new FaultInjector(cluster, fences);
      fences.start();
      workload.start();
      Instant workloadStarted = Instant.now();
      List<InjectedFault> faults = injectFaults(options, injector, workloadStarted);
      Duration ranFor = since(workloadStarted);
      workload.stopSubmitting();
      awaitTerminal(cluster, options.settleWithin());
      for (int i = 0; i < cluster.nodes(); i++) {
        fences.scrape(i);
      }
      List<String> findings = new ArrayList<>(injector.findings());
      findings.addAll(workload.refused().stream().map(r -> "no node took " + r).toList());
      ChaosEvidence evidence;
      try (Connection connection = cluster.connect()) {
        List<JournalEntry> journal = ChaosEvidence.readJournal(connection);
        evidence =
            new ChaosEvidence(
                workload.submissions(),
                ChaosEvidence.readStatuses(connection),
                journal,
                ledger.sideEffects(),
                fences.counts(),
                findings);
      }
      ChaosReport report =
          new ChaosReport(
              options,
              ranFor,
              loadBefore,
              ChaosReport.loadAverage(),
              faults,
              FailoverLatencies.of(faults, evidence.journal()),
              evidence,
              ChaosChecker.check(evidence));
      return new Outcome(report, evidence);
    }
  }

  private static List<InjectedFault> injectFaults(
      ChaosOptions options, FaultInjector injector, Instant workloadStarted) throws Exception {
    Thread.sleep(WARM_UP.toMillis());
    FaultSchedule schedule = new FaultSchedule(options);
    List<InjectedFault> faults = new ArrayList<>();
    while (true) {
      PlannedFault fault = schedule.next();
      boolean cycleDone = faults.size() >= FaultKind.values().length;
      if (cycleDone
          && since(workloadStarted).plus(fault.hold()).compareTo(options.duration()) > 0) {
        break;
      }
      faults.add(injector.inject(fault));
      Thread.sleep(fault.gapAfter().toMillis());
    }
    Duration left = options.duration().minus(since(workloadStarted));
    if (!left.isNegative()) {
      Thread.sleep(left.toMillis());
    }
    return faults;
  }

  /** Waits until no run is left unfinished, or the bound; the verdict names what is not done. */
  private static void awaitTerminal(ChaosCluster cluster, Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      try (Connection connection = cluster.connect();
          Statement statement = connection.createStatement();
          ResultSet rows =
              statement.executeQuery(
                  "SELECT count(*) FROM runs"
                      + " WHERE status NOT IN ('SUCCEEDED', 'FAILED', 'CANCELLED')")) {
        rows.next();
        if (rows.getLong(1) == 0) {
          return;
        }
      }
      Thread.sleep(1000);
    }
  }

  private static Duration since(Instant start) {
    return Duration.between(start, Instant.now());
  }
}

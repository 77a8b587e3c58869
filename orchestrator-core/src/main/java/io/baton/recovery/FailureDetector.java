package io.baton.recovery;

import com.codahale.metrics.Counter;
import io.baton.internal.Defect;
import io.baton.lease.ConnectionState;
import io.baton.lease.LeaseException;
import io.baton.lease.LeaseManager;
import io.baton.lease.LiveNodes;
import io.baton.lease.NodeInfo;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the lease of a node whose death is certain, so that its runs are adopted within about a
 * second instead of one lease TTL later.
 *
 * <p>Every {@code interval} it reads the live nodes and probes each other node that is not draining
 * ({@link NodeProbe}). A node found {@link NodeProbe.Verdict#GONE} is probed again {@code confirm}
 * later; gone twice, the incarnation it was listed with is revoked ({@link
 * LeaseManager#revokeDeadNode}): the watch pushes its runs as orphans and every claimer adopts
 * them. A timeout is never evidence, so a paused or partitioned node keeps its runs until its TTL.
 *
 * <p>Why a wrong verdict is safe: every journal append is fenced by the lease's token, so a live
 * node whose lease is revoked cannot commit another step of the runs it held; it sees the lease
 * LOST, stops them, and takes a fresh lease. A wrong verdict costs a needless hand-off, never a
 * double commit. Every revocation is logged with its evidence and counted in {@link
 * #DEAD_NODES_REVOKED}.
 *
 * <p>Passes never overlap: each schedules the next when it ends. Thread-safe; start once, {@link
 * #stop()} is idempotent.
 */
public final class FailureDetector {
  public static final String DEAD_NODES_REVOKED = "baton.recovery.dead_nodes_revoked";

  private static final Logger log = LoggerFactory.getLogger(FailureDetector.class);
  private static final Duration MAX_CONFIRM = Duration.ofMillis(100);

  private final LeaseManager leases;
  private final NodeProbe probe;
  private final Scheduler scheduler;
  private final Executor probing;
  private final Duration interval;
  private final Duration confirm;
  private final Counter revoked;
  private Scheduler.Cancellable next;
  private boolean running;

  /** A suspect: a node found gone once, with the incarnation it was listed with. */
  private record Suspect(NodeInfo node, long token) {}

  /**
   * @param probing where passes run: probes may block up to their timeout, so a real node gives
   *     them a thread of their own rather than the scheduler's
   */
  public FailureDetector(
      LeaseManager leases,
      NodeProbe probe,
      Scheduler scheduler,
      Executor probing,
      Duration interval,
      Counter revoked) {
    this.leases = leases;
    this.probe = probe;
    this.scheduler = scheduler;
    this.probing = probing;
    this.interval = interval;
    Duration half = interval.dividedBy(2);
    this.confirm = half.compareTo(MAX_CONFIRM) < 0 ? half : MAX_CONFIRM;
    this.revoked = revoked;
  }

  /** Whether this detector probes at all (a positive interval and a real probe). */
  public boolean enabled() {
    return !interval.isZero() && !interval.isNegative() && probe != NodeProbe.NONE;
  }

  public synchronized void start() {
    if (running || !enabled()) {
      return;
    }
    running = true;
    next = scheduler.schedule(interval, () -> probing.execute(this::pass));
  }

  public synchronized void stop() {
    running = false;
    if (next != null) {
      next.cancel();
      next = null;
    }
  }

  private synchronized void scheduleNext(Duration delay, Runnable task) {
    if (running) {
      next = scheduler.schedule(delay, () -> probing.execute(task));
    }
  }

  private synchronized boolean running() {
    return running;
  }

  private void pass() {
    List<Suspect> suspects = new ArrayList<>();
    try {
      if (running() && leases.state() == ConnectionState.CONNECTED) {
        suspects = probeAll(leases.liveNodes());
      }
    } catch (LeaseException | IllegalStateException unreachable) {
      log.debug(
          "node {}: failure detector pass skipped: {}", leases.nodeId(), unreachable.toString());
    } catch (RuntimeException failure) {
      log.warn("node {}: failure detector pass failed", leases.nodeId(), failure);
    }
    if (suspects.isEmpty()) {
      scheduleNext(interval, this::pass);
    } else {
      List<Suspect> found = suspects;
      scheduleNext(confirm, () -> confirm(found));
    }
  }

  private List<Suspect> probeAll(LiveNodes live) {
    List<Suspect> suspects = new ArrayList<>();
    for (NodeInfo node : live.nodes()) {
      OptionalLong token = live.tokenOf(node.nodeId());
      if (node.nodeId().equals(leases.nodeId())
          || node.draining()
          || node.address().isEmpty()
          || token.isEmpty()) {
        continue;
      }
      if (gone(node)) {
        suspects.add(new Suspect(node, token.getAsLong()));
      }
    }
    return suspects;
  }

  private void confirm(List<Suspect> suspects) {
    try {
      for (Suspect suspect : suspects) {
        if (running() && gone(suspect.node())) {
          revoke(suspect);
        }
      }
    } catch (LeaseException | IllegalStateException unreachable) {
      log.debug("node {}: could not revoke: {}", leases.nodeId(), unreachable.toString());
    } catch (RuntimeException failure) {
      log.warn("node {}: failure detector confirmation failed", leases.nodeId(), failure);
    }
    scheduleNext(interval, this::pass);
  }

  private boolean gone(NodeInfo node) {
    NodeProbe.Verdict verdict = probe.probe(node);
    return verdict == NodeProbe.Verdict.GONE
        || (verdict == NodeProbe.Verdict.UNKNOWN && Defect.UNKNOWN_IS_DEATH.isActive());
  }

  private void revoke(Suspect suspect) {
    NodeInfo node = suspect.node();
    if (leases.revokeDeadNode(node.nodeId(), suspect.token())) {
      revoked.inc();
      log.warn(
          "node {}: revoked the lease of node {} (incarnation {}): its address {} refused"
              + " connections twice, {} ms apart; its runs are adopted now",
          leases.nodeId(),
          node.nodeId(),
          suspect.token(),
          node.address(),
          confirm.toMillis());
    }
  }
}

package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.AppendRequest;
import io.baton.journal.ClaimReason;
import io.baton.journal.ErrorInfo;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalEvent;
import io.baton.journal.RunClaimed;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatus;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.RunWait;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Writes a run tree's journal through the fenced path, for store tests. Not thread-safe. */
public final class RunWriter {
  private final ExecutionJournal journal;
  private final UUID root;
  private long token;
  private Instant now;

  public RunWriter(ExecutionJournal journal, Instant start) {
    this(journal, UUID.randomUUID(), start);
  }

  public RunWriter(ExecutionJournal journal, UUID root, Instant start) {
    this.journal = journal;
    this.root = root;
    this.now = start;
  }

  public UUID root() {
    return root;
  }

  public Instant now() {
    return now;
  }

  public static JsonNode json(String key, Object value) {
    return JournalCodec.mapper()
        .createObjectNode()
        .set(key, JournalCodec.mapper().valueToTree(value));
  }

  /** Moves this writer's clock on: the next entry is stamped {@code pause} (and 3 ms) later. */
  public RunWriter after(Duration pause) {
    now = now.plus(pause);
    return this;
  }

  public RunWriter create(String flow, String idempotencyKey) {
    RunCreated created =
        new RunCreated(flow, "hash-" + flow, json("n", 1), null, null, idempotencyKey, null);
    return append(root, created);
  }

  /** A root created for an event: {@code trigger} is its CloudEvents envelope. */
  public RunWriter createFor(String flow, JsonNode trigger) {
    return append(
        root, new RunCreated(flow, "hash-" + flow, json("n", 1), null, null, null, trigger, null));
  }

  public RunWriter claim(String node, long newToken) {
    token = newToken;
    return append(root, new RunClaimed(node, newToken, null, ClaimReason.PENDING));
  }

  public RunWriter status(RunStatus from, RunStatus to) {
    return append(root, RunStatusChanged.to(from, to, from + " to " + to));
  }

  public RunWriter park(Instant wakeAt) {
    return append(
        root, new RunStatusChanged(RunStatus.RUNNING, RunStatus.WAITING, "parked", false, wakeAt));
  }

  /** Parks the RUNNING root, recording what it waits for. */
  public RunWriter park(Instant wakeAt, RunWait waiting) {
    return append(
        root,
        new RunStatusChanged(
            RunStatus.RUNNING, RunStatus.WAITING, "parked", false, wakeAt, waiting));
  }

  public RunWriter succeed(JsonNode output) {
    return append(root, RunCompleted.succeeded(output));
  }

  public RunWriter fail(String code, boolean recoverable) {
    return append(root, RunCompleted.failed(new ErrorInfo(code, code + " happened"), recoverable));
  }

  /** Creates a subflow run of {@code parent} in this tree and returns its id. */
  public UUID child(UUID parent, String flow) {
    UUID child = UUID.randomUUID();
    append(child, new RunCreated(flow, "hash-" + flow, json("c", 1), parent, "call", null, null));
    return child;
  }

  public RunWriter append(UUID runId, JournalEvent event) {
    now = now.plus(Duration.ofMillis(3));
    long seq = journal.latestSequence(root) + 1;
    journal.append(
        new AppendRequest(root, token, List.of(new JournalEntry(runId, root, seq, now, event))));
    return this;
  }

  /** A created, claimed, RUNNING root owned by {@code node}. */
  public RunWriter running(String flow, String node, long claimToken) {
    return create(flow, null).claim(node, claimToken).status(RunStatus.PENDING, RunStatus.RUNNING);
  }
}

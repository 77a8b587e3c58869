package io.baton.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Builds journal entries for tests: a writer for one root that numbers its entries itself. Not
 * thread-safe.
 */
public final class JournalFixtures {
  public static final Instant T0 = Instant.parse("2026-03-01T10:15:30.123456Z");

  private final UUID rootRunId;
  private long nextSeq = 1;
  private Instant clock = T0;

  public JournalFixtures(UUID rootRunId) {
    this.rootRunId = rootRunId;
  }

  public static JournalFixtures newRoot() {
    return new JournalFixtures(UUID.randomUUID());
  }

  public UUID root() {
    return rootRunId;
  }

  public long nextSeq() {
    return nextSeq;
  }

  /** Makes the next entries start at {@code seq} (for tests that build conflicting histories). */
  public JournalFixtures at(long seq) {
    this.nextSeq = seq;
    return this;
  }

  public static ObjectNode json(String key, Object value) {
    ObjectNode node = JournalCodec.mapper().createObjectNode();
    node.set(key, JournalCodec.mapper().valueToTree(value));
    return node;
  }

  public JournalEntry entry(UUID runId, JournalEvent event) {
    clock = clock.plusMillis(7);
    return new JournalEntry(runId, rootRunId, nextSeq++, clock, event);
  }

  public JournalEntry rootEntry(JournalEvent event) {
    return entry(rootRunId, event);
  }

  public JournalEntry created() {
    return rootEntry(RunCreated.root("flow-a", "hash-a", json("orderId", 42)));
  }

  public JournalEntry stepCompleted(String step, JsonNode output) {
    return rootEntry(new StepCompleted(step, 1, output, clock));
  }

  public JournalEntry claimed(String node, long token) {
    return rootEntry(new RunClaimed(node, token, null, ClaimReason.ORPHAN));
  }

  public JournalEntry completed() {
    return rootEntry(RunCompleted.succeeded(json("done", true)));
  }

  /** A request creating the root under {@code token}. */
  public AppendRequest create(long token) {
    return new AppendRequest(rootRunId, token, List.of(created()));
  }

  /** A request creating the root and claiming it for {@code node} under {@code token}. */
  public AppendRequest createClaimed(String node, long token) {
    return new AppendRequest(rootRunId, token, List.of(created(), claimed(node, token)));
  }

  public AppendRequest claim(String node, long token) {
    return new AppendRequest(rootRunId, token, List.of(claimed(node, token)));
  }

  /** A request with {@code count} step completions under {@code token}. */
  public AppendRequest steps(long token, int count) {
    List<JournalEntry> entries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      entries.add(stepCompleted("step-" + nextSeq, json("n", (int) nextSeq)));
    }
    return new AppendRequest(rootRunId, token, entries);
  }

  public AppendRequest of(long token, JournalEntry... entries) {
    return new AppendRequest(rootRunId, token, List.of(entries));
  }
}

package io.baton.engine;

import io.baton.journal.AppendRequest;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One tree's way into the journal: the events decided but not yet submitted, the one append in
 * flight, and the signals those appends answer. At most one append per tree is in flight, so the
 * tree's journal sequence is numbered here and nowhere else in the engine.
 *
 * <p>A state machine: {@code IDLE} (nothing submitted) → {@code IN_FLIGHT} (one append submitted) →
 * {@code IDLE} when it is acknowledged, or → {@code RETRYING} when the store failed, and back to
 * {@code IN_FLIGHT} when it is submitted again; any state → {@code RETIRED} when the tree leaves
 * the node, after which nothing is submitted. Each transition is one method; a call that does not
 * fit the current state is refused (returns null or false) rather than corrupting it. Confined to
 * the engine's loop.
 */
final class TreeAppends {
  enum State {
    IDLE,
    IN_FLIGHT,
    RETRYING,
    RETIRED
  }

  private final UUID rootId;
  private final long token;
  private State state = State.IDLE;

  /** Decided, not yet submitted. */
  private final List<PendingEvent> buffer = new ArrayList<>();

  /** Submitted, not yet acknowledged (empty unless IN_FLIGHT or RETRYING). */
  private List<PendingEvent> inFlight = List.of();

  private AppendRequest request;
  private int failures;

  /** Signals answered (applied or found stale) by decided events, deleted once journaled. */
  private final List<Long> answered = new ArrayList<>();

  private List<Long> answeredInFlight = List.of();

  TreeAppends(UUID rootId, long token) {
    this.rootId = rootId;
    this.token = token;
  }

  State state() {
    return state;
  }

  /** Decides an event: it joins the tree's next append. */
  void add(PendingEvent event) {
    buffer.add(event);
  }

  /** A signal the decided events answer: deleted once they are journaled. */
  void answered(long signalId) {
    answered.add(signalId);
  }

  boolean answers(long signalId) {
    return answered.contains(signalId) || answeredInFlight.contains(signalId);
  }

  /** Decided events, oldest first, not yet submitted. */
  List<PendingEvent> buffered() {
    return buffer;
  }

  /** Submitted events not yet acknowledged. */
  List<PendingEvent> inFlight() {
    return inFlight;
  }

  /** Nothing decided and nothing submitted. */
  boolean empty() {
    return buffer.isEmpty() && state != State.IN_FLIGHT && state != State.RETRYING;
  }

  boolean submitted() {
    return state == State.IN_FLIGHT || state == State.RETRYING;
  }

  /**
   * IDLE → IN_FLIGHT: numbers the buffered events after {@code lastSeq} and returns the append to
   * submit; null when there is nothing to submit or an append is already out.
   */
  AppendRequest submit(long lastSeq, Instant now) {
    if (state != State.IDLE || buffer.isEmpty()) {
      return null;
    }
    request = new AppendRequest(rootId, token, number(rootId, lastSeq, now, buffer));
    inFlight = List.copyOf(buffer);
    buffer.clear();
    answeredInFlight = List.copyOf(answered);
    answered.clear();
    state = State.IN_FLIGHT;
    return request;
  }

  /** Whether {@code request} is the append this tree waits for (not one it gave up on). */
  @SuppressWarnings("ReferenceEquality") // this very request: an equal one sent again is another
  boolean awaits(AppendRequest request) {
    return state == State.IN_FLIGHT && this.request == request;
  }

  /** IN_FLIGHT → RETRYING: the store failed; returns how many times in a row it did. */
  int failed() {
    if (state != State.IN_FLIGHT) {
      return failures;
    }
    state = State.RETRYING;
    return ++failures;
  }

  /** RETRYING → IN_FLIGHT: returns the same append to submit again, or null when retired. */
  AppendRequest resubmit() {
    if (state != State.RETRYING) {
      return null;
    }
    state = State.IN_FLIGHT;
    return request;
  }

  /**
   * IN_FLIGHT → IDLE: the append is durable. Returns what was in it; the signals it answered are in
   * {@link #takeAnsweredInFlight()}.
   */
  List<PendingEvent> acknowledged() {
    List<PendingEvent> done = inFlight;
    inFlight = List.of();
    request = null;
    failures = 0;
    state = State.IDLE;
    return done;
  }

  /** The signals the acknowledged append answered, handed over once. */
  List<Long> takeAnsweredInFlight() {
    List<Long> done = answeredInFlight;
    answeredInFlight = List.of();
    return done;
  }

  /** The answered signals not yet submitted, handed over once (to be deleted without an append). */
  List<Long> takeAnswered() {
    List<Long> stale = List.copyOf(answered);
    answered.clear();
    return stale;
  }

  /** Any state → RETIRED; returns whether the tree was not retired before. */
  boolean retire() {
    if (state == State.RETIRED) {
      return false;
    }
    state = State.RETIRED;
    return true;
  }

  boolean retired() {
    return state == State.RETIRED;
  }

  int failures() {
    return failures;
  }

  /**
   * The journal entries of events decided on a tree whose journal ends at {@code lastSeq}: one
   * timestamp, consecutive sequence numbers. Every append of a known tree is numbered here.
   */
  static List<JournalEntry> number(
      UUID rootId, long lastSeq, Instant now, List<? extends Decided> events) {
    List<JournalEntry> entries = new ArrayList<>(events.size());
    long seq = lastSeq;
    for (Decided decided : events) {
      entries.add(new JournalEntry(decided.runId(), rootId, ++seq, now, decided.event()));
    }
    return entries;
  }

  /** An event decided for a run of the tree. */
  interface Decided {
    UUID runId();

    JournalEvent event();
  }
}

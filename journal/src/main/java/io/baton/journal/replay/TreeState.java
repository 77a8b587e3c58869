package io.baton.journal.replay;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;

/**
 * The replayed state of a run tree: the root run, its subflows and its ownership history, as of
 * {@link #lastSeq()}. Built only by folding journal entries ({@link #apply}), so the same entries
 * always give the same state. Not thread-safe: one owner mutates it.
 */
@JsonAutoDetect(fieldVisibility = Visibility.ANY, getterVisibility = Visibility.NONE)
public final class TreeState {
  UUID rootRunId;
  long lastSeq;
  String owner;
  long token;
  LinkedHashMap<UUID, RunState> runs = new LinkedHashMap<>();
  ArrayList<ClaimRecord> claims = new ArrayList<>();

  /** The seq of the checkpoint this state was restored from; not part of a snapshot. */
  @JsonIgnore long checkpointSeq;

  TreeState() {}

  public TreeState(UUID rootRunId) {
    this.rootRunId = rootRunId;
  }

  /** Restores a state saved with {@link #toSnapshot()}. */
  public static TreeState fromSnapshot(JsonNode snapshot) {
    return JournalCodec.fromTree(snapshot, TreeState.class);
  }

  public JsonNode toSnapshot() {
    return JournalCodec.toTree(this);
  }

  /** A deep copy, independent of this state. */
  public TreeState copy() {
    return fromSnapshot(toSnapshot());
  }

  /**
   * Folds the next entry into the state.
   *
   * @throws JournalException the entry belongs to another root or does not follow {@link
   *     #lastSeq()} (a gap or a repeat)
   */
  public TreeState apply(JournalEntry entry) {
    if (!entry.rootRunId().equals(rootRunId)) {
      throw new JournalException(
          "entry of root " + entry.rootRunId() + " replayed into root " + rootRunId, rootRunId);
    }
    if (entry.seq() != lastSeq + 1) {
      throw new JournalException(
          "journal of root " + rootRunId + " jumps from seq " + lastSeq + " to " + entry.seq(),
          rootRunId);
    }
    EntryFolder.fold(this, entry);
    lastSeq = entry.seq();
    return this;
  }

  public UUID rootRunId() {
    return rootRunId;
  }

  /** The sequence of the last entry folded in, 0 for an empty tree. */
  public long lastSeq() {
    return lastSeq;
  }

  /**
   * The seq of the checkpoint this state was replayed from, 0 when it was folded from the first
   * entry (see {@link Replay}).
   */
  public long checkpointSeq() {
    return checkpointSeq;
  }

  /** The node of the latest claim, or null if the tree was never claimed. */
  public String owner() {
    return owner;
  }

  /** The token of the latest claim, 0 if none. */
  public long token() {
    return token;
  }

  /** The root run, or null before its RunCreated was folded. */
  public RunState root() {
    return runs.get(rootRunId);
  }

  public RunState run(UUID runId) {
    return runs.get(runId);
  }

  /** Every run of the tree, the root first, then subflows in order of creation. */
  public Collection<RunState> runs() {
    return Collections.unmodifiableCollection(runs.values());
  }

  /** Every claim, oldest first. */
  public List<ClaimRecord> claims() {
    return Collections.unmodifiableList(claims);
  }
}

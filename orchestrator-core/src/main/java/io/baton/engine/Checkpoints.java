package io.baton.engine;

import io.baton.journal.Checkpoint;
import io.baton.journal.FencedOutException;
import io.baton.journal.JournalEntry;
import io.baton.time.Futures;
import io.baton.time.Scheduler;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes checkpoints of the trees this node owns: once {@code everyEntries} entries or about {@code
 * everyBytes} bytes were journaled since the tree's last checkpoint, and when the tree parks. A
 * checkpoint is the tree's acknowledged state (what replay of its journal gives) as of its last
 * journaled seq, taken on the loop and written off it, fenced by the tree's token like an append.
 * It is never on an append's path: a tree's appends go on while its checkpoint is written, and one
 * that fails (the store is down, the tree was fenced out) is simply written again at the next
 * trigger. At most one checkpoint per tree is in flight. Confined to the engine's loop.
 */
final class Checkpoints {
  private static final Logger log = LoggerFactory.getLogger(Checkpoints.class);

  private final EngineIo io;
  private final Scheduler scheduler;
  private final TreeLoop loop;
  private final int everyEntries;
  private final long everyBytes;

  Checkpoints(EngineIo io, Scheduler scheduler, TreeLoop loop, int everyEntries, long everyBytes) {
    this.io = io;
    this.scheduler = scheduler;
    this.loop = loop;
    this.everyEntries = everyEntries;
    this.everyBytes = everyBytes;
  }

  /** The entries were journaled and folded into the tree's state: checkpoints it when due. */
  void journaled(ActiveTree tree, List<JournalEntry> entries) {
    for (JournalEntry entry : entries) {
      tree.bytesSinceCheckpoint += EntrySize.of(entry.event());
    }
    if (tree.state.lastSeq() - tree.checkpointedSeq >= everyEntries
        || tree.bytesSinceCheckpoint >= everyBytes) {
      write(tree);
    }
  }

  /** The tree parks: its next owner starts from a checkpoint of all of it. */
  void parked(ActiveTree tree) {
    if (tree.state.lastSeq() > tree.checkpointedSeq) {
      write(tree);
    }
  }

  private void write(ActiveTree tree) {
    if (tree.checkpointing) {
      return;
    }
    long seq = tree.state.lastSeq();
    Checkpoint checkpoint = new Checkpoint(seq, tree.state.toSnapshot(), scheduler.now());
    long bytes = tree.bytesSinceCheckpoint;
    tree.checkpointing = true;
    Futures.whenComplete(
        io.checkpoint(tree.rootId, tree.token, checkpoint),
        (done, failure) -> loop.execute(() -> written(tree, seq, bytes, failure)));
  }

  private void written(ActiveTree tree, long seq, long bytes, Throwable failure) {
    tree.checkpointing = false;
    if (failure != null) {
      Throwable cause =
          failure instanceof CompletionException && failure.getCause() != null
              ? failure.getCause()
              : failure;
      if (cause instanceof FencedOutException) {
        log.debug("checkpoint of run {} at seq {} fenced out", tree.rootId, seq);
      } else {
        log.warn(
            "could not write the checkpoint of run {} at seq {} (written again at the next"
                + " trigger): {}",
            tree.rootId,
            seq,
            cause.toString());
      }
      return;
    }
    if (seq > tree.checkpointedSeq) {
      tree.checkpointedSeq = seq;
      tree.bytesSinceCheckpoint = Math.max(0, tree.bytesSinceCheckpoint - bytes);
    }
  }
}

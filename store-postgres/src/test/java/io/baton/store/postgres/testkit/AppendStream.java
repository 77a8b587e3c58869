package io.baton.store.postgres.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.baton.journal.AppendRequest;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.GroupCommitter;
import io.baton.journal.JournalCodec;
import io.baton.journal.JournalEntry;
import io.baton.journal.JournalFixtures;
import io.baton.store.StoreUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writers that append step completions to their own run trees until told to stop, each waiting for
 * its append to be acknowledged before it writes the next, resubmitting the same request when an
 * append fails (safe: appends are idempotent). What each writer got acknowledged is kept, to
 * compare with what the journal holds afterwards. For fault tests.
 */
public final class AppendStream implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AppendStream.class);

  private final List<Writer> writers = new ArrayList<>();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final AtomicInteger acknowledged = new AtomicInteger();
  private final AtomicInteger failedAttempts = new AtomicInteger();
  private final AtomicReference<Throwable> unexpected = new AtomicReference<>();

  /** How one writer sends its appends. */
  public interface Sender {
    void send(AppendRequest request) throws Exception;

    static Sender direct(ExecutionJournal journal) {
      return journal::append;
    }

    static Sender grouped(GroupCommitter committer) {
      return request -> {
        try {
          committer.submit(request).get().throwIfFailed();
        } catch (ExecutionException e) {
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
      };
    }
  }

  /** Creates a root per sender (under token 1) and starts one writer thread for each. */
  public AppendStream(ExecutionJournal journal, List<Sender> senders) {
    for (int i = 0; i < senders.size(); i++) {
      JournalFixtures root = JournalFixtures.newRoot();
      AppendRequest create = root.createClaimed("node-" + i, 1);
      journal.append(create);
      Writer writer = new Writer(root, senders.get(i));
      writer.done.addAll(create.entries());
      writers.add(writer);
      writer.thread = new Thread(writer::run, "append-stream-" + i);
    }
    writers.forEach(w -> w.thread.start());
  }

  /** Appends acknowledged so far, over all writers. */
  public int acknowledged() {
    return acknowledged.get();
  }

  /** Attempts that failed and were resubmitted. */
  public int failedAttempts() {
    return failedAttempts.get();
  }

  /** Stops the writers after their current append and waits for them. */
  public void stop() throws InterruptedException {
    stopped.set(true);
    for (Writer writer : writers) {
      writer.thread.join(120_000);
      if (writer.thread.isAlive()) {
        throw new IllegalStateException(writer.thread.getName() + " did not stop");
      }
    }
    if (unexpected.get() != null) {
      throw new IllegalStateException("a writer failed unexpectedly", unexpected.get());
    }
  }

  /** Each root and the entries its writer got acknowledged, in order (after {@link #stop()}). */
  public List<Acknowledged> acknowledgedByRoot() {
    return writers.stream().map(w -> new Acknowledged(w.root.root(), List.copyOf(w.done))).toList();
  }

  /** One root's acknowledged entries, the creating ones included. */
  public record Acknowledged(UUID root, List<JournalEntry> entries) {}

  @Override
  public void close() throws InterruptedException {
    if (!stopped.get()) {
      stop();
    }
  }

  /** An entry as comparable JSON (number classes do not survive a JSON round trip). */
  public static List<Object> asJson(JournalEntry entry) {
    try {
      return List.of(
          entry.runId(),
          entry.rootRunId(),
          entry.seq(),
          entry.timestamp(),
          JournalCodec.mapper().readTree(JournalCodec.encode(entry.event())));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private final class Writer {
    final JournalFixtures root;
    final Sender sender;
    final List<JournalEntry> done = new ArrayList<>();
    Thread thread;

    Writer(JournalFixtures root, Sender sender) {
      this.root = root;
      this.sender = sender;
    }

    void run() {
      try {
        while (!stopped.get()) {
          AppendRequest request = root.steps(1, 1);
          sendUntilAcknowledged(request);
          done.addAll(request.entries());
          acknowledged.incrementAndGet();
        }
      } catch (Throwable e) {
        unexpected.compareAndSet(null, e);
      }
    }

    private void sendUntilAcknowledged(AppendRequest request) throws Exception {
      while (true) {
        try {
          sender.send(request);
          return;
        } catch (StoreUnavailableException | CompletionException e) {
          failedAttempts.incrementAndGet();
          log.info("append to {} failed, resubmitting: {}", request.rootRunId(), e.toString());
        }
      }
    }
  }
}

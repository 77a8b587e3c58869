package io.baton.engine;

import io.baton.store.SignalInbox;
import io.baton.time.Futures;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Signals the node's trees answered: applied (their effect is journaled) or found stale. Each
 * answered signal is deleted from the inbox, and a client waiting for it on this node hears at once
 * instead of polling the store. Thread-safe.
 */
final class SignalReceipts {
  private final EngineIo io;
  private final SignalInbox signalInbox;
  private final Map<Long, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();

  SignalReceipts(EngineIo io, SignalInbox signalInbox) {
    this.io = io;
    this.signalInbox = signalInbox;
  }

  /**
   * Completes when a tree on this node answers the signal. It never completes for a signal another
   * node answers: callers bound the wait and fall back to the store. Call {@link #forget} after.
   */
  CompletableFuture<Void> await(long signalId) {
    return waiting.computeIfAbsent(signalId, id -> new CompletableFuture<>());
  }

  void forget(long signalId) {
    waiting.remove(signalId);
  }

  /**
   * The signals are answered: their inbox rows are deleted, and clients waiting for them hear once
   * the delete is done (whether or not it succeeded: the answer is journaled either way, and a row
   * left behind is deleted again as stale).
   */
  void answered(String why, Collection<Long> signalIds) {
    if (signalIds.isEmpty()) {
      return;
    }
    List<Long> done = List.copyOf(signalIds);
    Futures.whenComplete(
        io.call(
            why,
            () -> {
              signalInbox.deleteSignals(done);
              return null;
            }),
        (ignored, failure) -> {
          for (Long id : done) {
            CompletableFuture<Void> waiter = waiting.remove(id);
            if (waiter != null) {
              waiter.complete(null);
            }
          }
        });
  }
}

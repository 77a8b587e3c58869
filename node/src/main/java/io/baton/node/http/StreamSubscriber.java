package io.baton.node.http;

import io.baton.engine.RunEvent;
import io.baton.time.SerialExecutor;
import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of the event stream. Writes happen in order on a sender thread, never on the engine's
 * thread; a client that falls more than {@link #MAX_PENDING} messages behind is disconnected rather
 * than buffered without bound. Once {@link #close()} is called nothing more is written: messages
 * still queued are dropped, so closing takes one write, not up to {@link #MAX_PENDING}.
 * Thread-safe.
 */
final class StreamSubscriber {
  static final int MAX_PENDING = 1_000;
  static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
  private static final Logger log = LoggerFactory.getLogger(StreamSubscriber.class);

  private final SseClient client;
  private final Predicate<RunEvent> filter;
  private final Executor sender;
  private final AtomicInteger pending = new AtomicInteger();
  private volatile boolean closed;

  StreamSubscriber(SseClient client, Predicate<RunEvent> filter, Executor senders) {
    this.client = client;
    this.filter = filter;
    this.sender = new SerialExecutor(senders);
  }

  void offer(RunEvent event, StreamMessage message) {
    if (filter.test(event)) {
      send(() -> client.sendEvent(message.name(), message.data()));
    }
  }

  /** A named event with an id (null for none) and data, whatever the filter. */
  void event(String name, String id, String data) {
    send(
        () -> {
          if (id == null) {
            client.sendEvent(name, data);
          } else {
            client.sendEvent(name, data, id);
          }
        });
  }

  void comment(String text) {
    send(() -> client.sendComment(text));
  }

  private void send(Runnable write) {
    if (closed) {
      return;
    }
    if (pending.incrementAndGet() > MAX_PENDING) {
      pending.decrementAndGet();
      log.warn("event stream client {} is too slow; disconnecting it", client.ctx().ip());
      close();
      return;
    }
    try {
      sender.execute(
          () -> {
            try {
              if (!closed && !client.terminated()) {
                write.run();
              }
            } finally {
              pending.decrementAndGet();
            }
          });
    } catch (RejectedExecutionException closing) {
      pending.decrementAndGet(); // the API is shutting down; the client is being closed
    }
  }

  /**
   * Ends the client's response on the sender thread, after the write in progress. The request's
   * last handlers run when it ends, so a server must let its senders finish this before it stops.
   */
  void close() {
    closed = true;
    try {
      sender.execute(client::close);
    } catch (RejectedExecutionException closing) {
      client.close();
    }
  }

  /**
   * Shuts the senders down once the closes queued on them ran, waiting up to {@link #CLOSE_WAIT}: a
   * client's response must end while the HTTP server still holds its request (ending it after the
   * server stopped runs the request's handlers on a recycled request, which fails in Javalin and
   * logs for every client).
   */
  static void finish(ExecutorService senders) {
    senders.shutdown();
    try {
      if (!senders.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("event stream clients still sending after {}; stopping anyway", CLOSE_WAIT);
      }
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

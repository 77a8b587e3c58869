package io.baton.node.http;

import io.baton.engine.RunEvent;
import io.baton.time.SerialExecutor;
import io.javalin.http.sse.SseClient;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of the event stream. Writes happen in order on a sender thread, never on the engine's
 * thread; a client that falls more than {@link #MAX_PENDING} messages behind is disconnected rather
 * than buffered without bound. Thread-safe.
 */
final class StreamSubscriber {
  static final int MAX_PENDING = 1_000;
  private static final Logger log = LoggerFactory.getLogger(StreamSubscriber.class);

  private final SseClient client;
  private final Predicate<RunEvent> filter;
  private final Executor sender;
  private final AtomicInteger pending = new AtomicInteger();

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
              if (!client.terminated()) {
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

  void close() {
    try {
      sender.execute(client::close);
    } catch (RejectedExecutionException closing) {
      client.close();
    }
  }
}

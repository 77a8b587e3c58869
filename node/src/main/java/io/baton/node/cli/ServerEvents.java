package io.baton.node.cli;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A stream of server-sent events being received ({@code text/event-stream}: {@code event:}, {@code
 * id:} and {@code data:} fields up to a blank line; a line starting with a colon is a comment). The
 * HTTP client pushes lines in as they arrive; {@link #next} takes the next event, comment or the
 * stream's end, waiting at most a given time, so a reader can do other work while the server is
 * quiet. {@link #close} ends the connection. Lines arrive on the client's thread, one at a time;
 * {@link #next} is for one reader thread.
 */
final class ServerEvents implements Flow.Subscriber<String>, AutoCloseable {
  /** What {@link #next} took. */
  enum Kind {
    EVENT,
    COMMENT,
    /** The server ended the stream, or the connection broke. */
    END
  }

  /**
   * One event ({@code name}, {@code id} or null, {@code data}), a comment (its text) or the end.
   */
  record ServerEvent(Kind kind, String name, String id, String data) {
    static final ServerEvent END = new ServerEvent(Kind.END, null, null, null);

    static ServerEvent comment(String text) {
      return new ServerEvent(Kind.COMMENT, null, null, text);
    }
  }

  private static final String DEFAULT_NAME = "message";

  private final BlockingQueue<ServerEvent> received = new LinkedBlockingQueue<>();
  private final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
  private volatile boolean closed;
  // The event being read: touched only by the thread that delivers lines (one at a time).
  private String name = DEFAULT_NAME;
  private String id;
  private StringBuilder data;

  @Override
  public void onSubscribe(Flow.Subscription given) {
    subscription.set(given);
    if (closed) {
      given.cancel();
    } else {
      given.request(Long.MAX_VALUE);
    }
  }

  @Override
  public void onNext(String line) {
    if (line.isEmpty()) {
      if (data != null) {
        received.add(new ServerEvent(Kind.EVENT, name, id, data.toString()));
      }
      name = DEFAULT_NAME;
      id = null;
      data = null;
      return;
    }
    if (line.startsWith(":")) {
      if (data == null && id == null && DEFAULT_NAME.equals(name)) {
        received.add(ServerEvent.comment(line.substring(1).strip()));
      }
      return; // a comment inside an event does not end it
    }
    int colon = line.indexOf(':');
    String field = colon < 0 ? line : line.substring(0, colon);
    String value = colon < 0 ? "" : line.substring(colon + 1);
    value = value.startsWith(" ") ? value.substring(1) : value;
    switch (field) {
      case "event" -> name = value;
      case "id" -> id = value;
      case "data" ->
          data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
      default -> {
        // retry and unknown fields: nothing to do for this client
      }
    }
  }

  @Override
  public void onError(Throwable failure) {
    received.add(ServerEvent.END);
  }

  @Override
  public void onComplete() {
    received.add(ServerEvent.END);
  }

  /** The next event, comment or {@link ServerEvent#END}; null if none came within {@code wait}. */
  ServerEvent next(Duration wait) {
    try {
      return received.poll(Math.max(0, wait.toNanos()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommandFailedException(ExitCodes.ERROR, "Interrupted");
    }
  }

  @Override
  public void close() {
    closed = true;
    Flow.Subscription given = subscription.get();
    if (given != null) {
      given.cancel();
    }
  }
}

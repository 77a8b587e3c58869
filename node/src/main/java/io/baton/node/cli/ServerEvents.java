package io.baton.node.cli;

import java.util.Iterator;
import java.util.stream.Stream;

/**
 * A stream of server-sent events being read, one event or comment per {@link #next} (the {@code
 * text/event-stream} format: {@code event:}, {@code id:} and {@code data:} fields up to a blank
 * line; lines starting with a colon are comments). Blocks while the server sends nothing; {@link
 * #close} ends the connection. Not thread-safe.
 */
final class ServerEvents implements AutoCloseable {
  /** One event ({@code name}, {@code id} or null, {@code data}); a comment has a null name. */
  record ServerEvent(String name, String id, String data) {
    static ServerEvent comment(String text) {
      return new ServerEvent(null, null, text);
    }

    boolean isComment() {
      return name == null;
    }
  }

  private static final String DEFAULT_NAME = "message";

  private final Stream<String> lines;
  private final Iterator<String> reader;

  ServerEvents(Stream<String> lines) {
    this.lines = lines;
    this.reader = lines.iterator();
  }

  /** The next event or comment; null once the server closed the stream. */
  ServerEvent next() {
    String name = DEFAULT_NAME;
    String id = null;
    StringBuilder data = null;
    while (reader.hasNext()) {
      String line = reader.next();
      if (line.isEmpty()) {
        if (data != null) {
          return new ServerEvent(name, id, data.toString());
        }
        continue;
      }
      if (line.startsWith(":")) {
        if (data == null && id == null && DEFAULT_NAME.equals(name)) {
          return ServerEvent.comment(line.substring(1).strip());
        }
        continue; // a comment inside an event does not end it
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
    return null;
  }

  @Override
  public void close() {
    lines.close();
  }
}

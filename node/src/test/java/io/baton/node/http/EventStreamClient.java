package io.baton.node.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/** Reads {@code /api/stream} as a browser's EventSource would, line by line, in the background. */
final class EventStreamClient implements AutoCloseable {
  /** One server-sent event. */
  record Event(String name, JsonNode data, String id) {
    Event(String name, JsonNode data) {
      this(name, data, null);
    }
  }

  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Flow.Subscription> subscription = new CompletableFuture<>();
  private final CompletableFuture<Integer> status = new CompletableFuture<>();

  EventStreamClient(ApiCalls calls, String path) {
    this(calls, path, null);
  }

  /**
   * A client that resumes after {@code lastEventId} (sent as {@code Last-Event-ID}) if not null.
   */
  EventStreamClient(ApiCalls calls, String path, String lastEventId) {
    HttpRequest.Builder builder =
        calls.streamRequest(path).header("Accept", StreamRoutes.EVENT_STREAM).GET();
    if (lastEventId != null) {
      builder.header("Last-Event-ID", lastEventId);
    }
    HttpRequest request = builder.build();
    calls
        .client()
        .sendAsync(
            request,
            info -> {
              status.complete(info.statusCode());
              return HttpResponse.BodySubscribers.fromLineSubscriber(new Lines());
            })
        .whenComplete((response, failure) -> status.complete(-1));
  }

  /** The response status, once the headers arrived (the body streams on). */
  int status() {
    return status.orTimeout(ApiTestBase.TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
  }

  boolean sawComment(String text) {
    return lines.contains(": " + text);
  }

  List<Event> events() {
    List<Event> events = new ArrayList<>();
    String name = null;
    String id = null;
    for (String line : List.copyOf(lines)) {
      if (line.startsWith("event: ")) {
        name = line.substring("event: ".length());
      } else if (line.startsWith("id: ")) {
        id = line.substring("id: ".length());
      } else if (line.startsWith("data: ") && name != null) {
        events.add(new Event(name, parse(line.substring("data: ".length())), id));
        name = null;
        id = null;
      }
    }
    return events;
  }

  private static JsonNode parse(String data) {
    try {
      return Json.MAPPER.readTree(data);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("event data is not JSON: " + data, e);
    }
  }

  List<Event> events(String name) {
    return events().stream().filter(e -> e.name().equals(name)).toList();
  }

  @Override
  public void close() {
    subscription.thenAccept(Flow.Subscription::cancel);
  }

  private final class Lines implements Flow.Subscriber<String> {
    @Override
    public void onSubscribe(Flow.Subscription given) {
      subscription.complete(given);
      given.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(String line) {
      lines.add(line);
    }

    @Override
    public void onError(Throwable failure) {}

    @Override
    public void onComplete() {}
  }
}

package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * An HTTP API that stops while clients still stream from it ends their responses before the server
 * goes, quietly: ending them after the server stopped ran the requests' last handlers on recycled
 * requests, and each failed with a warning and a stack trace, for every client (the node suite's
 * output held tens of thousands of such lines, one flood per stopped node).
 */
public class StreamShutdownTest extends ApiTestBase {
  private static final int CLIENTS = 12;
  private static final int BURST = 100;

  @Test
  void stopping_with_clients_streaming_ends_their_responses_without_warnings() {
    String quick = "shutdown-quick";
    applyFlow(TestFlows.quick(quick));
    HttpApi api =
        HttpApi.builder()
            .node(node.node())
            .metrics(node.metrics())
            .readiness(node.readiness())
            .settings(HttpSettings.defaults().withPort(0))
            .clock(node.scheduler().clock())
            .start();
    ApiCalls calls = new ApiCalls(api.uri());
    List<EventStreamClient> clients = new ArrayList<>();
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logged = new ListAppender<>();
    try {
      for (int i = 0; i < CLIENTS; i++) {
        clients.add(
            new EventStreamClient(calls, i % 2 == 0 ? "/api/v1/stream/runs" : "/api/v1/stream"));
      }
      await()
          .atMost(TIMEOUT)
          .until(() -> clients.stream().allMatch(c -> c.sawComment("connected")));
      for (int i = 0; i < 5; i++) {
        awaitStatus(submit(quick), "SUCCEEDED");
      }
      await().atMost(TIMEOUT).until(() -> clients.stream().allMatch(c -> !c.events().isEmpty()));

      logged.start();
      root.addAppender(logged);
      // Half the clients leave first (a closed tab), the rest are still there when the API stops.
      for (int i = 0; i < CLIENTS / 2; i++) {
        clients.get(i).close();
      }
      // Runs keep changing (submitted through the node's other API) while this API stops, so
      // messages are queued for its clients: the old close let them be written first and ended
      // the responses after them, once the server had gone.
      EventStreamClient watched = clients.get(CLIENTS - 1);
      int seen = watched.events().size();
      AtomicBoolean stopped = new AtomicBoolean();
      CompletableFuture<Void> load =
          CompletableFuture.runAsync(
              () -> {
                while (!stopped.get()) {
                  submit(quick);
                }
              });
      await().atMost(TIMEOUT).until(() -> watched.events().size() >= seen + BURST);
      api.close();
      stopped.set(true);
      load.join();
      // The failures came from sender threads after close() returned: watch for a while.
      await()
          .during(Duration.ofMillis(500))
          .atMost(TIMEOUT)
          .untilAsserted(() -> assertThat(warnings(logged)).isEmpty());
    } finally {
      root.detachAppender(logged);
      clients.forEach(EventStreamClient::close);
      api.close();
    }
  }

  private static List<String> warnings(ListAppender<ILoggingEvent> logged) {
    synchronized (logged) { // AppenderBase appends under the appender's lock
      return logged.list.stream()
          .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
          .map(e -> e.getLoggerName() + " [" + e.getThreadName() + "] " + e.getMessage())
          .toList();
    }
  }
}

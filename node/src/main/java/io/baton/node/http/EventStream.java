package io.baton.node.http;

import io.baton.engine.Engine;
import io.baton.engine.RunEvent;
import io.baton.engine.RunEventListener;
import io.baton.time.NamedThreads;
import io.javalin.http.sse.SseClient;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Fans the engine's run events out to the clients of {@code /api/stream}. The engine calls {@link
 * #onEvent} on its own thread, so this only hands each message to the subscribers' sender threads.
 * A comment goes to every client each heartbeat, which keeps idle connections open and finds
 * clients that went away; a client is unsubscribed as soon as its connection closes.
 */
final class EventStream implements RunEventListener, AutoCloseable {
  private final Engine engine;
  private final Set<StreamSubscriber> subscribers = ConcurrentHashMap.newKeySet();
  private final ExecutorService senders =
      Executors.newCachedThreadPool(NamedThreads.factory("http-stream"));
  private final ScheduledExecutorService heartbeat =
      Executors.newSingleThreadScheduledExecutor(NamedThreads.factory("http-stream-heartbeat"));

  // The heartbeat's future is not kept: guarded() logs each failed beat, and close() stops the
  // beats by shutting their executor down.
  @SuppressWarnings("FutureReturnValueIgnored")
  EventStream(Engine engine, Duration heartbeatInterval) {
    this.engine = engine;
    long millis = heartbeatInterval.toMillis();
    heartbeat.scheduleAtFixedRate(
        NamedThreads.guarded(this::beat), millis, millis, TimeUnit.MILLISECONDS);
    engine.addListener(this);
  }

  /** Streams events that pass {@code filter} to the client until it disconnects. */
  void subscribe(SseClient client, Predicate<RunEvent> filter) {
    StreamSubscriber subscriber = new StreamSubscriber(client, filter, senders);
    client.keepAlive();
    client.onClose(() -> subscribers.remove(subscriber));
    subscribers.add(subscriber);
    subscriber.comment("connected");
  }

  int subscriberCount() {
    return subscribers.size();
  }

  @Override
  public void onEvent(RunEvent event) {
    // Step attempts are for traces; the stream tells runs' status, approvals and claims.
    if (subscribers.isEmpty() || event instanceof RunEvent.StepFinished) {
      return;
    }
    StreamMessage message = StreamMessage.of(event);
    for (StreamSubscriber subscriber : subscribers) {
      subscriber.offer(event, message);
    }
  }

  private void beat() {
    for (StreamSubscriber subscriber : subscribers) {
      subscriber.comment("heartbeat");
    }
  }

  @Override
  public void close() {
    engine.removeListener(this);
    heartbeat.shutdownNow();
    subscribers.forEach(StreamSubscriber::close);
    StreamSubscriber.finish(senders);
  }
}

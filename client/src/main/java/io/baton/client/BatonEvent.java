package io.baton.client;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * An event for Baton, in the shape of a CloudEvents 1.0 envelope. Events with the same {@code
 * (source, id)} are one event: Baton stores and triggers it once, however often it is enqueued.
 * Immutable.
 *
 * @param id unique within its source; derive it from the business fact (an order id) to make
 *     enqueueing idempotent
 * @param time when it happened, or null
 * @param dataJson the event's data as JSON text, or null for none
 * @param traceparent the CloudEvents distributed-tracing extension: the W3C trace context (e.g. the
 *     current span's, {@code 00-<trace id>-<span id>-01}) that the runs the event triggers
 *     continue, or null for none. Needs Baton's schema version 8; a value Baton cannot read starts
 *     the runs untraced
 */
public record BatonEvent(
    String id, String source, String type, Instant time, String dataJson, String traceparent) {
  public BatonEvent {
    requireText(id, "id");
    requireText(source, "source");
    requireText(type, "type");
  }

  /** An event without a trace context. */
  public BatonEvent(String id, String source, String type, Instant time, String dataJson) {
    this(id, source, type, time, dataJson, null);
  }

  /** This event, made in the trace context {@code traceparent}. */
  public BatonEvent withTraceparent(String traceparent) {
    return new BatonEvent(id, source, type, time, dataJson, traceparent);
  }

  /** An event with a fresh random id and no time. */
  public static BatonEvent of(String source, String type, String dataJson) {
    return new BatonEvent(UUID.randomUUID().toString(), source, type, null, dataJson);
  }

  private static void requireText(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isEmpty()) {
      throw new IllegalArgumentException("an event's " + name + " must not be empty");
    }
  }
}

package io.baton.node.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.node.cli.ServerEvents.Kind;
import io.baton.node.cli.ServerEvents.ServerEvent;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The {@code text/event-stream} format as {@code run --follow} reads it. */
class ServerEventsTest {
  private final ServerEvents events = new ServerEvents();

  private void lines(String... lines) {
    for (String line : lines) {
      events.onNext(line);
    }
  }

  private ServerEvent next() {
    return events.next(Duration.ZERO);
  }

  @Test
  void an_event_ends_at_a_blank_line_with_its_name_id_and_data() {
    lines("event: run", "id: abc", "data: {\"a\": 1}", "");

    assertThat(next()).isEqualTo(new ServerEvent(Kind.EVENT, "run", "abc", "{\"a\": 1}"));
    assertThat(next()).as("nothing more yet").isNull();
  }

  @Test
  void data_lines_join_with_newlines_and_an_unnamed_event_is_a_message() {
    lines("data:first", "data: second", "");

    assertThat(next()).isEqualTo(new ServerEvent(Kind.EVENT, "message", null, "first\nsecond"));
  }

  @Test
  void a_comment_between_events_is_handed_over_and_one_inside_an_event_does_not_end_it() {
    lines(": connected", "", "event: reload", ": heartbeat", "data: {}", "");

    assertThat(next()).isEqualTo(ServerEvent.comment("connected"));
    assertThat(next()).isEqualTo(new ServerEvent(Kind.EVENT, "reload", null, "{}"));
    assertThat(next()).isNull();
  }

  @Test
  void the_end_of_the_stream_or_a_broken_connection_is_the_end() {
    events.onComplete();
    ServerEvents broken = new ServerEvents();
    broken.onError(new IOException("reset"));

    assertThat(next()).isEqualTo(ServerEvent.END);
    assertThat(broken.next(Duration.ZERO)).isEqualTo(ServerEvent.END);
  }

  @Test
  void an_event_without_data_is_dropped_and_fields_reset_after_it() {
    lines("event: run", "id: 1", "", "data: x", "");

    assertThat(next()).isEqualTo(new ServerEvent(Kind.EVENT, "message", null, "x"));
  }

  @Test
  void closing_cancels_the_subscription_even_when_it_comes_later() {
    AtomicBoolean cancelled = new AtomicBoolean();
    events.close();
    events.onSubscribe(
        new Flow.Subscription() {
          @Override
          public void request(long n) {
            throw new AssertionError("a closed stream asks for nothing");
          }

          @Override
          public void cancel() {
            cancelled.set(true);
          }
        });

    assertThat(cancelled).isTrue();
  }
}

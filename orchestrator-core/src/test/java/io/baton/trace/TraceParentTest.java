package io.baton.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceParentTest {
  private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  private static final UUID RUN = UUID.fromString("6f1c2b9e-0000-4000-8000-00000000c0de");

  @Test
  void a_valid_header_reads_into_its_fields_and_writes_back_the_same() {
    TraceParent parsed = TraceParent.parse(" " + VALID + " ").orElseThrow();
    assertThat(parsed.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(parsed.parentId()).isEqualTo("00f067aa0ba902b7");
    assertThat(parsed.isSampled()).isTrue();
    assertThat(parsed).hasToString(VALID);
  }

  @Test
  void absent_or_blank_is_empty() {
    assertThat(TraceParent.parse(null)).isEmpty();
    assertThat(TraceParent.parse("  ")).isEmpty();
  }

  @Test
  void a_later_version_is_read_by_its_first_four_fields() {
    TraceParent parsed =
        TraceParent.parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-extra")
            .orElseThrow();
    assertThat(parsed.isSampled()).isFalse();
    assertThat(parsed.toString()).startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "garbage",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01"
      })
  void an_invalid_header_is_refused_with_a_message_that_quotes_it(String value) {
    assertThatThrownBy(() -> TraceParent.parse(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid traceparent '" + value + "'");
  }

  @Test
  void an_attempt_continues_the_callers_trace_with_its_own_deterministic_span() {
    TraceParent attempt = TraceIds.ofAttempt(RUN, VALID, RUN, "charge", 2);
    assertThat(attempt.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(attempt.parentId()).isEqualTo(TraceIds.stepSpanId(RUN, "charge", 2));
    assertThat(attempt.flags()).isEqualTo("01");
    assertThat(TraceIds.stepSpanId(RUN, "charge", 2))
        .matches("[0-9a-f]{16}")
        .isNotEqualTo(TraceIds.stepSpanId(RUN, "charge", 3))
        .isNotEqualTo(TraceIds.stepSpanId(RUN, "refund", 2));
  }

  @Test
  void an_untraced_tree_is_its_own_sampled_trace_named_by_its_root_run_id() {
    TraceParent attempt = TraceIds.ofAttempt(RUN, null, RUN, "charge", 1);
    assertThat(attempt.traceId()).isEqualTo(RUN.toString().replace("-", ""));
    assertThat(attempt.traceId()).isEqualTo(TraceIds.traceIdOf(RUN));
    assertThat(attempt.isSampled()).isTrue();
  }

  @Test
  void run_spans_differ_per_claim() {
    Instant at = Instant.parse("2026-01-01T00:00:00Z");
    assertThat(TraceIds.runSpanId(RUN, 7, at))
        .isEqualTo(TraceIds.runSpanId(RUN, 7, at))
        .isNotEqualTo(TraceIds.runSpanId(RUN, 8, at))
        .isNotEqualTo(TraceIds.runSpanId(RUN, 7, at.plusMillis(1)));
  }
}

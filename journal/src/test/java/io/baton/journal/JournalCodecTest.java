package io.baton.journal;

import static io.baton.journal.JournalFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JournalCodecTest {
  private static final UUID ROOT = UUID.fromString("00000000-0000-0000-0000-00000000000a");
  private static final String TRACEPARENT =
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  private static final Instant AT = Instant.parse("2026-01-02T03:04:05.123456Z");

  @Test
  void every_event_round_trips() {
    List<JournalEvent> events =
        List.of(
            new RunCreated("f", "h", json("a", 1), ROOT, "call", "k", json("e", 2)),
            new RunCreated("f", "h", null, null, null, null, null, TRACEPARENT),
            new StepStarted("s", 2),
            new StepCompleted("s", 2, json("o", List.of(1, 2)), AT),
            new StepCompleted(
                "s", 2, null, AT, JournalCodec.mapper().valueToTree(List.of(json("id", "r/s/0")))),
            new StepFailed("s", 1, "timeout", "slow", true, AT, AT),
            new StepFailed("s", 3, "http_4xx", "bad", false, null, AT),
            new RunWaiting("t", WaitReason.TIMER, AT, null),
            new RunWoken("t", WaitReason.TIMER, "due", null),
            new RunClaimed("node-1", 42, "node-0", ClaimReason.HANDOFF),
            new RunStatusChanged(RunStatus.RUNNING, RunStatus.WAITING, "park", false, AT),
            new RunStatusChanged(
                RunStatus.RUNNING,
                RunStatus.WAITING,
                "park",
                false,
                AT,
                RunWait.retry("s", 2, 5, AT)),
            new RunStatusChanged(
                RunStatus.RUNNING, RunStatus.WAITING, "park", false, null, RunWait.approval("a")),
            RunCompleted.failed(new ErrorInfo("rejected", "no"), false),
            RunCompleted.succeeded(json("x", "y")));
    for (JournalEvent event : events) {
      assertThat(JournalCodec.decode(JournalCodec.encode(event), ROOT, 1)).isEqualTo(event);
    }
  }

  @Test
  void the_type_tag_is_explicit_in_the_encoding() {
    String json = JournalCodec.encode(new RunWoken("t", WaitReason.TIMER, "due", null));
    assertThat(json).contains("\"type\":\"RunWoken\"").contains("\"reason\":\"TIMER\"");
  }

  @Test
  void an_unknown_tag_fails_naming_the_tag_and_the_entry() {
    String stored = "{\"type\":\"StepTeleported\",\"step\":\"s\"}";
    assertThatThrownBy(() -> JournalCodec.decode(stored, ROOT, 17))
        .isInstanceOf(JournalCodecException.class)
        .hasMessageContaining("StepTeleported")
        .hasMessageContaining("seq 17")
        .hasMessageContaining(ROOT.toString());
  }

  @Test
  void a_missing_tag_or_malformed_document_fails_naming_the_entry() {
    assertThatThrownBy(() -> JournalCodec.decode("{\"step\":\"s\"}", ROOT, 3))
        .isInstanceOf(JournalCodecException.class)
        .hasMessageContaining("seq 3");
    assertThatThrownBy(() -> JournalCodec.decode("{not json", ROOT, 4))
        .isInstanceOf(JournalCodecException.class)
        .hasMessageContaining("seq 4");
  }

  @Test
  void instants_are_written_as_iso_strings_in_utc() {
    String json = JournalCodec.encode(new StepCompleted("s", 1, null, AT));
    assertThat(json).contains("\"startedAt\":\"2026-01-02T03:04:05.123456Z\"");
  }

  @Test
  void a_run_created_without_a_traceparent_is_encoded_as_before_and_old_entries_still_decode() {
    String encoded = JournalCodec.encode(RunCreated.root("f", "h", json("a", 1)));
    assertThat(encoded).doesNotContain("traceparent");

    String older = "{\"type\":\"RunCreated\",\"flowName\":\"f\",\"flowHash\":\"h\"}";
    RunCreated decoded = (RunCreated) JournalCodec.decode(older, ROOT, 1);
    assertThat(decoded.traceparent()).isNull();
    assertThat(decoded.flowName()).isEqualTo("f");

    String traced =
        JournalCodec.encode(new RunCreated("f", "h", null, null, null, null, null, TRACEPARENT));
    assertThat(traced).contains("\"traceparent\":\"" + TRACEPARENT + "\"");
  }

  @Test
  void a_park_without_a_recorded_wait_is_encoded_as_before_and_old_parks_still_decode() {
    String encoded =
        JournalCodec.encode(
            new RunStatusChanged(RunStatus.RUNNING, RunStatus.WAITING, "park", false, AT));
    assertThat(encoded).doesNotContain("waiting\"");

    String older =
        "{\"type\":\"RunStatusChanged\",\"from\":\"RUNNING\",\"to\":\"WAITING\","
            + "\"reason\":\"park\",\"recoverable\":false}";
    RunStatusChanged decoded = (RunStatusChanged) JournalCodec.decode(older, ROOT, 1);
    assertThat(decoded.to()).isEqualTo(RunStatus.WAITING);
    assertThat(decoded.waiting()).isNull();
  }

  @Test
  void only_a_change_into_waiting_keeps_a_wait() {
    RunStatusChanged running =
        new RunStatusChanged(
            RunStatus.WAITING, RunStatus.RUNNING, "woken", false, null, RunWait.approval("a"));
    assertThat(running.waiting()).isNull();
  }
}

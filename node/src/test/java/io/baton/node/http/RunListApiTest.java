package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.Checkpoint;
import io.baton.journal.ExecutionJournal;
import io.baton.journal.replay.Replay;
import io.baton.journal.replay.TreeState;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/v1/runs}: keyset pages by opaque cursor, the filters, derived states, and a
 * problem body naming the parameter for every bad value; {@code GET /api/v1/runs/{id}/journal}
 * pages by sequence.
 */
class RunListApiTest extends ApiTestBase {
  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.get("runs").forEach(run -> ids.add(run.get("id").asText()));
    return ids;
  }

  @Test
  void pages_by_cursor_visit_every_run_once_newest_first() {
    String flow = uniqueName("paged");
    applyFlow(TestFlows.quick(flow));
    List<String> submitted = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      submitted.add(0, submit(flow, "{\"value\": " + i + "}").toString());
    }
    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      String query = "/api/v1/runs?flow=" + flow + "&limit=3";
      Reply reply = http.get(cursor == null ? query : query + "&cursor=" + cursor);
      assertThat(reply.status()).as("%s", reply).isEqualTo(200);
      seen.addAll(ids(reply.json()));
      cursor = reply.json().get("next").isNull() ? null : reply.json().get("next").asText();
      pages++;
    } while (cursor != null);
    assertThat(pages).isEqualTo(3);
    assertThat(seen).containsExactlyInAnyOrderElementsOf(submitted).doesNotHaveDuplicates();
  }

  @Test
  void filters_by_status_input_and_derived_state() {
    String quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
    UUID gold = submit(quick, "{\"value\": 1, \"customer\": {\"tier\": \"gold\"}}");
    submit(quick, "{\"value\": 2, \"customer\": {\"tier\": \"silver\"}}");
    String toggled = uniqueName("toggled");
    applyFlow(TestFlows.toggled(toggled, uniqueName("switch")));
    UUID failed = submit(toggled);
    awaitStatus(failed, "FAILED");
    awaitStatus(gold, "SUCCEEDED");

    String tierGold = encode("{\"customer\": {\"tier\": \"gold\"}}");
    assertThat(ids(http.get("/api/v1/runs?flow=" + quick + "&input=" + tierGold).json()))
        .containsExactly(gold.toString());
    assertThat(ids(http.get("/api/v1/runs?status=failed,succeeded&flow=" + toggled).json()))
        .containsExactly(failed.toString());
    JsonNode recoverable =
        http.get("/api/v1/runs?state=recoverable-failure&flow=" + toggled).json();
    assertThat(ids(recoverable)).containsExactly(failed.toString());
    assertThat(recoverable.get("runs").get(0).get("state").asText())
        .isEqualTo("recoverable-failure");
    assertThat(ids(http.get("/api/v1/runs?state=stuck&flow=" + quick).json())).isEmpty();
  }

  @Test
  void filters_by_a_json_path_predicate_on_input_and_output() {
    String quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
    UUID gold = submit(quick, "{\"value\": 1, \"customer\": {\"tier\": \"gold\", \"age\": 40}}");
    UUID silver = submit(quick, "{\"value\": 2, \"customer\": {\"tier\": \"silver\"}}");
    JsonNode output = awaitStatus(gold, "SUCCEEDED").get("output");
    awaitStatus(silver, "SUCCEEDED");
    String runs = "/api/v1/runs?flow=" + quick;

    assertThat(ids(http.get(runs + "&inputPath=" + encode("$.customer.tier == \"gold\"")).json()))
        .containsExactly(gold.toString());
    assertThat(ids(http.get(runs + "&inputPath=" + encode("$.customer.age >= 18")).json()))
        .containsExactly(gold.toString());
    assertThat(ids(http.get(runs + "&inputPath=" + encode("exists($.customer.age)")).json()))
        .containsExactly(gold.toString());
    assertThat(ids(http.get(runs + "&inputPath=" + encode("$.value != 1")).json()))
        .containsExactly(silver.toString());
    String field = output.fieldNames().next();
    assertThat(
            ids(
                http.get(
                        runs
                            + "&outputPath="
                            + encode("exists($.\"" + field + "\")")
                            + "&inputPath="
                            + encode("$.value == 2"))
                    .json()))
        .containsExactly(silver.toString());
    assertThat(ids(http.get(runs + "&outputPath=" + encode("exists($.nosuch)")).json())).isEmpty();
  }

  @Test
  void a_bad_json_path_answers_400_naming_the_parameter_and_the_position() {
    JsonNode problem =
        assertProblem(
            http.get("/api/v1/runs?inputPath=" + encode("$.customer.tier = \"gold\"")),
            400,
            "invalid-request");
    assertThat(problem.get("detail").asText())
        .startsWith("inputPath is not a JSON path predicate")
        .endsWith("at position 17, expected ==, !=, <, <=, > or >=");
    problem =
        assertProblem(
            http.get("/api/v1/runs?outputPath=" + encode("exists($.a")), 400, "invalid-request");
    assertThat(problem.get("detail").asText())
        .startsWith("outputPath ")
        .endsWith("at position 11, expected ')' (at the end)");
  }

  @Test
  void waiting_runs_list_and_filter_by_what_they_wait_for() {
    String approval = uniqueName("approval");
    applyFlow(TestFlows.approval(approval));
    UUID asking = submit(approval, "{\"orderId\": \"o-1\"}");
    String retried = uniqueName("retried");
    applyFlow(
        """
        name: %s
        steps:
          - name: call
            capability: toggle
            params: { name: %s }
            retry: { maxAttempts: 4, delay: 1h }
        """
            .formatted(retried, uniqueName("switch")));
    UUID retrying = submit(retried);
    awaitApprovalRequested(asking, "ask");
    awaitStatus(retrying, "WAITING");

    JsonNode approvals = http.get("/api/v1/runs?state=waiting-approval&flow=" + approval).json();
    assertThat(ids(approvals)).containsExactly(asking.toString());
    JsonNode asked = approvals.get("runs").get(0);
    assertThat(asked.get("state").asText()).isEqualTo("waiting-approval");
    assertThat(asked.get("waiting").get("for").asText()).isEqualTo("approval");
    assertThat(asked.get("waiting").get("step").asText()).isEqualTo("ask");

    JsonNode retries = http.get("/api/v1/runs?state=retrying&flow=" + retried).json();
    assertThat(ids(retries)).containsExactly(retrying.toString());
    JsonNode waiting = retries.get("runs").get(0).get("waiting");
    assertThat(waiting.get("for").asText()).isEqualTo("retry");
    assertThat(waiting.get("attempt").asInt()).as("attempt 2 of 4 is due next").isEqualTo(2);
    assertThat(waiting.get("maxAttempts").asInt()).isEqualTo(4);
    assertThat(Instant.parse(waiting.get("at").asText()))
        .isEqualTo(Instant.parse(run(retrying).get("wakeAt").asText()));
    assertThat(run(retrying).get("state").asText()).isEqualTo("retrying");

    assertThat(ids(http.get("/api/v1/runs?state=waiting-timer&flow=" + retried).json())).isEmpty();
    assertThat(ids(http.get("/api/v1/runs?state=waiting-child&flow=" + approval).json())).isEmpty();
    assertThat(ids(http.get("/api/v1/runs?state=retrying&status=RUNNING&flow=" + retried).json()))
        .isEmpty();
  }

  @Test
  void every_bad_parameter_answers_400_naming_it() {
    String[][] cases = {
      {"status=BOGUS", "status"},
      {"cursor=not-a-cursor", "cursor"},
      {"limit=5000", "limit"},
      {"createdFrom=yesterday", "createdFrom"},
      {"input=" + encode("{nope"), "input"},
      {"input=5", "input"},
      {"parent=123", "parent"},
      {"rootsOnly=maybe", "rootsOnly"},
      {"state=sleepy", "state"},
      {"inputPath=" + encode("$.a == 'x'"), "inputPath"},
      {"inputPath=" + encode("$.a == 1 || $.b == 2"), "inputPath"},
      {"outputPath=" + encode("$.a == \"\\u0000\""), "outputPath"},
      {"outputPath=" + encode("$.a < 1e99999"), "outputPath"},
    };
    for (String[] badCase : cases) {
      JsonNode problem =
          assertProblem(http.get("/api/v1/runs?" + badCase[0]), 400, "invalid-request");
      assertThat(problem.get("detail").asText()).as(badCase[0]).contains(badCase[1]);
    }
  }

  @Test
  void the_journal_pages_by_sequence() {
    String approval = uniqueName("approval");
    applyFlow(TestFlows.approval(approval));
    UUID runId = submit(approval, "{\"orderId\": \"o-1\"}");
    awaitApprovalRequested(runId, "ask");
    http.post("/api/v1/runs/" + runId + "/approve", "{}");
    awaitStatus(runId, "SUCCEEDED");

    List<Long> seqs = new ArrayList<>();
    long after = 0;
    while (true) {
      JsonNode page = http.get("/api/v1/runs/" + runId + "/journal?limit=2&after=" + after).json();
      page.get("entries").forEach(entry -> seqs.add(entry.get("seq").asLong()));
      if (page.get("next").isNull()) {
        break;
      }
      after = page.get("next").asLong();
    }
    assertThat(seqs).hasSizeGreaterThan(4);
    for (int i = 0; i < seqs.size(); i++) {
      assertThat(seqs.get(i)).isEqualTo(i + 1L);
    }
  }

  @Test
  void the_journal_pages_through_archived_and_hot_entries_as_one_sequence() {
    String approval = uniqueName("archived");
    applyFlow(TestFlows.approval(approval));
    UUID runId = submit(approval, "{\"orderId\": \"o-2\"}");
    awaitApprovalRequested(runId, "ask");
    http.post("/api/v1/runs/" + runId + "/approve", "{}");
    awaitStatus(runId, "SUCCEEDED");
    List<Long> before = journalSeqs(runId);

    ExecutionJournal journal = node.node().stores().journal();
    long covered = journal.latestSequence(runId) - 2;
    TreeState state = Replay.fold(runId, journal.readHistory(runId, 1, (int) covered));
    journal.checkpoint(
        runId,
        journal.currentToken(runId).orElseThrow(),
        new Checkpoint(covered, state.toSnapshot(), Instant.now()));
    assertThat(journal.compact(runId)).isEqualTo((int) covered);
    assertThat(journal.readFrom(runId, 1, 100)).hasSize(2);

    assertThat(journalSeqs(runId)).isEqualTo(before);
  }

  private List<Long> journalSeqs(UUID runId) {
    List<Long> seqs = new ArrayList<>();
    long after = 0;
    while (true) {
      JsonNode page = http.get("/api/v1/runs/" + runId + "/journal?limit=2&after=" + after).json();
      page.get("entries").forEach(entry -> seqs.add(entry.get("seq").asLong()));
      if (page.get("next").isNull()) {
        return seqs;
      }
      after = page.get("next").asLong();
    }
  }
}

package io.baton.node;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.baton.node.http.ApiTestBase;
import io.baton.node.http.Reply;
import io.baton.node.http.TestFlows;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * Coverage-guided fuzzing of the API's request bodies and query parameters (Jazzer) against a node:
 * run requests, events, and the query strings of the run list, the journal and the event list.
 * Every answer is below 500, an error is a problem body that says what is wrong, and no body
 * carries a stack trace ({@link FuzzChecks#answered}). Corpus: {@code ApiFuzzTestInputs/<target>}
 * (bodies and queries of the API tests, naming the flow {@value #FLOW} this class applies).
 */
@Tag("fuzz") // own test JVM (node/pom.xml, execution "fuzz")
class ApiFuzzTest extends ApiTestBase {
  static final String FLOW = "fuzz-target";
  private UUID run;

  @BeforeAll
  void target() {
    applyFlow(TestFlows.approval(FLOW));
    run = submit(FLOW, "{\"orderId\": \"o-1\"}");
  }

  @FuzzTest(maxDuration = "5m")
  void run_request_bodies(byte[] data) {
    String body = new String(data, StandardCharsets.UTF_8);
    FuzzChecks.answered("POST /api/runs " + body, http.post("/api/runs", body));
  }

  @FuzzTest(maxDuration = "5m")
  void event_bodies(byte[] data) {
    String body = new String(data, StandardCharsets.UTF_8);
    Reply reply = http.post("/api/events", body, "application/cloudevents+json");
    FuzzChecks.answered("POST /api/events " + body, reply);
  }

  @FuzzTest(maxDuration = "5m")
  void query_parameters(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    String query = QueryText.encode(text);
    for (String path :
        new String[] {
          "/api/runs", "/api/runs/" + run + "/journal", "/api/events", "/api/run-counts"
        }) {
      String uri = path + "?" + query;
      HttpRequest.Builder request = http.request(uri).GET();
      // the decoded text too: a detail may quote a parameter's value as the node decoded it
      FuzzChecks.answered("GET " + uri + " (" + text + ")", http.send(request));
    }
  }
}

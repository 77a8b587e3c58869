package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.time.SystemScheduler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * API keys managed by admins through the API: the token is shown once and stored only as its hash,
 * the key works with its role and flows until it is revoked or expires, and every change is in the
 * audit record with who, how and why, as flow uploads are.
 */
public class KeyApiTest extends ApiTestBase {
  private final String adminToken = ApiTokens.generate();
  private final String operatorToken = ApiTokens.generate();
  private ApiCalls admin;

  @Override
  protected Authenticator authenticator() {
    try {
      Path file = Files.createTempFile("baton-keys", ".yaml");
      Files.writeString(
          file,
          "keys:\n"
              + "  - {name: root, role: admin, hash: \""
              + ApiTokens.hash(adminToken)
              + "\"}\n"
              + "  - {name: file-operator, role: operator, hash: \""
              + ApiTokens.hash(operatorToken)
              + "\"}\n");
      return ApiKeys.load(file, SystemScheduler.systemClock());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @BeforeAll
  void callAsAdmin() {
    admin = node.calls().withToken(adminToken);
  }

  private JsonNode create(String json) {
    Reply created = admin.post("/api/v1/keys", json);
    assertThat(created.status()).as("%s", created).isEqualTo(201);
    return created.json();
  }

  private Reply revoke(String id, String reason) {
    return admin.send(
        admin
            .request("/api/v1/keys/" + id)
            .header("Content-Type", "application/json")
            .method(
                "DELETE", HttpRequest.BodyPublishers.ofString("{\"reason\": \"" + reason + "\"}")));
  }

  @Test
  void a_created_key_is_shown_once_and_listed_without_its_token_or_hash() {
    String name = uniqueName("ci");
    JsonNode created =
        create(
            "{\"name\": \""
                + name
                + "\", \"role\": \"operator\", \"expires\": \"90d\", \"reason\": \"pipeline\"}");
    String token = created.get("token").asText();
    assertThat(token).startsWith(ApiTokens.PREFIX);
    assertThat(created.get("id").asText()).startsWith("key_");
    assertThat(created.get("createdBy").asText()).isEqualTo("root");
    assertThat(Instant.parse(created.get("expires").asText()))
        .isAfter(Instant.now().plusSeconds(89 * 86_400L));

    Reply list = admin.get("/api/v1/keys");
    assertThat(list.status()).isEqualTo(200);
    assertThat(list.body())
        .contains(name)
        .contains("\"file-operator\"")
        .doesNotContain(token)
        .doesNotContain(ApiTokens.hash(token))
        .doesNotContain(ApiTokens.hash(adminToken));
    JsonNode listed = keyNamed(list.json(), name);
    assertThat(listed.get("source").asText()).isEqualTo("api");
    assertThat(listed.get("status").asText()).isEqualTo("active");
    assertThat(keyNamed(list.json(), "file-operator").get("source").asText()).isEqualTo("file");
    assertThat(node.node().stores().access().keys())
        .anySatisfy(key -> assertThat(key.hash()).isEqualTo(ApiTokens.hash(token)))
        .allSatisfy(key -> assertThat(key.toString()).doesNotContain(token));
  }

  @Test
  void a_created_key_acts_with_its_role_and_is_who_acted() {
    String name = uniqueName("deployer");
    String token =
        create("{\"name\": \"" + name + "\", \"role\": \"viewer\"}").get("token").asText();
    ApiCalls viewer = node.calls().withToken(token);
    assertThat(viewer.get("/api/v1/runs").status()).isEqualTo(200);
    Reply refused = viewer.post("/api/v1/flows", TestFlows.quick(uniqueName("f")), "text/yaml");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.json().get("detail").asText()).contains(name).contains("viewer");
    JsonNode me = viewer.get("/api/v1/me").json();
    assertThat(me.get("name").asText()).isEqualTo(name);
    assertThat(me.get("role").asText()).isEqualTo("viewer");
    assertThat(me.get("via").asText()).isEqualTo("key");
  }

  @Test
  void a_revoked_key_is_refused_at_once_and_the_revocation_is_on_the_record() {
    String name = uniqueName("temp");
    JsonNode created = create("{\"name\": \"" + name + "\", \"role\": \"operator\"}");
    String id = created.get("id").asText();
    ApiCalls caller = node.calls().withToken(created.get("token").asText());
    assertThat(caller.get("/api/v1/runs").status()).isEqualTo(200);

    Reply revoked = revoke(id, "leaked in a log");
    assertThat(revoked.status()).as("%s", revoked).isEqualTo(200);
    assertThat(revoked.json().get("status").asText()).isEqualTo("revoked");
    Reply refused = caller.get("/api/v1/runs");
    assertThat(refused.status()).isEqualTo(401);
    assertThat(refused.json().get("detail").asText()).contains(name).contains("revoked");

    List<String> audit = audit(admin.get("/api/v1/audit?limit=500").json());
    assertThat(audit)
        .contains("key.create " + id + " by root via key: null")
        .contains("key.revoke " + id + " by root via key: leaked in a log");
    assertThat(revoke(id, "again").status()).isEqualTo(200);
    assertThat(audit(admin.get("/api/v1/audit?limit=500").json()))
        .filteredOn(line -> line.startsWith("key.revoke " + id))
        .hasSize(1);
  }

  @Test
  void flow_uploads_are_on_the_record_with_who_and_why() {
    String flow = uniqueName("audited");
    Reply applied =
        admin.post("/api/v1/flows?reason=release%2042", TestFlows.quick(flow), "text/yaml");
    assertThat(applied.status()).as("%s", applied).isEqualTo(201);
    JsonNode page = admin.get("/api/v1/audit").json();
    JsonNode entry = page.get("entries").get(0);
    assertThat(entry.get("action").asText()).isEqualTo("flow.apply");
    assertThat(entry.get("target").asText()).isEqualTo(flow);
    assertThat(entry.get("by").asText()).isEqualTo("root");
    assertThat(entry.get("via").asText()).isEqualTo("key");
    assertThat(entry.get("reason").asText()).isEqualTo("release 42");
    assertThat(entry.get("detail").asText()).isEqualTo(applied.json().get("hash").asText());
    assertThat(Instant.parse(entry.get("at").asText())).isBefore(Instant.now().plusSeconds(1));
  }

  @Test
  void the_audit_record_pages_newest_first() {
    for (int i = 0; i < 3; i++) {
      applyFlowAsAdmin(uniqueName("paged"));
    }
    JsonNode first = admin.get("/api/v1/audit?limit=2").json();
    assertThat(first.get("entries")).hasSize(2);
    long next = first.get("next").asLong();
    assertThat(next).isEqualTo(first.get("entries").get(1).get("seq").asLong());
    JsonNode second = admin.get("/api/v1/audit?limit=2&before=" + next).json();
    assertThat(second.get("entries").get(0).get("seq").asLong()).isLessThan(next);
    assertThat(first.get("entries").get(0).get("seq").asLong())
        .isGreaterThan(first.get("entries").get(1).get("seq").asLong());
    Reply bad = admin.get("/api/v1/audit?limit=zero");
    assertProblem(bad, 400, "invalid-request");
    assertThat(bad.json().get("detail").asText()).contains("limit");
  }

  @Test
  void only_admins_manage_keys_and_read_the_audit_record() {
    ApiCalls operator = node.calls().withToken(operatorToken);
    assertThat(operator.get("/api/v1/keys").status()).isEqualTo(403);
    assertThat(operator.get("/api/v1/audit").status()).isEqualTo(403);
    Reply refused = operator.post("/api/v1/keys", "{\"name\": \"mine\", \"role\": \"admin\"}");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.json().get("detail").asText()).contains("needs permission admin");
    assertThat(node.calls().get("/api/v1/keys").status()).isEqualTo(401);
  }

  @Test
  void bad_key_requests_are_refused_with_what_is_wrong() {
    assertDetail(admin.post("/api/v1/keys", "{\"role\": \"viewer\"}"), 400, "'name'");
    assertDetail(
        admin.post("/api/v1/keys", "{\"name\": \"x\", \"role\": \"boss\"}"), 400, "unknown role");
    assertDetail(
        admin.post("/api/v1/keys", "{\"name\": \"bad name\", \"role\": \"viewer\"}"), 400, "name");
    assertDetail(
        admin.post(
            "/api/v1/keys", "{\"name\": \"x\", \"role\": \"viewer\", \"expires\": \"soon\"}"),
        400,
        "expires");
    assertDetail(
        admin.post(
            "/api/v1/keys",
            "{\"name\": \"x\", \"role\": \"viewer\", \"expires\": \"2020-01-01T00:00:00Z\"}"),
        400,
        "not in the future");
    assertDetail(
        admin.post("/api/v1/keys", "{\"name\": \"x\", \"role\": \"viewer\", \"flows\": \"a*\"}"),
        400,
        "flows");
    assertDetail(
        admin.post("/api/v1/keys", "{\"name\": \"x\", \"role\": \"viewer\", \"token\": \"t\"}"),
        400,
        "Unknown field 'token'");
    assertDetail(
        admin.post("/api/v1/keys", "{\"name\": \"file-operator\", \"role\": \"viewer\"}"),
        409,
        "keys file");
    String name = uniqueName("twice");
    create("{\"name\": \"" + name + "\", \"role\": \"viewer\"}");
    assertDetail(
        admin.post("/api/v1/keys", "{\"name\": \"" + name + "\", \"role\": \"viewer\"}"),
        409,
        name);
    assertDetail(revoke("key_0000", "x"), 404, "key_0000");
    assertDetail(revoke("file:file-operator", "x"), 409, "keys file");
  }

  @Test
  void an_expired_key_is_refused() {
    String name = uniqueName("short");
    String token =
        create("{\"name\": \"" + name + "\", \"role\": \"viewer\", \"expires\": \"1s\"}")
            .get("token")
            .asText();
    ApiCalls caller = node.calls().withToken(token);
    await()
        .atMost(TIMEOUT)
        .untilAsserted(() -> assertThat(caller.get("/api/v1/runs").status()).isEqualTo(401));
    assertThat(caller.get("/api/v1/runs").json().get("detail").asText()).contains("expired");
  }

  private void applyFlowAsAdmin(String flow) {
    Reply applied = admin.post("/api/v1/flows", TestFlows.quick(flow), "text/yaml");
    assertThat(applied.status()).as("%s", applied).isEqualTo(201);
  }

  private static void assertDetail(Reply reply, int status, String text) {
    assertThat(reply.status()).as("%s", reply).isEqualTo(status);
    assertThat(reply.json().get("detail").asText()).as("%s", reply).contains(text);
  }

  private static JsonNode keyNamed(JsonNode list, String name) {
    for (JsonNode key : list.get("keys")) {
      if (key.get("name").asText().equals(name)) {
        return key;
      }
    }
    throw new AssertionError("no key " + name + " in " + list);
  }

  private static List<String> audit(JsonNode page) {
    List<String> lines = new ArrayList<>();
    for (JsonNode entry : page.get("entries")) {
      lines.add(
          entry.get("action").asText()
              + " "
              + entry.get("target").asText()
              + " by "
              + entry.get("by").asText()
              + " via "
              + entry.get("via").asText()
              + ": "
              + entry.get("reason").asText());
    }
    return lines;
  }
}

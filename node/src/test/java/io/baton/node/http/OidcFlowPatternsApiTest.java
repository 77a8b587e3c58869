package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.jwk.RSAKey;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.node.auth.OidcSettings;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OIDC tokens limited to flow-name patterns by {@code auth.oidc.flowsClaim}, as the node reads it
 * from its configuration, on the real HTTP routes: a token whose claim says {@code billing-*} acts
 * on billing runs and is refused (403, naming its patterns) on another flow's run, submit and the
 * routes that span every flow; a space-separated string works as a list does; {@code *} lifts the
 * limit; a token without patterns in the claim is refused (401) rather than let act on every flow.
 */
class OidcFlowPatternsApiTest extends ApiTestBase {
  private static final String REALM = "baton";
  private static final String FLOWS_CLAIM = "baton_flows";

  private final RSAKey key = TestIdentityProvider.newKey("idp-key");
  private final String adminKey = ApiTokens.generate();
  private TestIdentityProvider idp;
  private ApiCalls admin;
  private String billingFlow;
  private String payrollFlow;

  private String issuer() {
    if (idp == null) {
      idp = TestIdentityProvider.start();
      idp.openRealm(REALM, key);
    }
    return idp.issuer(REALM);
  }

  /** The OIDC settings a node reads from its configuration, with the flows claim set. */
  private OidcSettings configured() {
    NodeConfig config =
        NodeConfig.from(
            ConfigLoader.load(
                null,
                Map.of(
                    "BATON_AUTH_KEYS_FILE",
                    "/etc/baton/keys.yaml",
                    "BATON_AUTH_OIDC_ISSUER",
                    issuer(),
                    "BATON_AUTH_OIDC_AUDIENCE",
                    TestIdentityProvider.AUDIENCE,
                    "BATON_AUTH_OIDC_FLOWS_CLAIM",
                    FLOWS_CLAIM),
                Map.of(),
                Map.of()));
    return config.auth().oidc();
  }

  @Override
  protected Authenticator authenticator() {
    OidcSettings settings = configured();
    assertThat(settings.flowsClaim()).isEqualTo(FLOWS_CLAIM);
    return TestIdentityProvider.keysAndTokens(adminKey, settings);
  }

  @BeforeAll
  void applyFlows() {
    admin = node.calls().withToken(adminKey);
    billingFlow = uniqueName("billing-close");
    payrollFlow = uniqueName("payroll-run");
    for (String flow : List.of(billingFlow, payrollFlow)) {
      Reply applied = admin.post("/api/v1/flows", TestFlows.approval(flow), "text/yaml");
      assertThat(applied.status()).as("%s", applied).isEqualTo(201);
    }
  }

  @AfterAll
  void stopIdp() {
    if (idp != null) {
      idp.close();
    }
  }

  /** A run of {@code flow} waiting for approval, submitted with the admin key. */
  private UUID waitingRun(String flow) {
    Reply submitted = admin.post("/api/v1/runs", submitBody(flow));
    assertThat(submitted.status()).as("%s", submitted).isEqualTo(201);
    return UUID.fromString(submitted.json().get("id").asText());
  }

  private static String submitBody(String flow) {
    return "{\"flow\": \"" + flow + "\", \"input\": {\"orderId\": \"o-1\"}}";
  }

  private ApiCalls operatorWithFlows(Object flows) {
    var claims = TestIdentityProvider.claims(issuer(), "alice@example.test", "operator");
    if (flows != null) {
      claims.claim(FLOWS_CLAIM, flows);
    }
    return node.calls().withToken(TestIdentityProvider.sign(key, claims.build()));
  }

  private void assertActsOnlyOnBilling(ApiCalls alice, String patterns) {
    UUID billing = waitingRun(billingFlow);
    UUID payroll = waitingRun(payrollFlow);

    assertThat(alice.get("/api/v1/runs/" + billing).status()).isEqualTo(200);
    Reply other = alice.get("/api/v1/runs/" + payroll);
    assertRefusal(other, 403, "forbidden", "'alice@example.test' is limited to flows " + patterns);

    assertProblem(alice.post("/api/v1/runs/" + payroll + "/cancel", "{}"), 403, "forbidden");
    assertThat(status(payroll)).as("the other flow's run is untouched").isNotEqualTo("CANCELLED");
    Reply cancelled = alice.post("/api/v1/runs/" + billing + "/cancel", "{}");
    assertThat(cancelled.status()).as("%s", cancelled).isBetween(200, 299);
    awaitStatus(billing, "CANCELLED");

    assertProblem(alice.post("/api/v1/runs", submitBody(payrollFlow)), 403, "forbidden");
    assertThat(alice.post("/api/v1/runs", submitBody(billingFlow)).status()).isEqualTo(201);
    assertProblem(alice.get("/api/v1/cluster"), 403, "forbidden");
  }

  @Override
  protected JsonNode run(UUID runId) {
    Reply reply = admin.get("/api/v1/runs/" + runId);
    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    return reply.json();
  }

  private static void assertRefusal(Reply reply, int status, String type, String detail) {
    assertThat(assertProblem(reply, status, type).get("detail").asText()).contains(detail);
  }

  @Test
  void a_token_limited_by_its_claim_acts_on_its_flows_runs_and_not_on_another_flows() {
    ApiCalls alice = operatorWithFlows(List.of("billing-*"));
    JsonNode me = alice.get("/api/v1/me").json();
    assertThat(me.get("via").asText()).isEqualTo("oidc");
    assertThat(me.get("flows")).hasSize(1);
    assertThat(me.get("flows").get(0).asText()).isEqualTo("billing-*");
    assertActsOnlyOnBilling(alice, "billing-*");
  }

  @Test
  void a_claim_of_space_separated_patterns_limits_as_a_list_does() {
    assertActsOnlyOnBilling(operatorWithFlows("reports-*  billing-*"), "reports-*, billing-*");
  }

  @Test
  void a_star_in_the_claim_lifts_the_limit() {
    ApiCalls everyFlow = operatorWithFlows(List.of("*"));
    assertThat(everyFlow.get("/api/v1/runs/" + waitingRun(payrollFlow)).status()).isEqualTo(200);
    assertThat(everyFlow.get("/api/v1/cluster").status()).isEqualTo(200);
  }

  @Test
  void a_token_without_patterns_in_the_claim_is_refused_with_the_reason() {
    for (Object missing : new Object[] {null, List.of(), " "}) {
      Reply refused = operatorWithFlows(missing).get("/api/v1/runs");
      assertRefusal(refused, 401, "unauthenticated", "has no flow patterns in claim 'baton_flows'");
    }
    Reply notPatterns = operatorWithFlows(List.of(42)).get("/api/v1/runs");
    assertRefusal(
        notPatterns,
        401,
        "unauthenticated",
        "claim 'baton_flows' of 'alice@example.test' holds 42");
  }
}

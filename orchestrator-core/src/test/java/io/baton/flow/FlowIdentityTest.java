package io.baton.flow;

import static io.baton.flow.Flows.parse;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class FlowIdentityTest {
  private static final String FLOW =
      """
      name: ship
      steps:
        - name: reserve
          capability: http
          operation: post
          params: {url: "http://127.0.0.1:9000/reserve", body: {order: 7, gift: false}}
          retry: {maxAttempts: 3, delay: 1s}
        - name: ship
          capability: noop
      """;

  @Test
  void the_canonical_json_sorts_keys_at_every_level_without_white_space() {
    assertThat(parse(FLOW).canonicalJson())
        .isEqualTo(
            "{\"name\":\"ship\",\"steps\":[{\"capability\":\"http\",\"name\":\"reserve\","
                + "\"operation\":\"post\",\"params\":{\"body\":{\"gift\":false,\"order\":7},"
                + "\"url\":\"http://127.0.0.1:9000/reserve\"},\"retry\":{\"delay\":\"1s\","
                + "\"maxAttempts\":3}},{\"capability\":\"noop\",\"name\":\"ship\"}]}");
  }

  @Test
  void the_hash_is_the_lowercase_hex_sha256_of_the_canonical_json() throws Exception {
    Flow flow = parse(FLOW);

    assertThat(flow.hash()).isEqualTo(sha256(flow.canonicalJson())).matches("[0-9a-f]{64}");
  }

  @Test
  void parsing_the_canonical_json_again_gives_the_same_hash_and_an_equal_definition()
      throws IOException {
    Flow original = parse(FlowParserTest.shipOrder());

    Flow again = parse(original.canonicalJson());

    assertThat(again.hash()).isEqualTo(original.hash());
    assertThat(again.canonicalJson()).isEqualTo(original.canonicalJson());
    assertThat(again.definition()).isEqualTo(original.definition());
  }

  @Test
  void formatting_comments_key_order_and_json_do_not_change_the_hash() {
    String reformatted =
        """
        # the same flow, written differently
        steps:
          - params:
              body:
                gift: false
                order: 7
              url: http://127.0.0.1:9000/reserve   # unquoted
            retry:
              delay: 1s
              maxAttempts: 3
            operation: post
            capability: http
            name: reserve
          - {capability: noop, name: ship}
        name: "ship"
        """;
    String json =
        """
        {"name": "ship", "steps": [
          {"name": "reserve", "capability": "http", "operation": "post",
           "params": {"url": "http://127.0.0.1:9000/reserve", "body": {"order": 7, "gift": false}},
           "retry": {"maxAttempts": 3, "delay": "1s"}},
          {"name": "ship", "capability": "noop"}]}
        """;

    String hash = parse(FLOW).hash();

    assertThat(parse(reformatted).hash()).isEqualTo(hash);
    assertThat(parse(json).hash()).isEqualTo(hash);
  }

  @Test
  void any_semantic_change_changes_the_hash() {
    String hash = parse(FLOW).hash();

    assertThat(parse(FLOW.replace("order: 7", "order: 8")).hash()).isNotEqualTo(hash);
    assertThat(parse(FLOW.replace("order: 7", "order: \"7\"")).hash()).isNotEqualTo(hash);
    assertThat(parse(FLOW.replace("gift: false", "gift: true")).hash()).isNotEqualTo(hash);
    assertThat(parse(FLOW.replace("maxAttempts: 3", "maxAttempts: 4")).hash()).isNotEqualTo(hash);
    assertThat(parse(FLOW.replace("operation: post", "operation: put")).hash()).isNotEqualTo(hash);
    assertThat(parse(FLOW + "description: now described\n").hash()).isNotEqualTo(hash);
    assertThat(parse(FLOW + "    needs: []\n").hash()).isNotEqualTo(hash);
  }

  @Test
  void reordering_steps_changes_the_hash_because_order_decides_who_waits_for_whom() {
    String swapped =
        """
        name: ship
        steps:
          - name: ship
            capability: noop
          - name: reserve
            capability: http
            operation: post
            params: {url: "http://127.0.0.1:9000/reserve", body: {order: 7, gift: false}}
            retry: {maxAttempts: 3, delay: 1s}
        """;

    assertThat(parse(swapped).hash()).isNotEqualTo(parse(FLOW).hash());
  }

  @Test
  void non_ascii_text_survives_the_round_trip() {
    Flow flow =
        parse(
            "name: greet\nsteps:\n  - {name: a, capability: noop, params: {text: \"Grüße 🚚 \\u0001\"}}\n");

    Flow again = parse(flow.canonicalJson());

    assertThat(again.step("a").params().get("text").textValue()).isEqualTo("Grüße 🚚 \u0001");
    assertThat(again.hash()).isEqualTo(flow.hash());
  }

  private static String sha256(String text) throws NoSuchAlgorithmException {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}

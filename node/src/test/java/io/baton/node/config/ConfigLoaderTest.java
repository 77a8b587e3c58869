package io.baton.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path dir;

  private Path file(String yaml) throws IOException {
    Path file = dir.resolve("baton.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static NodeConfig load(Path file, Map<String, String> env, Map<String, String> flags) {
    return NodeConfig.from(ConfigLoader.load(file, env, flags, Map.of("auth.mode", "none")));
  }

  @Test
  void a_node_refuses_to_run_without_authentication_unless_told_so_explicitly() {
    assertThatThrownBy(() -> NodeConfig.from(ConfigLoader.load(null, Map.of(), Map.of(), Map.of())))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.mode")
        .hasMessageContaining("auth.keysFile")
        .hasMessageContaining("auth.mode: none");
    NodeConfig keys =
        NodeConfig.from(
            ConfigLoader.load(
                null, Map.of("BATON_AUTH_KEYS_FILE", "/etc/baton/keys.yaml"), Map.of(), Map.of()));
    assertThat(keys.auth().required()).isTrue();
    assertThat(keys.auth().keysFile()).hasToString("/etc/baton/keys.yaml");
    NodeConfig off =
        NodeConfig.from(
            ConfigLoader.load(null, Map.of("BATON_AUTH_MODE", "none"), Map.of(), Map.of()));
    assertThat(off.auth().required()).isFalse();
  }

  @Test
  void an_oidc_issuer_alone_must_be_a_url_where_its_discovery_document_is() {
    Map<String, String> env =
        Map.of(
            "BATON_AUTH_MODE", "keys",
            "BATON_AUTH_KEYS_FILE", "/etc/baton/keys.yaml",
            "BATON_AUTH_OIDC_ISSUER", "https://idp.example.test/realms/ops",
            "BATON_AUTH_OIDC_AUDIENCE", "baton-api");
    NodeConfig discovered = load(null, env, Map.of());
    assertThat(discovered.auth().oidc().jwksUrl()).isNull();
    assertThat(discovered.auth().oidc().discoveryUrl())
        .hasToString("https://idp.example.test/realms/ops/.well-known/openid-configuration");

    Map<String, String> notAUrl = new HashMap<>(env);
    notAUrl.put("BATON_AUTH_OIDC_ISSUER", "ops-realm");
    assertThatThrownBy(() -> load(null, notAUrl, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.oidc.issuer")
        .hasMessageContaining("/.well-known/openid-configuration")
        .hasMessageContaining("auth.oidc.jwksUrl");
    notAUrl.put("BATON_AUTH_OIDC_JWKS_URL", "https://idp.example.test/keys");
    assertThat(load(null, notAUrl, Map.of()).auth().oidc().jwksUrl())
        .as("an explicit jwksUrl needs no discovery, so any issuer name will do")
        .hasToString("https://idp.example.test/keys");
  }

  @Test
  void an_oidc_flows_claim_names_one_claim_of_its_own_and_needs_an_issuer() {
    Map<String, String> env = new HashMap<>();
    env.put("BATON_AUTH_MODE", "keys");
    env.put("BATON_AUTH_KEYS_FILE", "/etc/baton/keys.yaml");
    env.put("BATON_AUTH_OIDC_FLOWS_CLAIM", "baton_flows");
    assertThatThrownBy(() -> load(null, env, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.oidc.flowsClaim")
        .hasMessageContaining("needs auth.oidc.issuer");

    env.put("BATON_AUTH_OIDC_ISSUER", "https://idp.example.test/realms/ops");
    env.put("BATON_AUTH_OIDC_AUDIENCE", "baton-api");
    assertThat(load(null, env, Map.of()).auth().oidc().flowsClaim()).isEqualTo("baton_flows");

    env.put("BATON_AUTH_OIDC_FLOWS_CLAIM", "billing-*, reports-*");
    assertThatThrownBy(() -> load(null, env, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.oidc.flowsClaim")
        .hasMessageContaining("names one claim");

    env.put("BATON_AUTH_OIDC_FLOWS_CLAIM", "roles");
    assertThatThrownBy(() -> load(null, env, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auth.oidc.flowsClaim")
        .hasMessageContaining("same claim as auth.oidc.roleClaim");

    env.remove("BATON_AUTH_OIDC_FLOWS_CLAIM");
    assertThat(load(null, env, Map.of()).auth().oidc().flowsClaim())
        .as("no claim: tokens act on every flow their role allows")
        .isNull();
  }

  @Test
  void a_secret_is_read_from_the_file_its_FILE_variable_names(@TempDir Path secrets)
      throws IOException {
    Path password = Files.writeString(secrets.resolve("db-password"), "s3cret\n");
    NodeConfig config =
        load(null, Map.of("BATON_STORE_PASSWORD_FILE", password.toString()), Map.of());
    assertThat(config.store().password()).isEqualTo("s3cret");

    assertThatThrownBy(
            () ->
                load(
                    null,
                    Map.of("BATON_STORE_PASSWORD_FILE", secrets.resolve("missing").toString()),
                    Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("BATON_STORE_PASSWORD_FILE")
        .hasMessageContaining("store.password")
        .hasMessageContaining("missing");
  }

  @Test
  void defaults_apply_when_nothing_is_given() {
    NodeConfig config = load(null, Map.of(), Map.of("nodeId", "n1"));
    assertThat(config.nodeId()).isEqualTo("n1");
    assertThat(config.http().host()).isEqualTo("127.0.0.1");
    assertThat(config.http().port()).isEqualTo(8080);
    assertThat(config.store().type()).isEqualTo(StoreBackend.POSTGRES);
    assertThat(config.lease().type()).isEqualTo(LeaseBackend.ETCD);
    assertThat(config.lease().ttl()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.lease().prefix()).isEqualTo("/baton/default/");
    assertThat(config.recovery().checkInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.engine().drainTimeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void the_file_nested_or_dotted_then_the_environment_then_flags_override_each_other()
      throws IOException {
    Path file =
        file(
            """
        nodeId: from-file
        cluster: prod
        lease:
          ttl: 7s
          endpoints: [http://10.0.0.1:2379, http://10.0.0.2:2379]
        store.maxPoolSize: 20
        http: {port: 9000}
        """);
    NodeConfig config =
        load(
            file,
            Map.of("BATON_LEASE_TTL", "5s", "BATON_HTTP_PORT", "9100"),
            Map.of("http.port", "9200"));
    assertThat(config.nodeId()).isEqualTo("from-file");
    assertThat(config.lease().ttl()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.lease().endpoints())
        .containsExactly("http://10.0.0.1:2379", "http://10.0.0.2:2379");
    assertThat(config.lease().prefix()).isEqualTo("/baton/prod/");
    assertThat(config.store().maxPoolSize()).isEqualTo(20);
    assertThat(config.http().port()).isEqualTo(9200);
  }

  @Test
  void an_unknown_key_in_the_file_names_the_key_the_file_and_a_suggestion() throws IOException {
    Path file = file("lease:\n  tll: 5s\n");
    assertThatThrownBy(() -> load(file, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown key 'lease.tll'")
        .hasMessageContaining(file.toString())
        .hasMessageContaining("did you mean 'lease.ttl'");
  }

  @Test
  void a_bad_duration_names_the_key_the_value_and_its_source() throws IOException {
    Path file = file("recovery:\n  checkInterval: 10\n");
    assertThatThrownBy(() -> load(file, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("recovery.checkInterval")
        .hasMessageContaining("'10'")
        .hasMessageContaining(file.toString())
        .hasMessageContaining("number with a unit");
  }

  @Test
  void a_bad_environment_value_names_the_variable() {
    assertThatThrownBy(
            () -> load(null, Map.of("BATON_EXECUTION_MAX_CONCURRENT_RUNS", "lots"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("execution.maxConcurrentRuns")
        .hasMessageContaining("environment variable BATON_EXECUTION_MAX_CONCURRENT_RUNS");
  }

  @Test
  void backends_are_named_in_lower_case_in_the_file_the_environment_and_flags() throws IOException {
    Path file =
        file(
            """
        store: {type: memory}
        lease.type: local
        """);
    NodeConfig fromFile = load(file, Map.of(), Map.of());
    assertThat(fromFile.store().type()).isEqualTo(StoreBackend.MEMORY);
    assertThat(fromFile.lease().type()).isEqualTo(LeaseBackend.LOCAL);
    NodeConfig fromEnv = load(null, Map.of("BATON_STORE_TYPE", "embedded"), Map.of());
    assertThat(fromEnv.store().type()).isEqualTo(StoreBackend.EMBEDDED);
    NodeConfig fromFlags = load(null, Map.of(), Map.of("lease.type", "etcd"));
    assertThat(fromFlags.lease().type()).isEqualTo(LeaseBackend.ETCD);
    assertThatThrownBy(() -> load(null, Map.of(), Map.of("lease.type", "zookeeper")))
        .hasMessageContaining("lease.type")
        .hasMessageContaining("etcd, local");
    assertThatThrownBy(() -> load(null, Map.of("BATON_STORE_TYPE", "POSTGRES"), Map.of()))
        .hasMessageContaining("store.type")
        .hasMessageContaining("BATON_STORE_TYPE")
        .hasMessageContaining("postgres, embedded, memory");
  }

  @Test
  void bad_choices_ports_and_non_positive_values_are_refused_with_the_allowed_values() {
    assertThatThrownBy(() -> load(null, Map.of(), Map.of("store.type", "mysql")))
        .hasMessageContaining("store.type")
        .hasMessageContaining("postgres, embedded, memory")
        .hasMessageContaining("flag --store-type");
    assertThatThrownBy(() -> load(null, Map.of(), Map.of("http.port", "70000")))
        .hasMessageContaining("http.port")
        .hasMessageContaining("65535");
    assertThatThrownBy(() -> load(null, Map.of(), Map.of("lease.ttl", "0s")))
        .hasMessageContaining("lease.ttl")
        .hasMessageContaining("longer than zero");
    assertThatThrownBy(() -> load(null, Map.of(), Map.of("recovery.enabled", "yes")))
        .hasMessageContaining("recovery.enabled")
        .hasMessageContaining("true or false");
  }

  @Test
  void a_missing_file_or_a_file_that_is_not_a_mapping_is_reported() throws IOException {
    assertThatThrownBy(() -> load(dir.resolve("absent.yaml"), Map.of(), Map.of()))
        .hasMessageContaining("absent.yaml")
        .hasMessageContaining("does not exist");
    Path list = file("- a\n- b\n");
    assertThatThrownBy(() -> load(list, Map.of(), Map.of()))
        .hasMessageContaining("must be a mapping");
  }

  @Test
  void environment_names_and_flags_follow_the_key_names() {
    assertThat(ConfigKeys.LEASE_TTL.envName()).isEqualTo("BATON_LEASE_TTL");
    assertThat(ConfigKeys.STORE_MAX_POOL_SIZE.envName()).isEqualTo("BATON_STORE_MAX_POOL_SIZE");
    assertThat(ConfigKeys.NODE_ID.envName()).isEqualTo("BATON_NODE_ID");
    assertThat(ConfigKeys.EXECUTION_DRAIN_TIMEOUT.flagName())
        .isEqualTo("--execution-drain-timeout");
    assertThat(ConfigKeys.all()).extracting(ConfigKey::name).doesNotHaveDuplicates();
  }

  @Test
  void the_configuration_page_lists_every_key_as_the_code_defines_it() throws IOException {
    Path page =
        Path.of(System.getProperty("maven.multiModuleProjectDirectory", ".."))
            .resolve("docs/configuration.md");
    if (Boolean.getBoolean("baton.docs.write")) {
      Files.writeString(page, ConfigDocs.markdown());
    }
    assertThat(Files.readString(page))
        .as("docs/configuration.md is stale: regenerate with -Dbaton.docs.write=true")
        .isEqualTo(ConfigDocs.markdown());
    assertThat(ConfigDocs.markdown())
        .contains(List.of("`lease.ttl`", "`store.type`", "`flows.dir`"));
  }
}

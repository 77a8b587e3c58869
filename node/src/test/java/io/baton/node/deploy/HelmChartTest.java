package io.baton.node.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.baton.node.auth.OidcSettings;
import io.baton.node.config.ConfigKeys;
import io.baton.node.config.ConfigLoader;
import io.baton.node.config.NodeConfig;
import io.baton.node.http.HttpApi;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Helm chart, linted and rendered by Helm itself in the JVM with several values files, read
 * strictly into the Kubernetes model, and checked for what a platform team requires: the
 * "restricted" Pod Security profile, a grace period longer than preStop plus drain, probes on the
 * node's real health paths and port, every credential from a Secret, migrations in a hook Job that
 * never blocks the next upgrade, a schema that rejects unknown keys, and plain manifests in
 * deploy/kubernetes that are the chart's current output.
 */
class HelmChartTest {
  static final Path ROOT = Path.of(System.getProperty("baton.root", "..")).toAbsolutePath();
  static final Path CHART = ROOT.resolve("deploy/helm/baton");
  private static final Path GENERATED = ROOT.resolve("deploy/kubernetes/baton.yaml");
  private static final Path GENERATED_VALUES = ROOT.resolve("deploy/kubernetes/values.yaml");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  static Stream<String> valuesFiles() {
    return Stream.of("defaults", "full.yaml", "minimal.yaml");
  }

  /**
   * helm-java's {@code template} prints the release's manifest without its hooks, so the chart is
   * rendered from a copy whose hook annotations are renamed: the migration Job shows up, and its
   * annotations are checked under {@link #HOOK}.
   */
  static final String HOOK = "baton.test/hook";

  private static Path chartWithHooksShown;

  static synchronized Path chart() {
    if (chartWithHooksShown == null) {
      try {
        Path copy = Files.createTempDirectory("baton-chart");
        try (Stream<Path> files = Files.walk(CHART)) {
          for (Path file : files.toList()) {
            Path target = copy.resolve(CHART.relativize(file).toString());
            if (Files.isDirectory(file)) {
              Files.createDirectories(target);
            } else {
              Files.writeString(target, Files.readString(file).replace("helm.sh/hook", HOOK));
            }
          }
        }
        chartWithHooksShown = copy;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return chartWithHooksShown;
  }

  static RenderedChart render(String values) {
    var template = new Helm(chart()).template().withName("baton").withNamespace("workflows");
    if (!values.equals("defaults")) {
      template = template.withValuesFile(resource(values));
    }
    return new RenderedChart(template.call());
  }

  private static Path resource(String name) {
    return Path.of("src/test/resources/helm", name).toAbsolutePath();
  }

  @Test
  void the_chart_passes_helm_lint_strictly() {
    LintResult lint = new Helm(CHART).lint().strict().call();

    assertThat(lint.isFailed()).as("%s", lint.getMessages()).isFalse();
  }

  @ParameterizedTest
  @MethodSource("valuesFiles")
  void every_rendered_field_is_one_kubernetes_knows(String values) {
    RenderedChart chart = render(values);

    assertThat(chart.objects()).isNotEmpty();
    assertThat(chart.unknownFields()).isEmpty();
  }

  @Test
  void a_field_kubernetes_does_not_know_is_found() {
    RenderedChart typo =
        new RenderedChart(
            "apiVersion: v1\nkind: Service\nmetadata: {name: x}\n"
                + "spec: {selectr: {a: b}, ports: [{port: 80, targetPrt: 8080}]}\n");

    assertThat(typo.unknownFields())
        .containsExactlyInAnyOrder("Service.spec.selectr", "Service.spec.ports[0].targetPrt");
  }

  @ParameterizedTest
  @MethodSource("valuesFiles")
  void every_pod_meets_the_restricted_pod_security_profile(String values) {
    RenderedChart chart = render(values);
    List<PodSpec> pods = new ArrayList<>();
    pods.add(chart.one(StatefulSet.class).getSpec().getTemplate().getSpec());
    chart.all(Job.class).forEach(job -> pods.add(job.getSpec().getTemplate().getSpec()));

    for (PodSpec pod : pods) {
      assertRestricted(pod);
    }
  }

  private static void assertRestricted(PodSpec pod) {
    PodSecurityContext podContext = pod.getSecurityContext();
    assertThat(podContext.getRunAsNonRoot()).isTrue();
    assertThat(podContext.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
    assertThat(pod.getHostPID()).isNotEqualTo(Boolean.TRUE);
    assertThat(pod.getHostIPC()).isNotEqualTo(Boolean.TRUE);
    assertThat(pod.getVolumes()).allMatch(v -> v.getHostPath() == null);
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
    for (Container container : pod.getContainers()) {
      SecurityContext context = container.getSecurityContext();
      assertThat(context.getAllowPrivilegeEscalation()).as(container.getName()).isFalse();
      assertThat(context.getPrivileged()).isNotEqualTo(Boolean.TRUE);
      assertThat(context.getCapabilities().getDrop()).containsExactly("ALL");
      assertThat(context.getCapabilities().getAdd()).isNullOrEmpty();
      assertThat(context.getReadOnlyRootFilesystem()).isTrue();
      assertThat(context.getRunAsNonRoot()).isTrue();
      assertThat(context.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
      VolumeMount tmp =
          container.getVolumeMounts().stream()
              .filter(m -> m.getMountPath().equals("/tmp"))
              .findFirst()
              .orElseThrow(() -> new AssertionError(container.getName() + " has no /tmp"));
      Volume volume =
          pod.getVolumes().stream()
              .filter(v -> v.getName().equals(tmp.getName()))
              .findFirst()
              .get();
      assertThat(volume.getEmptyDir()).as("/tmp is an emptyDir").isNotNull();
      assertThat(tmp.getReadOnly()).isNotEqualTo(Boolean.TRUE);
    }
  }

  @ParameterizedTest
  @MethodSource("valuesFiles")
  void the_grace_period_covers_the_pre_stop_pause_and_the_drain(String values) throws IOException {
    RenderedChart chart = render(values);
    PodSpec pod = chart.one(StatefulSet.class).getSpec().getTemplate().getSpec();
    Container node = pod.getContainers().get(0);
    long preStop = node.getLifecycle().getPreStop().getSleep().getSeconds();

    assertThat(preStop).isPositive();
    assertThat(pod.getTerminationGracePeriodSeconds())
        .isGreaterThan(preStop + drainSeconds(nodeConfig(chart)));
  }

  private static long drainSeconds(JsonNode config) {
    String drain = config.at("/execution/drainTimeout").asText();
    if (drain.endsWith("ms")) {
      return (Long.parseLong(drain.replace("ms", "")) + 999) / 1000;
    }
    long amount = Long.parseLong(drain.substring(0, drain.length() - 1));
    return switch (drain.charAt(drain.length() - 1)) {
      case 's' -> amount;
      case 'm' -> amount * 60;
      case 'h' -> amount * 3600;
      default -> throw new AssertionError("drainTimeout " + drain);
    };
  }

  @ParameterizedTest
  @MethodSource("valuesFiles")
  void probes_ask_the_nodes_health_paths_on_its_api_port(String values) throws IOException {
    RenderedChart chart = render(values);
    Container node =
        chart.one(StatefulSet.class).getSpec().getTemplate().getSpec().getContainers().get(0);
    int apiPort = nodeConfig(chart).at("/http/port").asInt();

    assertThat(node.getPorts())
        .anyMatch(p -> p.getName().equals("http") && p.getContainerPort() == apiPort);
    assertThat(nodeConfig(chart).at("/http/host").asText()).isEqualTo("0.0.0.0");
    for (Probe probe : List.of(node.getStartupProbe(), node.getLivenessProbe())) {
      assertThat(probe.getHttpGet().getPath()).isEqualTo(HttpApi.LIVE_PATH);
      assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
    }
    assertThat(node.getReadinessProbe().getHttpGet().getPath()).isEqualTo(HttpApi.READY_PATH);
    for (Service service : chart.all(Service.class)) {
      assertThat(service.getSpec().getPorts())
          .allMatch(p -> p.getTargetPort().getStrVal().equals("http"));
    }
  }

  @ParameterizedTest
  @MethodSource("valuesFiles")
  void every_credential_comes_from_a_secret(String values) throws IOException {
    RenderedChart chart = render(values);
    List<Container> containers = new ArrayList<>();
    containers.addAll(
        chart.one(StatefulSet.class).getSpec().getTemplate().getSpec().getContainers());
    chart
        .all(Job.class)
        .forEach(j -> containers.addAll(j.getSpec().getTemplate().getSpec().getContainers()));

    for (Container container : containers) {
      for (EnvVar env : container.getEnv()) {
        if (env.getName().matches(".*(PASSWORD|SECRET|TOKEN|KEY).*")) {
          assertThat(env.getValue()).as(env.getName()).isNull();
          assertThat(env.getValueFrom().getSecretKeyRef()).as(env.getName()).isNotNull();
        }
      }
      assertThat(container.getEnv()).anyMatch(e -> e.getName().equals("BATON_STORE_PASSWORD"));
    }
    assertThat(chart.text()).doesNotContainIgnoringCase("password:");
    assertThat(chart.all(Secret.class)).isEmpty();
  }

  @Test
  void migrations_run_in_a_hook_job_and_the_nodes_never_migrate() throws IOException {
    RenderedChart chart = render("full.yaml");
    Job job = chart.one(Job.class);
    Map<String, String> annotations = job.getMetadata().getAnnotations();

    assertThat(annotations.get(HOOK).split(",")).contains("pre-install", "pre-upgrade");
    assertThat(annotations.get(HOOK + "-delete-policy")).contains("before-hook-creation");
    assertThat(job.getSpec().getActiveDeadlineSeconds()).isPositive();
    assertThat(job.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
    Container migrate = job.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(migrate.getArgs()).containsExactly("migrate");
    assertThat(migrate.getEnv())
        .anyMatch(
            e -> e.getName().equals("BATON_STORE_URL") && e.getValue().contains("pg.example.com"))
        .anyMatch(e -> e.getName().equals("BATON_STORE_SSL_MODE"));
    assertThat(migrate.getEnv().stream().map(EnvVar::getName))
        .allMatch(name -> name.equals("JAVA_TOOL_OPTIONS") || isConfigKeyEnv(name));
    assertThat(nodeConfig(chart).at("/store/migrate").asBoolean(true)).isFalse();
    // The Job's pod is not a node: the Services and the budget must not select it.
    assertThat(job.getSpec().getTemplate().getMetadata().getLabels())
        .doesNotContainEntry("app.kubernetes.io/component", "node");
    assertThat(chart.one(StatefulSet.class).getSpec().getSelector().getMatchLabels())
        .containsEntry("app.kubernetes.io/component", "node");
    for (Service service : chart.all(Service.class)) {
      assertThat(service.getSpec().getSelector())
          .containsEntry("app.kubernetes.io/component", "node");
    }
  }

  private static boolean isConfigKeyEnv(String name) {
    return ConfigKeys.all().stream().anyMatch(key -> key.envName().equals(name));
  }

  @Test
  void the_disruption_budget_lets_one_node_go_and_never_blocks_on_unhealthy_pods() {
    PodDisruptionBudget budget = render("defaults").one(PodDisruptionBudget.class);

    assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
    assertThat(budget.getSpec().getUnhealthyPodEvictionPolicy()).isEqualTo("AlwaysAllow");
  }

  @Test
  void the_network_policy_opens_the_api_port_only_and_egress_to_postgres_etcd_and_dns() {
    NetworkPolicy policy = render("full.yaml").one(NetworkPolicy.class);

    assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
    assertThat(policy.getSpec().getIngress())
        .allMatch(
            rule -> rule.getPorts().stream().allMatch(p -> p.getPort().getStrVal().equals("http")))
        .allMatch(rule -> !rule.getFrom().isEmpty());
    Set<Integer> egressPorts =
        policy.getSpec().getEgress().stream()
            .flatMap(rule -> rule.getPorts().stream())
            .map(NetworkPolicyPort::getPort)
            .filter(port -> port.getIntVal() != null)
            .map(port -> port.getIntVal())
            .collect(Collectors.toSet());
    assertThat(egressPorts).contains(53, 5432, 2379);
  }

  @Test
  void the_optional_parts_render_when_asked_for() {
    RenderedChart full = render("full.yaml");
    RenderedChart minimal = render("minimal.yaml");

    assertThat(
            full.one(StatefulSet.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getEnv())
        .anyMatch(e -> e.getName().equals("OTEL_EXPORTER_OTLP_ENDPOINT"));
    assertThat(
            minimal
                .one(StatefulSet.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getEnv())
        .noneMatch(e -> e.getName().startsWith("OTEL_"));
    assertThat(full.custom("ServiceMonitor")).hasSize(1);
    assertThat(full.custom("PrometheusRule")).hasSize(1);
    assertThat(full.all(HorizontalPodAutoscaler.class)).hasSize(1);
    assertThat(full.one(StatefulSet.class).getSpec().getReplicas())
        .as("the HPA owns replicas")
        .isNull();
    assertThat(minimal.all(NetworkPolicy.class)).isEmpty();
    assertThat(minimal.all(Job.class)).isEmpty();
    assertThat(minimal.all(PodDisruptionBudget.class)).isEmpty();
  }

  @Test
  void the_schema_rejects_unknown_keys() {
    assertThatThrownBy(() -> new Helm(CHART).template().set("replica", 3).call())
        .hasMessageContaining("replica");
    assertThatThrownBy(() -> new Helm(CHART).template().set("config.store.pasword", "x").call())
        .hasMessageContaining("pasword");
    assertThatThrownBy(() -> new Helm(CHART).template().set("store.existingSecret", "").call())
        .hasMessageContaining("existingSecret");
  }

  /** The node configuration a rendered chart gives its pods, read as a node reads it. */
  private static NodeConfig loadedNodeConfig(RenderedChart chart) throws IOException {
    Path file = Files.createTempFile("baton", ".yaml");
    Files.writeString(file, chart.one(ConfigMap.class).getData().get("baton.yaml"));
    return NodeConfig.from(ConfigLoader.load(file, Map.of(), Map.of(), Map.of()));
  }

  @Test
  void oidc_values_become_the_nodes_auth_oidc_configuration() throws IOException {
    NodeConfig full = loadedNodeConfig(render("full.yaml"));
    OidcSettings oidc = full.auth().oidc();
    assertThat(oidc.issuer()).isEqualTo("https://idp.example.com/realms/ops");
    assertThat(oidc.audience()).isEqualTo("baton-api");
    assertThat(oidc.jwksUrl()).as("found through discovery").isNull();
    assertThat(oidc.roleClaim()).isEqualTo("baton_roles");
    assertThat(oidc.nameClaim()).isEqualTo("sub");
    assertThat(oidc.flowsClaim()).isEqualTo("baton_flows");
    assertThat(full.auth().dashboardSignIn().clientId()).isEqualTo("baton-dashboard");
    assertThat(full.auth().dashboardSignIn().scope()).isEqualTo("openid profile");

    NodeConfig defaults = loadedNodeConfig(render("defaults"));
    assertThat(defaults.auth().required()).isTrue();
    assertThat(defaults.auth().oidc()).as("no issuer, no OIDC").isNull();
    assertThat(nodeConfig(render("defaults")).at("/auth/oidc").isMissingNode()).isTrue();
  }

  @Test
  void oidc_values_that_the_node_would_refuse_fail_the_install_with_the_key() {
    String issuer = "https://idp.example.com/realms/ops";
    assertThatThrownBy(() -> new Helm(CHART).template().set("auth.oidc.issuer", issuer).call())
        .hasMessageContaining("auth.oidc.audience is required with auth.oidc.issuer");
    assertThatThrownBy(
            () ->
                new Helm(CHART)
                    .template()
                    .set("auth.oidc.issuer", issuer)
                    .set("auth.oidc.audience", "baton-api")
                    .set("auth.keysSecret", "")
                    .call())
        .hasMessageContaining("auth.oidc.issuer needs auth.keysSecret");
    assertThatThrownBy(
            () -> new Helm(CHART).template().set("auth.oidc.flowsClaim", "baton_flows").call())
        .hasMessageContaining("auth.oidc.flowsClaim needs auth.oidc.issuer");
    assertThatThrownBy(
            () -> new Helm(CHART).template().set("auth.oidc.flowsClaim", "billing-* ops").call())
        .hasMessageContaining("flowsClaim");
    assertThatThrownBy(() -> new Helm(CHART).template().set("auth.oidc.isuer", issuer).call())
        .hasMessageContaining("isuer");
  }

  @Test
  void the_schema_names_only_real_configuration_keys() throws IOException {
    JsonNode schema = YAML.readTree(CHART.resolve("values.schema.json").toFile());
    JsonNode config = schema.at("/properties/config/properties");
    List<String> keys = new ArrayList<>();
    for (Iterator<String> sections = config.fieldNames(); sections.hasNext(); ) {
      String section = sections.next();
      JsonNode properties = config.get(section).get("properties");
      if (properties == null) {
        keys.add(section);
        continue;
      }
      properties.fieldNames().forEachRemaining(key -> keys.add(section + "." + key));
    }
    Set<String> known = ConfigKeys.all().stream().map(k -> k.name()).collect(Collectors.toSet());

    assertThat(known).containsAll(keys);
    List<String> oidc = new ArrayList<>();
    schema
        .at("/properties/auth/properties/oidc/properties")
        .fieldNames()
        .forEachRemaining(key -> oidc.add("auth.oidc." + key));
    assertThat(oidc).isNotEmpty();
    assertThat(known).containsAll(oidc);
  }

  @Test
  void the_plain_manifests_are_the_charts_current_output() throws IOException {
    String rendered =
        "# Generated from deploy/helm/baton with deploy/kubernetes/values.yaml by HelmChartTest\n"
            + "# (mvn test -Dtest=HelmChartTest -Dbaton.regenerate=true). Do not edit by hand.\n"
            + new Helm(chart())
                .template()
                .withName("baton")
                .withNamespace("baton")
                .withValuesFile(GENERATED_VALUES)
                .call()
                .replace(HOOK, "helm.sh/hook");
    if (Boolean.getBoolean("baton.regenerate")) {
      Files.writeString(GENERATED, rendered);
    }

    assertThat(Files.readString(GENERATED))
        .as("deploy/kubernetes/baton.yaml is stale: rerun with -Dbaton.regenerate=true")
        .isEqualTo(rendered);
    assertThat(new RenderedChart(rendered).unknownFields()).isEmpty();
  }

  static JsonNode nodeConfig(RenderedChart chart) throws IOException {
    ConfigMap map = chart.one(ConfigMap.class);
    return YAML.readTree(map.getData().get("baton.yaml"));
  }
}

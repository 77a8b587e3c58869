package io.baton.node.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.baton.node.Main;
import io.baton.node.config.ConfigKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The image's Dockerfile, checked without a Docker engine (none can pull a base image here): it
 * builds from source in a stage of its own, copies every module the node needs, runs the real main
 * class as the numeric non-root user that the chart's security context names, carries the OCI
 * labels, and keeps build output out of the context.
 */
class DockerfileTest {
  private static final Path ROOT = HelmChartTest.ROOT;
  private static final Pattern FROM = Pattern.compile("(?m)^FROM\\s+(\\S+)(?:\\s+AS\\s+(\\S+))?");

  private static String dockerfile() throws IOException {
    return Files.readString(ROOT.resolve("deploy/Dockerfile")).replace("\\\n", " ");
  }

  /** The instructions of the last stage. */
  private static String runtimeStage() throws IOException {
    String text = dockerfile();
    Matcher from = FROM.matcher(text);
    int last = -1;
    while (from.find()) {
      last = from.start();
    }
    return text.substring(last);
  }

  @Test
  void it_builds_in_one_stage_and_runs_from_another_on_pinned_images() throws IOException {
    Matcher from = FROM.matcher(dockerfile());
    List<String> stages = new ArrayList<>();
    while (from.find()) {
      assertThat(from.group(2)).as("stage %s is named", from.group(1)).isNotNull();
      assertThat(from.group(1)).contains(":").doesNotEndWith(":latest");
      stages.add(from.group(2));
    }

    assertThat(stages).containsExactly("build", "runtime");
    assertThat(runtimeStage()).contains("-jre").contains("COPY --from=build");
  }

  @Test
  void it_runs_as_the_non_root_user_the_chart_names() throws IOException {
    Matcher user = Pattern.compile("(?m)^USER\\s+(\\d+)(?::(\\d+))?\\s*$").matcher(runtimeStage());
    assertThat(user.find()).as("a numeric USER in the runtime stage").isTrue();
    int uid = Integer.parseInt(user.group(1));
    JsonNode values =
        new ObjectMapper(new YAMLFactory())
            .readTree(HelmChartTest.CHART.resolve("values.yaml").toFile());

    assertThat(uid).isPositive();
    assertThat(values.at("/podSecurityContext/runAsUser").asInt()).isEqualTo(uid);
    assertThat(values.at("/podSecurityContext/runAsGroup").asInt())
        .isEqualTo(Integer.parseInt(user.group(2)));
  }

  @Test
  void it_starts_the_real_main_class_in_exec_form_on_the_default_port() throws IOException {
    String runtime = runtimeStage();
    Matcher entrypoint = Pattern.compile("(?m)^ENTRYPOINT\\s+(\\[.*])\\s*$").matcher(runtime);
    assertThat(entrypoint.find()).as("ENTRYPOINT in exec form").isTrue();
    JsonNode command = new ObjectMapper().readTree(entrypoint.group(1));

    assertThat(command.get(0).asText()).isEqualTo("java");
    assertThat(command.get(command.size() - 1).asText()).isEqualTo(Main.class.getName());
    assertThat(runtime).containsPattern("(?m)^EXPOSE " + ConfigKeys.HTTP_PORT.defaultValue() + "$");
  }

  @Test
  void it_copies_and_packages_every_module_the_node_is_built_from() throws IOException {
    String text = dockerfile();
    Matcher modules =
        Pattern.compile("<module>([^<]+)</module>")
            .matcher(Files.readString(ROOT.resolve("pom.xml")));
    while (modules.find()) {
      String module = modules.group(1);
      assertThat(Files.isDirectory(ROOT.resolve(module))).isTrue();
      if (module.equals("gates")) {
        assertThat(text).contains("COPY gates/pom.xml gates/");
        continue;
      }
      assertThat(text).containsPattern("(?m)^COPY " + module + " " + module + "$");
      if (module.equals("client")) {
        // the application-side library: built with the node for its tests, never run by it
        assertThat(text).doesNotContainPattern("for module in [^;]*\\bclient\\b");
        continue;
      }
      assertThat(text).containsPattern("for module in [^;]*\\b" + module + "\\b");
    }
  }

  @Test
  void it_carries_the_oci_labels() throws IOException {
    for (String label : List.of("title", "version", "revision", "created", "source")) {
      assertThat(runtimeStage()).contains("org.opencontainers.image." + label + "=");
    }
  }

  @Test
  void build_output_stays_out_of_the_context() throws IOException {
    assertThat(Files.readAllLines(ROOT.resolve(".dockerignore"))).contains("**/target/", ".git/");
  }
}

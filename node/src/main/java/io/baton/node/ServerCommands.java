package io.baton.node;

import io.baton.node.config.ConfigKeys;
import io.baton.node.config.LeaseBackend;
import io.baton.node.config.StoreBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code baton node}, {@code baton dev} and {@code baton migrate}: the commands of a node. */
final class ServerCommands {
  private ServerCommands() {}

  @Command(
      name = "node",
      mixinStandardHelpOptions = true,
      description = "Run a Baton node (configuration: --config FILE, BATON_* variables, flags).")
  static final class NodeCommand implements Callable<Integer> {
    @Mixin NodeOptions options = new NodeOptions();

    @Override
    public Integer call() {
      return ServerProcess.run(options, Map.of(), System.err);
    }
  }

  @Command(
      name = "migrate",
      mixinStandardHelpOptions = true,
      description =
          "Migrate the PostgreSQL schema to this Baton's version and exit (idempotent). "
              + "Exit codes: 0 current, 1 failed, 2 bad configuration, 7 schema newer than "
              + "this Baton.")
  static final class MigrateCommand implements Callable<Integer> {
    @Mixin NodeOptions options = new NodeOptions();

    @Override
    public Integer call() {
      return MigrateProcess.run(options, System.out, System.err);
    }
  }

  @Command(
      name = "dev",
      mixinStandardHelpOptions = true,
      description =
          "Run one node with no external services: an embedded store in ./baton-data, "
              + "an in-process lease, the flows in ./examples, the API on 127.0.0.1:8080.")
  static final class DevCommand implements Callable<Integer> {
    @Mixin NodeOptions options = new NodeOptions();

    @Override
    public Integer call() {
      return ServerProcess.run(options, presets(), System.err);
    }

    static Map<String, String> presets() {
      Map<String, String> presets = new LinkedHashMap<>();
      presets.put(ConfigKeys.NODE_ID.name(), "dev");
      presets.put(ConfigKeys.STORE_TYPE.name(), StoreBackend.EMBEDDED.configName());
      presets.put(ConfigKeys.STORE_DATA_DIR.name(), "baton-data");
      presets.put(ConfigKeys.LEASE_TYPE.name(), LeaseBackend.LOCAL.configName());
      presets.put(ConfigKeys.LEASE_TTL.name(), "5s");
      presets.put(ConfigKeys.AUTH_MODE.name(), "none");
      presets.put(ConfigKeys.EGRESS_ALLOW_LOOPBACK.name(), "true");
      // one node on a laptop: start at once, nobody routes traffic by readiness
      presets.put(ConfigKeys.WARMUP_RUNS.name(), "0");
      if (Files.isDirectory(Path.of("examples"))) {
        presets.put(ConfigKeys.FLOWS_DIR.name(), "examples");
      }
      return presets;
    }
  }
}

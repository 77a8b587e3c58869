package io.baton.store.postgres.bench;

import io.baton.store.postgres.testkit.PostgresServer;
import io.baton.store.postgres.testkit.TestDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machine's own rate for the journal's transaction, measured by {@code pgbench} on Baton's
 * schema: {@code BEGIN; UPDATE runs SET latest_seq = latest_seq + 1 WHERE id = ? AND owner_token =
 * ? RETURNING latest_seq; INSERT INTO journal ...; END}, one run tree per client, the event a step
 * completion as Baton writes it (text parsed into jsonb).
 */
final class PgBench {
  static final long TOKEN = 7;

  private static final String SCRIPT =
      String.join(
          "\n",
          "BEGIN;",
          "UPDATE runs SET latest_seq = latest_seq + 1"
              + " WHERE id = ('00000000-0000-0000-0000-' || lpad(:client_id::text, 12, '0'))::uuid"
              + " AND owner_token = "
              + TOKEN
              + " RETURNING latest_seq AS seq \\gset",
          "INSERT INTO journal (root_run_id, seq, run_id, ts, event) VALUES"
              + " (('00000000-0000-0000-0000-' || lpad(:client_id::text, 12, '0'))::uuid, :seq,"
              + " ('00000000-0000-0000-0000-' || lpad(:client_id::text, 12, '0'))::uuid, now(),"
              + " ('{\"type\":\"StepCompleted\",\"step\":\"step-' || :seq || '\",\"attempt\":1,"
              + "\"output\":{\"n\":' || :seq || '},\"startedAt\":\"2026-03-01T10:15:30.123456Z\"}')"
              + "::jsonb);",
          "END;",
          "");

  private static final Pattern TPS =
      Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");
  private static final Pattern LATENCY = Pattern.compile("latency average = ([0-9.]+) ms");

  /** What pgbench reported. */
  record Result(double transactionsPerSecond, double meanLatencyMillis, long transactions) {}

  private final Path executable;
  private final PostgresServer server;
  private final TestDatabase database;

  PgBench(Path executable, PostgresServer server, TestDatabase database) {
    this.executable = executable;
    this.server = server;
    this.database = database;
  }

  /** pgbench from {@code bindir} if it has one, else from the PATH. */
  static Path find(Path bindir) {
    if (bindir != null && Files.isExecutable(bindir.resolve("pgbench"))) {
      return bindir.resolve("pgbench");
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path candidate = Paths.get(dir, "pgbench");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("pgbench is not installed (Debian: postgresql-client)");
  }

  /** Creates the run rows the clients append to, one per client, fence {@link #TOKEN}. */
  void prepare(int clients) throws SQLException {
    try (Connection connection = database.connect();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "INSERT INTO runs (id, root_run_id, flow_name, flow_hash, status, input, output,"
              + " orchestrator_id, owner_token, latest_seq, created_at, updated_at)"
              + " SELECT id, id, 'bench', 'bench', 'RUNNING', '{}', 'null', 'pgbench', "
              + TOKEN
              + ", 0, now(), now() FROM (SELECT ('00000000-0000-0000-0000-' ||"
              + " lpad(g::text, 12, '0'))::uuid AS id FROM generate_series(0, "
              + (clients - 1)
              + ") g) ids ON CONFLICT (id) DO NOTHING");
    }
  }

  /** Runs the script with {@code clients} connections, for a time or a number of transactions. */
  Result run(int clients, int threads, String limit) throws IOException, InterruptedException {
    Path script = Files.createTempFile("baton-pgbench-", ".sql");
    try {
      Files.writeString(script, SCRIPT);
      List<String> command =
          new ArrayList<>(
              List.of(
                  executable.toString(),
                  "-n",
                  "-M",
                  "prepared",
                  "-c",
                  String.valueOf(clients),
                  "-j",
                  String.valueOf(threads),
                  "-h",
                  server.host(),
                  "-p",
                  String.valueOf(server.port()),
                  "-U",
                  server.user(),
                  "-f",
                  script.toString()));
      command.addAll(List.of(limit.split(" ")));
      command.add(database.name());
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      Map<String, String> environment = builder.environment();
      environment.put("PGPASSWORD", server.password());
      environment.put("PGSSLMODE", "disable");
      Process process = builder.start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new IllegalStateException("pgbench failed:\n" + output);
      }
      return new Result(number(TPS, output), number(LATENCY, output), processed(output));
    } finally {
      Files.deleteIfExists(script);
    }
  }

  private static double number(Pattern pattern, String output) {
    Matcher matcher = pattern.matcher(output);
    if (!matcher.find()) {
      throw new IllegalStateException("unexpected pgbench output:\n" + output);
    }
    return Double.parseDouble(matcher.group(1));
  }

  private static long processed(String output) {
    Matcher matcher =
        Pattern.compile("number of transactions actually processed: ([0-9]+)").matcher(output);
    return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
  }
}

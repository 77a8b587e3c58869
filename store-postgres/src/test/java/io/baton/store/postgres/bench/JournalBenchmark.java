package io.baton.store.postgres.bench;

import com.sun.management.OperatingSystemMXBean;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresStoreConfig;
import io.baton.store.postgres.PostgresStores;
import io.baton.store.postgres.testkit.PostgresServer;
import io.baton.store.postgres.testkit.PrivatePostgresCluster;
import io.baton.store.postgres.testkit.TestDatabase;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fenced appends per second for 1, 8 and 64 concurrent runs, straight to the journal and through
 * group commit, beside the machine's own pgbench rate for the same conditional-UPDATE-plus-INSERT
 * transaction. A command, not a test:
 *
 * <pre>
 * store-postgres/bench.sh [--seconds=10] [--warmup=3] [--runs=1,8,64] [--groups=256x1,256x2]
 *                         [--shared]
 * </pre>
 *
 * By default it runs on a private throwaway cluster (same binaries and machine; isolated from other
 * databases, room for 64 clients, and its backends' CPU can be measured); {@code --shared} uses the
 * server of {@code BATON_TEST_PG_URL} instead. Prints a Markdown table.
 */
public final class JournalBenchmark {
  private final Options options;

  private JournalBenchmark(Options options) {
    this.options = options;
  }

  public static void main(String[] args) throws Exception {
    new JournalBenchmark(Options.parse(args)).run();
  }

  record Options(
      Duration measure, Duration warmUp, List<Integer> runs, List<int[]> groups, boolean shared) {
    static Options parse(String[] args) {
      Map<String, String> values = new LinkedHashMap<>();
      for (String arg : args) {
        for (String word : arg.trim().split("\\s+")) {
          if (word.isEmpty()) {
            continue;
          }
          if (!word.startsWith("--")) {
            throw new IllegalArgumentException("unknown argument " + word);
          }
          String[] pair = word.substring(2).split("=", 2);
          values.put(pair[0], pair.length > 1 ? pair[1] : "true");
        }
      }
      List<Integer> runs = new ArrayList<>();
      for (String n : values.getOrDefault("runs", "1,8,64").split(",")) {
        runs.add(Integer.parseInt(n));
      }
      List<int[]> groups = new ArrayList<>();
      for (String g : values.getOrDefault("groups", "256x1,256x2").split(",")) {
        String[] parts = g.split("x");
        groups.add(new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])});
      }
      return new Options(
          Duration.ofSeconds(Long.parseLong(values.getOrDefault("seconds", "10"))),
          Duration.ofSeconds(Long.parseLong(values.getOrDefault("warmup", "3"))),
          runs,
          groups,
          Boolean.parseBoolean(values.getOrDefault("shared", "false")));
    }
  }

  private void run() throws Exception {
    PrivatePostgresCluster cluster =
        options.shared()
            ? null
            : PrivatePostgresCluster.create("max_connections=200", "shared_buffers=256MB");
    try {
      PostgresServer server = cluster == null ? PostgresServer.fromEnvironment() : cluster.server();
      CpuMeter meter = cluster == null ? null : new CpuMeter(cluster.postmasterPid());
      Path bindir = cluster == null ? null : cluster.binaries();
      List<Row> rows = measure(server, meter, bindir);
      print(server, rows);
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  /** One line of the table: a way of appending, its result per run count. */
  private record Row(String name, Map<Integer, Figure> figures) {}

  private record Figure(
      double perSecond, double meanLatencyMs, double p99Ms, double batch, double[] cpuMicros) {}

  private List<Row> measure(PostgresServer server, CpuMeter meter, Path bindir) throws Exception {
    Row pgbench =
        new Row("pgbench: BEGIN; UPDATE … WHERE owner_token; INSERT; END", new LinkedHashMap<>());
    Row direct = new Row("Baton `append`, no group commit", new LinkedHashMap<>());
    List<Row> grouped = new ArrayList<>();
    for (int[] group : options.groups()) {
      grouped.add(
          new Row(
              "Baton group commit (maxBatch "
                  + group[0]
                  + ", "
                  + group[1]
                  + " committer"
                  + (group[1] == 1 ? "" : "s")
                  + ")",
              new LinkedHashMap<>()));
    }
    int[] last = options.groups().get(options.groups().size() - 1);
    Row lifecycles =
        new Row(
            "Baton group commit, whole 3-step runs (create+claim+start, 3 steps, complete;"
                + " maxBatch "
                + last[0]
                + ", "
                + last[1]
                + " committers): step completions/s",
            new LinkedHashMap<>());
    for (int runs : options.runs()) {
      try (TestDatabase database = TestDatabase.create(server, "journal bench " + runs)) {
        open(database, 2).close();
        pgbench.figures().put(runs, pgbench(bindir, server, database, runs, meter));
        direct.figures().put(runs, baton(database, runs, Math.min(runs, 64), 0, 0, false, meter));
        for (int i = 0; i < options.groups().size(); i++) {
          int[] group = options.groups().get(i);
          grouped
              .get(i)
              .figures()
              .put(runs, baton(database, runs, group[1], group[0], group[1], false, meter));
        }
        lifecycles
            .figures()
            .put(runs, baton(database, runs, last[1], last[0], last[1], true, meter));
      }
    }
    List<Row> rows = new ArrayList<>(List.of(pgbench, direct));
    rows.addAll(grouped);
    rows.add(lifecycles);
    return rows;
  }

  private Figure pgbench(
      Path bindir, PostgresServer server, TestDatabase database, int clients, CpuMeter meter)
      throws Exception {
    PgBench bench = new PgBench(PgBench.find(bindir), server, database);
    bench.prepare(clients);
    int threads = Math.min(clients, Runtime.getRuntime().availableProcessors());
    bench.run(clients, threads, "-T " + options.warmUp().toSeconds());
    double[] before = meter == null ? null : meter.read();
    PgBench.Result result = bench.run(clients, threads, "-T " + options.measure().toSeconds());
    double[] cpu = cpuPerOperation(meter, before, result.transactions());
    return new Figure(
        result.transactionsPerSecond(), result.meanLatencyMillis(), Double.NaN, 1, cpu);
  }

  private Figure baton(
      TestDatabase database,
      int runs,
      int poolSize,
      int maxBatch,
      int lanes,
      boolean lifecycles,
      CpuMeter meter)
      throws Exception {
    AppendLoad load;
    AppendLoad.Result result;
    double[] before;
    try (Stores stores = open(database, poolSize)) {
      load = new AppendLoad(stores.journal(), runs, lifecycles);
      try (AppendLoad.Path path =
          lanes == 0
              ? AppendLoad.direct(stores.journal())
              : AppendLoad.grouped(stores.journal(), maxBatch, lanes)) {
        load.runFor(path, options.warmUp(), Duration.ofMillis(1));
        before = meter == null ? null : meter.read();
        result = load.runFor(path, Duration.ZERO, options.measure());
      }
    }
    awaitBackendsGone(database);
    double[] cpu = cpuPerOperation(meter, before, result.appends());
    return new Figure(
        result.perSecond(),
        result.meanNanos() / 1e6,
        result.p99Nanos() / 1e6,
        result.meanBatch(),
        cpu);
  }

  private static Stores open(TestDatabase database, int poolSize) {
    PostgresStoreConfig config = database.config().maxPoolSize(poolSize).sslMode("disable").build();
    return PostgresStores.create(config, Clock.systemUTC());
  }

  private static double[] cpuPerOperation(CpuMeter meter, double[] before, long operations)
      throws IOException, InterruptedException {
    if (meter == null || operations == 0) {
      return null;
    }
    Thread.sleep(300); // let the postmaster reap the exited backends
    double[] after = meter.read();
    return new double[] {
      (after[0] - before[0]) * 1e6 / operations, (after[1] - before[1]) * 1e6 / operations
    };
  }

  private static void awaitBackendsGone(TestDatabase database)
      throws SQLException, InterruptedException {
    for (int i = 0; i < 100; i++) {
      try (Connection connection = database.connect();
          Statement statement = connection.createStatement();
          ResultSet rs =
              statement.executeQuery(
                  "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                      + " AND application_name = 'baton'")) {
        rs.next();
        if (rs.getInt(1) == 0) {
          return;
        }
      }
      Thread.sleep(50);
    }
  }

  private void print(PostgresServer server, List<Row> rows) throws Exception {
    StringBuilder out = new StringBuilder();
    out.append("Measured ").append(Instant.now()).append(" on ").append(machine()).append('\n');
    out.append("PostgreSQL: ")
        .append(serverVersion(server))
        .append(", ")
        .append(
            options.shared()
                ? "shared server " + server.adminUrl()
                : "private cluster (initdb defaults, fsync on, synchronous_commit on, shared_buffers 256MB)")
        .append('\n');
    out.append("Each figure: ")
        .append(options.measure().toSeconds())
        .append(" s after ")
        .append(options.warmUp().toSeconds())
        .append(" s warm-up; load average before: ")
        .append(Files.readString(Paths.get("/proc/loadavg")).trim())
        .append("\n\n");
    out.append("Appends (transactions for pgbench) per second, by concurrent runs:\n\n| |");
    for (int runs : options.runs()) {
      out.append(' ').append(runs).append(runs == 1 ? " run |" : " runs |");
    }
    out.append("\n|---|");
    options.runs().forEach(r -> out.append("---:|"));
    out.append('\n');
    for (Row row : rows) {
      out.append("| ").append(row.name()).append(" |");
      for (int runs : options.runs()) {
        out.append(String.format(Locale.ROOT, " %,.0f |", row.figures().get(runs).perSecond()));
      }
      out.append('\n');
    }
    out.append(
        "\nLatency per append (mean / p99 ms), mean batch size, CPU µs per append (JVM / PostgreSQL backends):\n\n");
    for (Row row : rows) {
      out.append("- ").append(row.name()).append(": ");
      List<String> cells = new ArrayList<>();
      for (int runs : options.runs()) {
        Figure f = row.figures().get(runs);
        String cpu =
            f.cpuMicros() == null
                ? ""
                : String.format(
                    Locale.ROOT, ", cpu %.0f/%.0f µs", f.cpuMicros()[0], f.cpuMicros()[1]);
        String p99 = Double.isNaN(f.p99Ms()) ? "" : String.format(Locale.ROOT, "/%.2f", f.p99Ms());
        String batch = f.batch() == 1 ? "" : String.format(Locale.ROOT, ", batch %.1f", f.batch());
        cells.add(
            String.format(
                Locale.ROOT, "%d: %.2f%s ms%s%s", runs, f.meanLatencyMs(), p99, batch, cpu));
      }
      out.append(String.join("; ", cells)).append('\n');
    }
    System.out.println(out);
  }

  private static String machine() throws IOException {
    String model =
        Files.readAllLines(Paths.get("/proc/cpuinfo")).stream()
            .filter(l -> l.startsWith("model name"))
            .findFirst()
            .map(l -> l.substring(l.indexOf(':') + 1).trim())
            .orElse("unknown CPU");
    long memory =
        ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
    return String.format(
        Locale.ROOT,
        "%d cores (%s), %d GiB, Java %s",
        Runtime.getRuntime().availableProcessors(),
        model,
        memory >> 30,
        System.getProperty("java.version"));
  }

  private static String serverVersion(PostgresServer server) throws SQLException {
    try (Connection connection = server.connectAdmin();
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SHOW server_version")) {
      rs.next();
      return rs.getString(1);
    }
  }
}

package io.baton.store.postgres.bench;

import io.baton.store.RunFilter;
import io.baton.store.RunPosition;
import io.baton.store.Stores;
import io.baton.store.postgres.PostgresMetadataStore;
import io.baton.store.postgres.PostgresStores;
import io.baton.store.postgres.testkit.TestDatabase;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * How long the operator's run listing takes on a large table: for each filter the dashboard offers,
 * a page of 50 runs, first pages and pages deep in the table (a cursor at a random place),
 * p50/p95/max in milliseconds, then each filter's plan. Prints figures, asserts nothing.
 *
 * <pre>
 * store-postgres/listing-bench.sh [--runs=1000000] [--samples=100] [--page=50]
 * </pre>
 *
 * Uses a throwaway database on the PostgreSQL the tests use ({@code BATON_TEST_PG_URL}, default
 * 127.0.0.1:5432) and drops it afterwards.
 */
public final class RunListingBenchmark {
  private final int runs;
  private final int samples;
  private final int page;

  RunListingBenchmark(int runs, int samples, int page) {
    this.runs = runs;
    this.samples = samples;
    this.page = page;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> values = new HashMap<>();
    for (String arg : String.join(" ", args).trim().split("\\s+", -1)) {
      if (arg.startsWith("--") && arg.contains("=")) {
        values.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
      }
    }
    new RunListingBenchmark(
            Integer.parseInt(values.getOrDefault("runs", "1000000")),
            Integer.parseInt(values.getOrDefault("samples", "100")),
            Integer.parseInt(values.getOrDefault("page", "50")))
        .run(true);
  }

  /** One filter's figures: milliseconds at p50, p95 and max, first and deep pages. */
  record Figures(String filter, int firstPageRows, double[] first, double[] deep) {}

  List<Figures> run(boolean print) throws Exception {
    try (TestDatabase database = TestDatabase.create("listing_bench");
        Stores stores = PostgresStores.create(database.config().build(), Clock.systemUTC())) {
      long started = System.nanoTime();
      try (Connection connection = database.connect()) {
        RunTable.fill(connection, runs);
      }
      double fillSeconds = (System.nanoTime() - started) / 1e9;
      PostgresMetadataStore metadata = (PostgresMetadataStore) stores.metadata();
      List<Figures> figures = new ArrayList<>();
      Random random = new Random(7);
      for (Map.Entry<String, RunFilter> filter : RunTable.filters(runs).entrySet()) {
        figures.add(measure(metadata, filter.getKey(), filter.getValue(), random));
      }
      if (print) {
        print(fillSeconds, figures);
        printPlans(metadata);
      }
      return figures;
    }
  }

  private Figures measure(
      PostgresMetadataStore metadata, String name, RunFilter filter, Random random) {
    for (int i = 0; i < 5; i++) {
      metadata.pageRuns(filter, null, page); // warm the cache and the pool
    }
    int rows = metadata.pageRuns(filter, null, page).runs().size();
    double[] first = new double[samples];
    double[] deep = new double[samples];
    long span = RunTable.SPACING.multipliedBy(runs).toMillis();
    for (int i = 0; i < samples; i++) {
      first[i] = timeMillis(() -> metadata.pageRuns(filter, null, page));
      RunPosition cursor =
          new RunPosition(
              RunTable.START.plus(Duration.ofMillis((long) (random.nextDouble() * span))),
              new UUID(-1L, -1L));
      deep[i] = timeMillis(() -> metadata.pageRuns(filter, cursor, page));
    }
    return new Figures(name, rows, summary(first), summary(deep));
  }

  private static double timeMillis(Runnable listing) {
    long start = System.nanoTime();
    listing.run();
    return (System.nanoTime() - start) / 1e6;
  }

  /** p50, p95 and max of the samples. */
  static double[] summary(double[] samples) {
    double[] sorted = samples.clone();
    Arrays.sort(sorted);
    return new double[] {
      sorted[(int) Math.ceil(sorted.length * 0.50) - 1],
      sorted[(int) Math.ceil(sorted.length * 0.95) - 1],
      sorted[sorted.length - 1]
    };
  }

  private void print(double fillSeconds, List<Figures> figures) {
    System.out.printf(
        "%n## Run listing: a page of %d over %,d runs (filled in %.0f s), %d samples each%n%n",
        page, runs, fillSeconds, samples);
    System.out.println(
        "| filter | rows on page 1 | first page p50 / p95 / max (ms) | deep page p50 / p95 / max (ms) |");
    System.out.println("|---|---:|---:|---:|");
    for (Figures f : figures) {
      System.out.printf(
          "| %s | %d | %.1f / %.1f / %.1f | %.1f / %.1f / %.1f |%n",
          f.filter(),
          f.firstPageRows(),
          f.first()[0],
          f.first()[1],
          f.first()[2],
          f.deep()[0],
          f.deep()[1],
          f.deep()[2]);
    }
  }

  private void printPlans(PostgresMetadataStore metadata) {
    System.out.printf("%n## Plans (first page)%n");
    for (Map.Entry<String, RunFilter> filter : RunTable.filters(runs).entrySet()) {
      System.out.printf("%n### %s%n```%n", filter.getKey());
      for (String line : metadata.explainPageRuns(filter.getValue(), null, page)) {
        if (!line.contains("Buffers:") && !line.contains("Planning")) {
          System.out.println(line);
        }
      }
      System.out.println("```");
    }
  }
}

package io.baton.store.postgres.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The listing benchmark on a tiny table, checked for what it measures (never for speed): every
 * filter of the dashboard gets figures, and each filter finds runs on its first page.
 */
class RunListingBenchmarkSmokeTest {
  @Test
  void every_filter_is_measured_and_finds_runs() throws Exception {
    List<RunListingBenchmark.Figures> figures = new RunListingBenchmark(20_000, 3, 50).run(false);

    assertThat(figures).hasSize(RunTable.filters(20_000).size());
    for (RunListingBenchmark.Figures figure : figures) {
      assertThat(figure.firstPageRows()).as(figure.filter()).isPositive();
      assertThat(figure.first()).as(figure.filter()).hasSize(3);
      assertThat(figure.first()[1]).as(figure.filter()).isGreaterThanOrEqualTo(figure.first()[0]);
    }
  }

  @Test
  void the_summary_is_p50_p95_and_max() {
    double[] samples = new double[100];
    for (int i = 0; i < 100; i++) {
      samples[i] = 100 - i;
    }
    assertThat(RunListingBenchmark.summary(samples)).containsExactly(50.0, 95.0, 100.0);
  }
}

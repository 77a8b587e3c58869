package io.baton.store.postgres.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.store.RunFilter;
import io.baton.store.RunPage;
import io.baton.store.RunPosition;
import io.baton.store.postgres.PostgresMetadataStore;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every filter the dashboard offers is served by an index: on a table of {@value #RUNS} runs
 * (shaped like {@link RunTable}'s), no listing plan reads the whole table, and paging through a
 * filter with cursors returns pages in order. The plans are printed; the benchmark
 * (store-postgres/listing-bench.sh) shows the same on 1,000,000 runs with timings.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunListingPlanTest {
  static final int RUNS = Integer.getInteger("baton.test.listingRuns", 200_000);

  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private PostgresMetadataStore metadata;

  @BeforeAll
  void fillTable() throws Exception {
    metadata = (PostgresMetadataStore) postgres.stores().metadata();
    postgres.database().truncateAll();
    try (Connection connection = postgres.database().connect()) {
      RunTable.fill(connection, RUNS);
    }
  }

  @Test
  void no_filter_the_dashboard_offers_reads_the_whole_table() {
    for (Map.Entry<String, RunFilter> filter : RunTable.filters(RUNS).entrySet()) {
      List<String> plan = metadata.explainPageRuns(filter.getValue(), null, 50);
      System.out.printf("%n%s:%n%s%n", filter.getKey(), String.join("\n", plan));
      assertThat(String.join("\n", plan))
          .as("plan of %s", filter.getKey())
          .doesNotContain("Seq Scan")
          .containsPattern("Index (Only )?Scan|Bitmap Index Scan");
    }
  }

  @Test
  void a_cursor_continues_each_filter_where_its_page_ended() {
    for (Map.Entry<String, RunFilter> filter : RunTable.filters(RUNS).entrySet()) {
      RunPage first = metadata.pageRuns(filter.getValue(), null, 50);
      if (first.next() == null) {
        continue;
      }
      RunPage second = metadata.pageRuns(filter.getValue(), first.next(), 50);
      assertThat(second.runs()).as(filter.getKey()).isNotEmpty();
      RunPosition last = first.next();
      assertThat(RunPosition.created(second.runs().get(0))).as(filter.getKey()).isLessThan(last);
      assertThat(second.runs())
          .extracting(RunPosition::created)
          .as(filter.getKey())
          .isSortedAccordingTo((a, b) -> b.compareTo(a));
    }
  }
}

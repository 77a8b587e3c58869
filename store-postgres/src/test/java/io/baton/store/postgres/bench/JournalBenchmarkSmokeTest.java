package io.baton.store.postgres.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.ExecutionJournal;
import io.baton.journal.JournalEntry;
import io.baton.journal.RunStatus;
import io.baton.store.postgres.testkit.PostgresFixture;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The benchmark's workloads, tiny and checked for correctness (never for speed), so that the
 * benchmark command keeps working and measures what it claims to.
 */
class JournalBenchmarkSmokeTest {
  @RegisterExtension static final PostgresFixture postgres = new PostgresFixture();

  private ExecutionJournal journal;

  @BeforeEach
  void emptyDatabase() {
    journal = postgres.stores().journal();
    postgres.database().truncateAll();
  }

  @Test
  void direct_and_grouped_appends_of_concurrent_runs_land_in_order_without_gaps() throws Exception {
    AppendLoad direct = new AppendLoad(journal, 4);
    assertThat(direct.runCount(AppendLoad.direct(journal), 50).appends()).isEqualTo(200);
    assertContiguous(direct);

    AppendLoad grouped = new AppendLoad(journal, 8);
    try (AppendLoad.Path path = AppendLoad.grouped(journal, 16, 2)) {
      AppendLoad.Result result = grouped.runCount(path, 30);
      assertThat(result.appends()).isEqualTo(240);
      assertThat(result.meanBatch()).isGreaterThanOrEqualTo(1);
    }
    assertContiguous(grouped);
  }

  @Test
  void run_lifecycles_create_complete_and_start_runs() throws Exception {
    AppendLoad lifecycles = new AppendLoad(journal, 4, true);
    try (AppendLoad.Path path = AppendLoad.grouped(journal, 16, 2)) {
      assertThat(lifecycles.runCount(path, 10).appends()).as("step completions").isEqualTo(24);
    }
    assertThat(postgres.stores().metadata().countRunsByStatus())
        .containsEntry(RunStatus.SUCCEEDED, 8L)
        .containsEntry(RunStatus.RUNNING, 4L);
  }

  @Test
  void pgbench_runs_the_same_fenced_transaction_on_the_same_schema() throws Exception {
    PgBench bench =
        new PgBench(PgBench.find(null), postgres.database().server(), postgres.database());
    bench.prepare(2);
    PgBench.Result result = bench.run(2, 1, "-t 20");
    assertThat(result.transactions()).isEqualTo(40);
    try (Connection connection = postgres.database().connect();
        Statement statement = connection.createStatement();
        ResultSet rs =
            statement.executeQuery(
                "SELECT r.latest_seq, count(j.seq), max(j.seq) FROM runs r"
                    + " JOIN journal j ON j.root_run_id = r.id"
                    + " WHERE r.orchestrator_id = 'pgbench' GROUP BY r.id, r.latest_seq")) {
      int roots = 0;
      while (rs.next()) {
        roots++;
        assertThat(rs.getLong(1)).isEqualTo(20);
        assertThat(rs.getLong(2)).isEqualTo(20);
        assertThat(rs.getLong(3)).isEqualTo(20);
      }
      assertThat(roots).isEqualTo(2);
    }
  }

  @Test
  void the_command_line_reads_its_options() {
    JournalBenchmark.Options options =
        JournalBenchmark.Options.parse(new String[] {"--seconds=2 --runs=1,4", "--shared"});
    assertThat(options.measure().toSeconds()).isEqualTo(2);
    assertThat(options.runs()).containsExactly(1, 4);
    assertThat(options.shared()).isTrue();
    assertThat(options.groups()).hasSize(2);
  }

  private void assertContiguous(AppendLoad load) {
    List<UUID> roots = load.roots();
    List<Long> written = load.written();
    for (int i = 0; i < roots.size(); i++) {
      long expected = 2 + written.get(i);
      assertThat(journal.readFrom(roots.get(i), 1, 10_000))
          .extracting(JournalEntry::seq)
          .containsExactlyElementsOf(LongStream.rangeClosed(1, expected).boxed().toList());
      assertThat(journal.latestSequence(roots.get(i))).isEqualTo(expected);
    }
  }
}

package io.baton.retention;

import static io.baton.store.RunWriter.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import io.baton.engine.SchedulerEngineIo;
import io.baton.journal.Checkpoint;
import io.baton.journal.StepCompleted;
import io.baton.journal.replay.Replay;
import io.baton.store.RunWriter;
import io.baton.store.Stores;
import io.baton.store.memory.InMemoryStores;
import io.baton.testkit.ManualScheduler;
import io.baton.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The archiver and retention as a node runs them: on the scheduler's time, in bounded batches with
 * a pause between full ones, until nothing is left; each flow's retention or the default.
 */
class HousekeepingTest {
  private static final Instant T0 = SettableClock.EPOCH;

  private final ManualScheduler scheduler = new ManualScheduler(new SettableClock(T0));
  private final Stores stores = InMemoryStores.create();
  private final SchedulerEngineIo io = new SchedulerEngineIo(scheduler, stores.journal(), null);
  private final Counter counted = new Counter();
  private final Counter failures = new Counter();
  private final Random random = new Random(42);

  private static HousekeepingConfig config(int batchSize) {
    return new HousekeepingConfig(
        batchSize,
        Duration.ofMillis(50),
        Duration.ofSeconds(10),
        Duration.ofDays(30),
        batchSize,
        Duration.ofMillis(100),
        Duration.ofMinutes(1));
  }

  @Test
  void retention_deletes_each_flows_finished_runs_after_its_own_retention_and_keeps_the_rest() {
    List<UUID> shortLived = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      shortLived.add(newRun().running("short", "n", 1).succeed(json("i", i)).root());
    }
    UUID longLived = newRun().running("long", "n", 1).succeed(null).root();
    UUID recoverable = newRun().running("short", "n", 1).fail("boom", true).root();
    UUID running = newRun().running("short", "n", 1).root();
    RetentionSweeper sweeper =
        new RetentionSweeper(
            stores.metadata(),
            tree -> tree.flowName().equals("short") ? Duration.ofDays(1) : Duration.ofDays(30),
            io,
            scheduler,
            random,
            config(2),
            counted,
            failures);
    sweeper.start();

    scheduler.advance(Duration.ofHours(23));
    assertThat(counted.getCount()).isZero();
    assertThat(stores.metadata().findRun(shortLived.get(0))).isPresent();

    scheduler.advance(Duration.ofHours(1).plusMinutes(2));
    assertThat(counted.getCount()).isEqualTo(5);
    shortLived.forEach(root -> assertThat(stores.metadata().findRun(root)).isEmpty());
    assertThat(stores.metadata().findRun(longLived)).isPresent();

    scheduler.advance(Duration.ofDays(29));
    assertThat(stores.metadata().findRun(longLived)).isEmpty();
    assertThat(stores.metadata().findRun(recoverable)).isPresent();
    assertThat(stores.metadata().findRun(running)).isPresent();
    assertThat(counted.getCount()).isEqualTo(6);
    assertThat(failures.getCount()).isZero();
    sweeper.stop();
  }

  @Test
  void the_archiver_moves_what_checkpoints_cover_in_bounded_batches_until_none_is_left() {
    List<UUID> roots = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      RunWriter run = newRun().running("f", "n", 1);
      for (int step = 0; step < 20; step++) {
        run.append(run.root(), new StepCompleted("s" + step, 1, json("n", step), T0));
      }
      long covered = stores.journal().latestSequence(run.root()) - 1;
      stores
          .journal()
          .checkpoint(
              run.root(),
              1,
              new Checkpoint(
                  covered,
                  Replay.fold(
                          run.root(), stores.journal().readHistory(run.root(), 1, (int) covered))
                      .toSnapshot(),
                  T0));
      roots.add(run.root());
    }
    JournalArchiver archiver =
        new JournalArchiver(stores.journal(), io, scheduler, random, config(7), counted, failures);
    archiver.start();

    scheduler.advance(BatchLoop.FIRST_PASS_WITHIN.dividedBy(2).minusNanos(1));
    assertThat(counted.getCount()).as("nothing in the node's first moments").isZero();
    scheduler.advance(BatchLoop.FIRST_PASS_WITHIN.dividedBy(2).plusNanos(1));
    assertThat(counted.getCount()).as("full batches, a pause apart").isGreaterThanOrEqualTo(7);
    scheduler.advance(Duration.ofSeconds(1));
    long total = roots.stream().mapToLong(r -> stores.journal().latestSequence(r) - 1).sum();
    assertThat(counted.getCount()).isEqualTo(total);
    for (UUID root : roots) {
      assertThat(stores.journal().readFrom(root, 1, 100)).hasSize(1);
      assertThat(stores.journal().readHistory(root, 1, 100))
          .hasSize((int) stores.journal().latestSequence(root));
    }
    archiver.stop();
  }

  @Test
  void the_first_passes_come_seconds_after_start_not_one_interval_later() {
    RunWriter run = newRun().running("f", "n", 1);
    run.append(run.root(), new StepCompleted("s", 1, json("n", 1), T0));
    long covered = stores.journal().latestSequence(run.root());
    stores
        .journal()
        .checkpoint(
            run.root(),
            1,
            new Checkpoint(
                covered,
                Replay.fold(run.root(), stores.journal().readHistory(run.root(), 1, 100))
                    .toSnapshot(),
                T0));
    UUID finished = newRun().running("f", "n", 1).succeed(null).root();
    HousekeepingConfig hourly =
        new HousekeepingConfig(
            100,
            Duration.ofMillis(50),
            Duration.ofHours(1),
            Duration.ofDays(30),
            100,
            Duration.ofMillis(100),
            Duration.ofHours(1));
    Counter deleted = new Counter();
    JournalArchiver archiver =
        new JournalArchiver(stores.journal(), io, scheduler, random, hourly, counted, failures);
    RetentionSweeper sweeper =
        new RetentionSweeper(
            stores.metadata(),
            tree -> Duration.ZERO,
            io,
            scheduler,
            random,
            hourly,
            deleted,
            failures);
    archiver.start();
    sweeper.start();

    scheduler.advance(BatchLoop.FIRST_PASS_WITHIN);

    assertThat(counted.getCount()).as("entries archived").isEqualTo(covered);
    assertThat(deleted.getCount()).as("trees deleted").isEqualTo(1);
    assertThat(stores.metadata().findRun(finished)).isEmpty();
    archiver.stop();
    sweeper.stop();
  }

  @Test
  void the_first_pass_is_jittered_within_the_second_half_of_its_window_or_of_a_shorter_interval() {
    Set<Duration> delays = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      Duration delay = BatchLoop.firstDelay(Duration.ofHours(1), random);
      assertThat(delay)
          .isBetween(BatchLoop.FIRST_PASS_WITHIN.dividedBy(2), BatchLoop.FIRST_PASS_WITHIN);
      delays.add(delay);
      assertThat(BatchLoop.firstDelay(Duration.ofSeconds(1), random))
          .isBetween(Duration.ofMillis(500), Duration.ofSeconds(1));
    }
    assertThat(delays).as("nodes started together spread out").hasSizeGreaterThan(100);
  }

  private RunWriter newRun() {
    return new RunWriter(stores.journal(), T0);
  }
}

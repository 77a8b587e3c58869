package io.baton.sim;

import io.baton.engine.SchedulerEngineIo;
import io.baton.journal.ExecutionJournal;
import io.baton.lease.LeaseManager;
import io.baton.time.Scheduler;
import java.time.Duration;
import java.util.Random;

/** The engine's I/O in the simulation: unbatched, with a seeded random latency per call. */
final class SimIo extends SchedulerEngineIo {
  private final Random random;

  SimIo(Scheduler scheduler, ExecutionJournal journal, LeaseManager leases, Random random) {
    super(scheduler, journal, leases);
    this.random = random;
  }

  @Override
  protected Duration latency(String what) {
    return Duration.ofMillis(random.nextInt(what.equals("append") ? 40 : 15));
  }
}

package io.baton.store.postgres.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * CPU time spent by this JVM and by PostgreSQL's backends, to say where an append's time goes.
 * Backends are counted once they have exited (the postmaster's reaped-children time), so a
 * measurement must close its connections before it reads the meter. Linux only.
 */
final class CpuMeter {
  private static final double TICKS_PER_SECOND = 100.0;

  private final long postmasterPid;

  CpuMeter(long postmasterPid) {
    this.postmasterPid = postmasterPid;
  }

  /** CPU seconds so far: [JVM, exited PostgreSQL backends]. */
  double[] read() throws IOException {
    String stat = Files.readString(Paths.get("/proc/" + postmasterPid + "/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    double children = (Long.parseLong(fields[13]) + Long.parseLong(fields[14])) / TICKS_PER_SECOND;
    return new double[] {jvmSeconds(), children};
  }

  static double jvmSeconds() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1e9;
  }
}

package io.baton.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/** Sends a signal to a process the test started ({@code kill -STOP}, {@code -CONT}, ...). */
public final class UnixSignals {
  private UnixSignals() {}

  /**
   * Runs {@code kill -<name> <pid>} and waits for it.
   *
   * @throws IllegalStateException when kill fails or does not finish within 10 seconds
   */
  public static void send(long pid, String name) {
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + name, String.valueOf(pid))
              .redirectErrorStream(true)
              .start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + name + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package io.baton.gates.planted.clock;

/** Planted: reads the wall clock in milliseconds. */
public final class ReadsCurrentTimeMillis {
  public long millis() {
    return System.currentTimeMillis();
  }
}

package io.baton.gates.planted.cycle.a;

import io.baton.gates.planted.cycle.b.CycleB;

/** Planted: half of a package cycle. */
public final class CycleA {
  public CycleB next() {
    return new CycleB();
  }
}

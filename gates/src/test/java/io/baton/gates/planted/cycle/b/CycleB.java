package io.baton.gates.planted.cycle.b;

import io.baton.gates.planted.cycle.a.CycleA;

/** Planted: the other half of a package cycle. */
public final class CycleB {
  public CycleA back() {
    return new CycleA();
  }
}

package io.baton.gates.planted.cycle.c;

import io.baton.gates.planted.cycle.c.internal.Implementation;

/** Allowed: a package and its internal subpackage use each other. */
public final class Api {
  public Implementation implementation() {
    return new Implementation(this);
  }
}

package io.baton.gates.planted.cycle.c.internal;

import io.baton.gates.planted.cycle.c.Api;

/** Allowed: the implementation of its parent package, which it uses. */
public final class Implementation {
  private final Api api;

  public Implementation(Api api) {
    this.api = api;
  }

  public Api api() {
    return api;
  }
}

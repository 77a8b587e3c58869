package io.baton.engine;

import io.baton.BatonException;

/** No flow has this name. */
public class FlowNotFoundException extends BatonException {
  public FlowNotFoundException(String name) {
    super("Flow '" + name + "' not found");
  }
}

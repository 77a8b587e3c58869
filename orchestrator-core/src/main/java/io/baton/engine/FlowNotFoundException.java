package io.baton.engine;

import io.baton.BatonException;

/** No flow has this name, or the flow has no version of this hash. */
public class FlowNotFoundException extends BatonException {
  public FlowNotFoundException(String name) {
    super("Flow '" + name + "' not found");
  }

  public FlowNotFoundException(String name, String version) {
    super("Flow '" + name + "' has no version '" + version + "'");
  }
}

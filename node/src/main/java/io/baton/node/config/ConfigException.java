package io.baton.node.config;

import io.baton.BatonException;

/** A configuration key is unknown or its value is bad; the message names the key and its source. */
public class ConfigException extends BatonException {
  public ConfigException(String message) {
    super(message);
  }
}

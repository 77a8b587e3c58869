package io.baton.flow;

import io.baton.BatonException;

/**
 * A template is malformed: an unclosed <code>{{</code>, an empty or unreadable path, an unknown
 * root.
 */
public class TemplateException extends BatonException {
  public TemplateException(String message) {
    super(message);
  }
}

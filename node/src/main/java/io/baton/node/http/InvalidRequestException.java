package io.baton.node.http;

import io.baton.BatonException;

/** A request the API cannot act on as sent (a bad parameter, a missing field): a 400. */
public class InvalidRequestException extends BatonException {
  public InvalidRequestException(String message) {
    super(message);
  }
}

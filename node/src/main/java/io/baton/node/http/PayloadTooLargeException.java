package io.baton.node.http;

import io.baton.BatonException;

/** A part of a request is larger than its limit: a 413 whose detail names the limit. */
final class PayloadTooLargeException extends BatonException {
  PayloadTooLargeException(String message) {
    super(message);
  }
}

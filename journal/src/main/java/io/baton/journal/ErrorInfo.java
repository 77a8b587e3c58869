package io.baton.journal;

import java.util.Objects;

/**
 * A failure as Baton records it: a stable machine-readable code ({@code http_5xx}, {@code timeout},
 * {@code rejected}) and a message for people.
 */
public record ErrorInfo(String code, String message) {
  public ErrorInfo {
    Objects.requireNonNull(code, "code");
    message = message == null ? "" : message;
  }
}

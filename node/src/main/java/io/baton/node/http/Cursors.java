package io.baton.node.http;

import io.baton.store.RunPosition;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/**
 * Opaque page cursors and stream event ids: a {@link RunPosition} (instant to the microsecond and
 * run id) in URL-safe base64, so clients cannot build one or rely on what is inside. A cursor that
 * does not decode is a 400 naming the parameter.
 */
final class Cursors {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private Cursors() {}

  static String encode(RunPosition position) {
    if (position == null) {
      return null;
    }
    Instant at = position.at();
    String text = at.getEpochSecond() + ":" + at.getNano() + ":" + position.runId();
    return ENCODER.encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The position in {@code text}, or null for a null or blank one. */
  static RunPosition decode(String text, String parameter) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      String[] parts =
          new String(Base64.getUrlDecoder().decode(text.trim()), StandardCharsets.UTF_8)
              .split(":", -1);
      if (parts.length != 3) {
        throw new IllegalArgumentException("three parts expected");
      }
      Instant at = Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
      return new RunPosition(at, UUID.fromString(parts[2]));
    } catch (IllegalArgumentException | DateTimeException e) {
      throw new InvalidRequestException(
          parameter + " is not a cursor this API issued: '" + text + "'");
    }
  }
}

package io.baton.node.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.node.auth.KeyAdministration;
import io.baton.node.auth.Role;
import io.baton.store.StoredKey;
import io.baton.time.Durations;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /api/keys} (create: the token is in the answer, once), {@code GET /api/keys} (every
 * key, never a token or hash) and {@code DELETE /api/keys/{id}} (revoke), for admins. Each change
 * is in the audit record with who, how and the body's {@code reason}.
 */
final class KeyRoutes implements Routes {
  private static final List<String> CREATE_FIELDS =
      List.of("name", "role", "flows", "expires", "reason");
  private static final List<String> REVOKE_FIELDS = List.of("reason");

  private final KeyAdministration keys;
  private final Clock clock;

  KeyRoutes(KeyAdministration keys, Clock clock) {
    this.keys = keys;
    this.clock = clock;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .post("/api/keys", this::create)
        .permission(Permission.KEYS_MANAGE)
        .summary(
            "Create an API key: {name, role, flows?, expires? (90d or an instant), reason?};"
                + " the answer holds its token, shown this once")
        .responds(
            201, "the key and its token",
            400, "a missing or invalid field",
            409, "a key with that name exists");
    routes
        .get("/api/keys", this::list)
        .permission(Permission.KEYS_MANAGE)
        .summary("Every API key (the keys file's and the API's), without tokens or hashes")
        .responds(200, "the keys");
    routes
        .delete("/api/keys/{id}", this::revoke)
        .permission(Permission.KEYS_MANAGE)
        .summary("Revoke an API key created through the API; body {reason?}")
        .responds(
            200, "the revoked key",
            404, "no key with that id",
            409, "a key of the keys file (revoke it there)");
  }

  private void create(Context ctx) throws Exception {
    ObjectNode body = Requests.jsonObject(ctx, CREATE_FIELDS);
    String name = Requests.requiredText(body, "name");
    Role role;
    try {
      role = Role.parse(Requests.requiredText(body, "role"));
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("Field 'role': " + e.getMessage());
    }
    List<String> flows = flows(body.get("flows"));
    Instant expires = expires(Requests.optionalText(body, "expires"));
    KeyAdministration.Created created;
    try {
      created =
          keys.create(
              name,
              role,
              flows,
              expires,
              AccessGuard.principal(ctx),
              Requests.optionalText(body, "reason"));
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("Field " + e.getMessage());
    }
    StoredKey key = created.key();
    ctx.header("Cache-Control", "no-store");
    Json.send(
        ctx,
        201,
        Json.object(
            "id", key.id(),
            "name", key.name(),
            "role", key.role(),
            "flows", key.flows(),
            "expires", key.expires(),
            "createdAt", key.createdAt(),
            "createdBy", key.createdBy(),
            "token", created.token()));
  }

  private static List<String> flows(JsonNode flows) {
    if (flows == null || flows.isNull()) {
      return List.of();
    }
    if (!flows.isArray()) {
      throw new InvalidRequestException(
          "Field 'flows' must be a list of flow-name patterns such as [\"billing-*\"]");
    }
    List<String> patterns = new ArrayList<>();
    for (JsonNode pattern : flows) {
      if (!pattern.isTextual() || pattern.asText().isBlank()) {
        throw new InvalidRequestException(
            "Field 'flows' must hold non-empty strings, such as \"billing-*\"");
      }
      patterns.add(pattern.asText().trim());
    }
    return patterns;
  }

  /** A duration from now ({@code 90d}, {@code 12h}) or an instant; null for never. */
  private Instant expires(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(text.trim());
    } catch (DateTimeParseException notAnInstant) {
      Duration duration;
      try {
        duration = Durations.parse(text.trim());
      } catch (IllegalArgumentException e) {
        throw new InvalidRequestException(
            "Field 'expires': '"
                + text
                + "' is neither a duration such as 90d or 12h nor an instant such as"
                + " 2027-03-01T00:00:00Z");
      }
      if (duration.isNegative() || duration.isZero()) {
        throw new InvalidRequestException("Field 'expires': '" + text + "' must be positive");
      }
      return clock.instant().plus(duration).truncatedTo(ChronoUnit.SECONDS);
    }
  }

  private void list(Context ctx) {
    Instant now = clock.instant();
    List<KeyJson> all = new ArrayList<>();
    keys.fileKeys().forEach(key -> all.add(KeyJson.of(key, now)));
    keys.storedKeys().forEach(key -> all.add(KeyJson.of(key, now)));
    Json.send(ctx, 200, Json.object("keys", all));
  }

  private void revoke(Context ctx) throws Exception {
    String id = ctx.pathParam("id");
    ObjectNode body = Requests.jsonObject(ctx, REVOKE_FIELDS);
    if (id.startsWith(KeyJson.FILE_ID_PREFIX)) {
      throw new FileKeyException(
          "'"
              + id.substring(KeyJson.FILE_ID_PREFIX.length())
              + "' is a key of the keys file: remove it there or set 'revoked: true'");
    }
    StoredKey key =
        keys.revoke(id, AccessGuard.principal(ctx), Requests.optionalText(body, "reason"))
            .orElseThrow(() -> new KeyNotFoundException("No API key has id '" + id + "'"));
    Json.send(ctx, 200, KeyJson.of(key, clock.instant()));
  }
}

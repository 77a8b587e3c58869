package io.baton.node.http;

import io.baton.node.auth.AuditTrail;
import io.baton.store.AuditEntry;
import io.javalin.http.Context;
import java.util.List;

/**
 * {@code GET /api/audit?before=SEQ&limit=N}: the audit record (flow uploads, key changes), newest
 * first, for admins; {@code next} is the {@code before} of the following page, or null at the end.
 */
final class AuditRoutes implements Routes {
  static final int DEFAULT_LIMIT = 50;

  private final AuditTrail audit;

  AuditRoutes(AuditTrail audit) {
    this.audit = audit;
  }

  @Override
  public void addTo(ApiRouter routes) {
    routes
        .get("/api/audit", this::page)
        .permission(Permission.AUDIT_READ)
        .summary("The audit record: who applied flows and changed keys, how, when and why")
        .query("before", "integer", "only entries numbered below this (the previous page's next)")
        .query("limit", "integer", "at most this many entries (default 50, at most 500)")
        .responds(200, "entries newest first, and the next page's 'before'", 400, "bad paging");
  }

  private void page(Context ctx) {
    long before = number(ctx, "before", Long.MAX_VALUE);
    int limit = (int) number(ctx, "limit", DEFAULT_LIMIT);
    if (limit < 1 || limit > AuditTrail.MAX_PAGE) {
      throw new InvalidRequestException(
          "Query parameter 'limit' must be between 1 and " + AuditTrail.MAX_PAGE);
    }
    List<AuditEntry> entries = audit.page(before, limit);
    Long next = entries.size() < limit ? null : entries.get(entries.size() - 1).seq();
    Json.send(ctx, 200, Json.object("entries", entries, "next", next));
  }

  private static long number(Context ctx, String name, long absent) {
    String text = ctx.queryParam(name);
    if (text == null || text.isBlank()) {
      return absent;
    }
    try {
      long value = Long.parseLong(text.trim());
      if (value < 1) {
        throw new InvalidRequestException("Query parameter '" + name + "' must be positive");
      }
      return value;
    } catch (NumberFormatException e) {
      throw new InvalidRequestException(
          "Query parameter '" + name + "' must be a whole number, not '" + text + "'");
    }
  }
}

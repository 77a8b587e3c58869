package io.baton.store.postgres.internal;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import io.baton.journal.JournalEntry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A root's creation in one statement and one round trip, when it is alone in its batch (as on an
 * idle node, where it is the first commit of every run), and the creations of a batch that holds
 * nothing else (as when the event dispatcher starts a batch of runs): through {@link AppendBatch}
 * they cost a lock query, a query of the taken idempotency keys, the write and a commit. The
 * statement inserts the run row unless a run with its id exists and the entries only if the row
 * went in, in one implicit transaction. A creation it did not write (a retry of a creation that
 * landed, a taken idempotency key) wrote nothing and goes the general way, which tells a repeat, a
 * conflict and a duplicate key apart.
 */
final class FastCreate {
  private FastCreate() {}

  /** Whether the request creates a root and writes nothing but the root's own entries. */
  static boolean eligible(AppendRequest request) {
    if (!request.createsRoot()) {
      return false;
    }
    for (JournalEntry entry : request.entries()) {
      if (!entry.isRootEntry()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Creates several roots (eligible requests, one per root) in one statement in auto-commit mode;
   * returns the roots it created. A request it did not create (its id or idempotency key is taken,
   * by a run stored before or by an earlier request of the same batch) wrote nothing and is left
   * for the general way, as a lone creation is.
   */
  static Set<UUID> runAll(Connection connection, List<AppendRequest> requests) throws SQLException {
    AppendPlanner planner = new AppendPlanner(Map.of(), Set.of(), Set.of());
    for (AppendRequest request : requests) {
      if (!(planner.plan(request) instanceof AppendResult.Appended)) {
        return Set.of();
      }
    }
    List<RunRow> created = planner.createdRows();
    if (created.size() != requests.size() || !planner.changedRows().isEmpty()) {
      return Set.of();
    }
    return new BatchWriter(connection).createRoots(planner.journalWrites(), created);
  }

  /** Creates the root in auto-commit mode; false when it wrote nothing. */
  static boolean run(Connection connection, AppendRequest request) throws SQLException {
    AppendPlanner planner = new AppendPlanner(Map.of(), Set.of(), Set.of());
    if (!(planner.plan(request) instanceof AppendResult.Appended)) {
      return false;
    }
    List<RunRow> created = planner.createdRows();
    if (created.size() != 1 || !planner.changedRows().isEmpty()) {
      return false;
    }
    return new BatchWriter(connection).createRoot(planner.journalWrites(), created.get(0));
  }
}

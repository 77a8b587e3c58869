package io.baton.store.postgres.internal;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends a batch in one transaction ({@link AppendBatch}), retried as a whole after transient
 * failures; an ambiguous commit is thus retried too, and the retry finds the entries already there
 * and reports them appended. When PostgreSQL refuses the data of the batch (a constraint, a value
 * it cannot store), the requests are retried one per transaction, so that the refused one fails
 * alone. Thread-safe.
 */
public final class JournalWriter {
  private static final Logger log = LoggerFactory.getLogger(JournalWriter.class);

  private final Database database;

  public JournalWriter(Database database) {
    this.database = database;
  }

  public List<AppendResult> appendAll(List<AppendRequest> requests) {
    if (requests.isEmpty()) {
      return List.of();
    }
    if (requests.size() == 1) {
      return List.of(appendAlone(requests.get(0)));
    }
    try {
      return inOneTransaction(requests);
    } catch (RuntimeException failure) {
      if (!Refusals.isDataRefusal(failure)) {
        throw failure;
      }
      log.info(
          "PostgreSQL refused data in a batch of {} appends ({}); appending them one by one",
          requests.size(),
          TransientRetry.rootMessage(failure));
      List<AppendResult> results = new ArrayList<>(requests.size());
      for (AppendRequest request : requests) {
        results.add(appendAlone(request));
      }
      return results;
    }
  }

  private AppendResult appendAlone(AppendRequest request) {
    try {
      return inOneTransaction(List.of(request)).get(0);
    } catch (RuntimeException failure) {
      if (!Refusals.isDataRefusal(failure)) {
        throw failure;
      }
      if (Refusals.mayBeARace(failure)) {
        return againAfterRace(request, failure);
      }
      return new AppendResult.Rejected(request.rootRunId(), Refusals.explain(request, failure));
    }
  }

  /** A concurrent transaction took a key first; now that it committed, decide again. */
  private AppendResult againAfterRace(AppendRequest request, RuntimeException race) {
    try {
      return inOneTransaction(List.of(request)).get(0);
    } catch (RuntimeException failure) {
      if (!Refusals.isDataRefusal(failure)) {
        throw failure;
      }
      failure.addSuppressed(race);
      return new AppendResult.Rejected(request.rootRunId(), Refusals.explain(request, failure));
    }
  }

  private List<AppendResult> inOneTransaction(List<AppendRequest> requests) {
    return database.inTransaction(
        describe(requests), handle -> new AppendBatch(handle.getConnection(), requests).run());
  }

  private static String describe(List<AppendRequest> requests) {
    return requests.size() == 1
        ? "append to the journal of run " + requests.get(0).rootRunId()
        : "append a batch of " + requests.size() + " requests to the journal";
  }
}

package io.baton.store.postgres.internal;

import io.baton.journal.AppendRequest;
import io.baton.journal.AppendResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends a batch: the plain step appends of distinct roots in one statement ({@link FastAppend}),
 * the rest in one transaction that decides each request in Java ({@link AppendBatch}). Each is
 * retried as a whole after transient failures; an ambiguous commit is thus retried too, and the
 * retry finds the entries already there and reports them appended. When PostgreSQL refuses the data
 * of the batch (a constraint, a value it cannot store), the requests are retried one per
 * transaction, so that the refused one fails alone. Thread-safe.
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
    if (requests.size() == 1 && FastCreate.eligible(requests.get(0))) {
      AppendResult created = createAlone(requests.get(0));
      if (created != null) {
        return List.of(created);
      }
    }
    AppendResult[] results = new AppendResult[requests.size()];
    createAllFast(requests, results);
    appendFast(requests, results);
    List<Integer> rest = new ArrayList<>();
    for (int i = 0; i < results.length; i++) {
      if (results[i] == null) {
        rest.add(i);
      }
    }
    if (!rest.isEmpty()) {
      List<AppendRequest> general = rest.stream().map(requests::get).toList();
      List<AppendResult> decided = appendGeneral(general);
      for (int i = 0; i < rest.size(); i++) {
        results[rest.get(i)] = decided.get(i);
      }
    }
    return List.of(results);
  }

  /**
   * A batch of nothing but roots' creations (one request per root; the event dispatcher submits
   * hundreds at once) is written in one statement ({@link FastCreate#runAll}) instead of a
   * transaction of four round trips; the creations it did not write are left for the general way. A
   * batch that holds anything else goes the general way whole: there the creations share the
   * transaction the other requests pay for anyway, and a second commit would cost more.
   */
  private void createAllFast(List<AppendRequest> requests, AppendResult[] results) {
    if (requests.size() < 2) {
      return;
    }
    Set<UUID> roots = new HashSet<>();
    for (AppendRequest request : requests) {
      if (!FastCreate.eligible(request) || !roots.add(request.rootRunId())) {
        return;
      }
    }
    Set<UUID> created;
    try {
      created =
          database.withHandle(
              describe(requests), handle -> FastCreate.runAll(handle.getConnection(), requests));
    } catch (RuntimeException failure) {
      if (!Refusals.isDataRefusal(failure)) {
        throw failure;
      }
      return;
    }
    for (int i = 0; i < requests.size(); i++) {
      AppendRequest request = requests.get(i);
      if (created.contains(request.rootRunId())) {
        results[i] = new AppendResult.Appended(request.rootRunId(), request.lastSeq(), false);
      }
    }
  }

  /**
   * Appends the requests that may go the fast way (see {@link FastAppend}; a root with more than
   * one request in the batch goes the general way, which applies them in order), and fills in their
   * results. A request the fast way did not append is left for the general way.
   */
  private void appendFast(List<AppendRequest> requests, AppendResult[] results) {
    Map<UUID, Integer> requestsPerRoot = new HashMap<>();
    for (AppendRequest request : requests) {
      requestsPerRoot.merge(request.rootRunId(), 1, Integer::sum);
    }
    List<Integer> fast = new ArrayList<>();
    for (int i = 0; i < requests.size(); i++) {
      AppendRequest request = requests.get(i);
      if (requestsPerRoot.get(request.rootRunId()) == 1 && FastAppend.eligible(request)) {
        fast.add(i);
      }
    }
    if (fast.isEmpty()) {
      return;
    }
    List<AppendRequest> eligible = fast.stream().map(requests::get).toList();
    Set<UUID> appended;
    try {
      appended =
          database.withHandle(
              describe(eligible), handle -> FastAppend.run(handle.getConnection(), eligible));
    } catch (RuntimeException failure) {
      if (!Refusals.isDataRefusal(failure)) {
        throw failure;
      }
      return;
    }
    for (int i : fast) {
      AppendRequest request = requests.get(i);
      if (appended.contains(request.rootRunId())) {
        results[i] = new AppendResult.Appended(request.rootRunId(), request.lastSeq(), false);
      }
    }
  }

  /** A creation alone the fast way ({@link FastCreate}); null when the general way must decide. */
  private AppendResult createAlone(AppendRequest request) {
    boolean created;
    try {
      created =
          database.withHandle(
              describe(List.of(request)),
              handle -> FastCreate.run(handle.getConnection(), request));
    } catch (RuntimeException failure) {
      if (!Refusals.isDataRefusal(failure)) {
        throw failure;
      }
      return null;
    }
    return created
        ? new AppendResult.Appended(request.rootRunId(), request.lastSeq(), false)
        : null;
  }

  /** Appends in one transaction that decides each request in Java ({@link AppendBatch}). */
  private List<AppendResult> appendGeneral(List<AppendRequest> requests) {
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

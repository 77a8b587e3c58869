package io.baton.node.http;

import io.baton.journal.RunStatus;
import io.baton.journal.RunWait;
import io.baton.store.RunFilter;
import io.baton.store.RunRecord;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * States an operator cares about that a run's status alone does not show, usable as a list filter.
 * {@code stuck}: RUNNING, its recorded owner holds no live lease (nobody executes it until the
 * claimer adopts it), and it has not changed for {@code runs.stuckAfter} (a run handed off in the
 * ordinary way is adopted well within it). {@code recoverable-failure}: FAILED and resumable.
 * {@code retrying}, {@code waiting-approval}, {@code waiting-timer} and {@code waiting-child}:
 * WAITING, and what the engine recorded that the run waits for when it parked it ({@link
 * RunRecord#waiting()}). A back-off shorter than {@code execution.parkAfter} does not park its run:
 * such a run stays RUNNING and is shown retrying on its own page only (from its steps), not in
 * lists.
 */
enum DerivedState {
  RECOVERABLE_FAILURE("recoverable-failure", null),
  STUCK("stuck", null),
  RETRYING("retrying", RunWait.Kind.RETRY),
  WAITING_APPROVAL("waiting-approval", RunWait.Kind.APPROVAL),
  WAITING_TIMER("waiting-timer", RunWait.Kind.TIMER),
  WAITING_CHILD("waiting-child", RunWait.Kind.CHILD);

  /** The states as the API names them, for documentation and messages. */
  static final String NAMES =
      Arrays.stream(values()).map(DerivedState::id).collect(Collectors.joining(", "));

  private final String id;
  private final RunWait.Kind waitingFor;

  DerivedState(String id, RunWait.Kind waitingFor) {
    this.id = id;
    this.waitingFor = waitingFor;
  }

  String id() {
    return id;
  }

  static DerivedState parse(String text) {
    if (text == null) {
      return null;
    }
    for (DerivedState state : values()) {
      if (state.id.equals(text.toLowerCase(Locale.ROOT))) {
        return state;
      }
    }
    throw new InvalidRequestException("state must be one of " + NAMES + ", got '" + text + "'");
  }

  /** The filter with this state's conditions added, as of {@code liveness}. */
  RunFilter narrow(RunFilter filter, Supplier<Liveness> liveness) {
    return switch (this) {
      case RECOVERABLE_FAILURE ->
          filter.toBuilder().statuses(Set.of(RunStatus.FAILED)).recoverable(true).build();
      case STUCK -> stuck(filter, liveness.get());
      case RETRYING, WAITING_APPROVAL, WAITING_TIMER, WAITING_CHILD ->
          // statuses asked for as well narrow further: with no WAITING among them, nothing matches
          filter.toBuilder()
              .statuses(filter.statuses().isEmpty() ? Set.of(RunStatus.WAITING) : filter.statuses())
              .waitingFor(waitingFor)
              .build();
    };
  }

  // The same conditions as Liveness.stuck: the threshold is one more bound on updated_at, checked
  // on the rows the status's ordered index scan reads (RunListingPlanTest shows the plan).
  private static RunFilter stuck(RunFilter filter, Liveness liveness) {
    Instant before = liveness.stuckBefore();
    Instant updatedTo =
        filter.updatedTo() == null || before.isBefore(filter.updatedTo())
            ? before
            : filter.updatedTo();
    return filter.toBuilder()
        .statuses(Set.of(RunStatus.RUNNING))
        .rootsOnly(true)
        .ownerNotIn(withPlaceholder(liveness.liveNodes()))
        .updated(filter.updatedFrom(), updatedTo)
        .build();
  }

  /** The derived state of a run as a list shows it, or null when its status says it all. */
  static DerivedState of(RunRecord run, Liveness liveness) {
    if (run.status() == RunStatus.FAILED && run.recoverable()) {
      return RECOVERABLE_FAILURE;
    }
    if (liveness.stuck(run)) {
      return STUCK;
    }
    if (run.status() == RunStatus.WAITING && run.waiting() != null) {
      for (DerivedState state : values()) {
        if (state.waitingFor == run.waiting().kind()) {
          return state;
        }
      }
    }
    return null;
  }

  // An empty set means "no owner condition" to the store; with no live node every owner is gone.
  private static Set<String> withPlaceholder(Set<String> liveNodes) {
    return liveNodes.isEmpty() ? Set.of("") : liveNodes;
  }
}

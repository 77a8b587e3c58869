package io.baton.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWait;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

/**
 * What {@link RunIndex#pageRuns} keeps: every set field must match (an empty {@code statuses} or a
 * null field matches everything). Time ranges include their start and exclude their end. The JSON
 * filters keep runs whose document contains the given one (PostgreSQL's {@code @>}: every field of
 * the filter is present with an equal value; arrays match when they contain the filter's elements).
 * The path filters keep runs whose document passes a {@link JsonPathPredicate} (PostgreSQL's
 * {@code @@}). Immutable.
 *
 * @param node the recorded owner ({@code orchestratorId})
 * @param recoverable when set, only runs whose {@code recoverable} flag equals it
 * @param ownerNotIn when not empty, only runs whose recorded owner is none of these (or none at
 *     all): the runs of nodes that are gone
 * @param waitingFor when set, only runs whose recorded wait ({@link RunRecord#waiting()}) is of
 *     this kind
 * @param triggerEvent when set, only runs this event started ({@link RunRecord#triggerEvent()})
 */
public record RunFilter(
    Set<RunStatus> statuses,
    String flowName,
    String node,
    UUID parentRunId,
    UUID rootRunId,
    boolean rootsOnly,
    String idempotencyKey,
    Boolean recoverable,
    Instant createdFrom,
    Instant createdTo,
    Instant updatedFrom,
    Instant updatedTo,
    JsonNode inputContains,
    JsonNode outputContains,
    JsonPathPredicate inputPath,
    JsonPathPredicate outputPath,
    Set<String> ownerNotIn,
    RunWait.Kind waitingFor,
    EventRef triggerEvent) {

  public RunFilter {
    statuses = statuses == null || statuses.isEmpty() ? Set.of() : Set.copyOf(statuses);
    ownerNotIn = ownerNotIn == null ? Set.of() : Set.copyOf(ownerNotIn);
  }

  /** Every run. */
  public static RunFilter all() {
    return new RunFilter(
        Set.of(), null, null, null, null, false, null, null, null, null, null, null, null, null,
        null, null, Set.of(), null, null);
  }

  /** Whether {@code run}'s input and output pass the JSON containment and path filters. */
  public boolean matchesJson(RunRecord run) {
    return JsonContainment.contains(run.input(), inputContains)
        && JsonContainment.contains(run.output(), outputContains)
        && (inputPath == null || inputPath.matches(run.input()))
        && (outputPath == null || outputPath.matches(run.output()));
  }

  /** Whether {@code run} passes every field of this filter but the JSON ones. */
  public boolean matchesColumns(RunRecord run) {
    return (statuses.isEmpty() || statuses.contains(run.status()))
        && (flowName == null || flowName.equals(run.flowName()))
        && (node == null || node.equals(run.orchestratorId()))
        && (parentRunId == null || parentRunId.equals(run.parentRunId()))
        && (rootRunId == null || rootRunId.equals(run.rootRunId()))
        && (!rootsOnly || run.isRoot())
        && (idempotencyKey == null || idempotencyKey.equals(run.idempotencyKey()))
        && (recoverable == null || recoverable == run.recoverable())
        && (ownerNotIn.isEmpty()
            || run.orchestratorId() == null
            || !ownerNotIn.contains(run.orchestratorId()))
        && (waitingFor == null || (run.waiting() != null && run.waiting().kind() == waitingFor))
        && (triggerEvent == null || triggerEvent.equals(run.triggerEvent()))
        && within(run.createdAt(), createdFrom, createdTo)
        && within(run.updatedAt(), updatedFrom, updatedTo);
  }

  private static boolean within(Instant at, Instant from, Instant to) {
    return (from == null || !at.isBefore(from)) && (to == null || at.isBefore(to));
  }

  public RunFilter withStatuses(Set<RunStatus> statuses) {
    return toBuilder().statuses(statuses).build();
  }

  public RunFilter withFlow(String flowName) {
    return toBuilder().flowName(flowName).build();
  }

  public RunFilter withNode(String node) {
    return toBuilder().node(node).build();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  public static Builder builder() {
    return new Builder(all());
  }

  /** Builds a filter field by field. Not thread-safe. */
  public static final class Builder {
    private Set<RunStatus> statuses;
    private String flowName;
    private String node;
    private UUID parentRunId;
    private UUID rootRunId;
    private boolean rootsOnly;
    private String idempotencyKey;
    private Boolean recoverable;
    private Instant createdFrom;
    private Instant createdTo;
    private Instant updatedFrom;
    private Instant updatedTo;
    private JsonNode inputContains;
    private JsonNode outputContains;
    private JsonPathPredicate inputPath;
    private JsonPathPredicate outputPath;
    private Set<String> ownerNotIn;
    private RunWait.Kind waitingFor;
    private EventRef triggerEvent;

    private Builder(RunFilter from) {
      statuses = from.statuses;
      flowName = from.flowName;
      node = from.node;
      parentRunId = from.parentRunId;
      rootRunId = from.rootRunId;
      rootsOnly = from.rootsOnly;
      idempotencyKey = from.idempotencyKey;
      recoverable = from.recoverable;
      createdFrom = from.createdFrom;
      createdTo = from.createdTo;
      updatedFrom = from.updatedFrom;
      updatedTo = from.updatedTo;
      inputContains = from.inputContains;
      outputContains = from.outputContains;
      inputPath = from.inputPath;
      outputPath = from.outputPath;
      ownerNotIn = from.ownerNotIn;
      waitingFor = from.waitingFor;
      triggerEvent = from.triggerEvent;
    }

    public Builder statuses(Set<RunStatus> statuses) {
      this.statuses = statuses;
      return this;
    }

    public Builder status(RunStatus first, RunStatus... more) {
      this.statuses = EnumSet.of(first, more);
      return this;
    }

    public Builder flowName(String flowName) {
      this.flowName = flowName;
      return this;
    }

    public Builder node(String node) {
      this.node = node;
      return this;
    }

    public Builder parentRunId(UUID parentRunId) {
      this.parentRunId = parentRunId;
      return this;
    }

    public Builder rootRunId(UUID rootRunId) {
      this.rootRunId = rootRunId;
      return this;
    }

    public Builder rootsOnly(boolean rootsOnly) {
      this.rootsOnly = rootsOnly;
      return this;
    }

    public Builder idempotencyKey(String idempotencyKey) {
      this.idempotencyKey = idempotencyKey;
      return this;
    }

    public Builder recoverable(Boolean recoverable) {
      this.recoverable = recoverable;
      return this;
    }

    public Builder created(Instant from, Instant to) {
      this.createdFrom = from;
      this.createdTo = to;
      return this;
    }

    public Builder updated(Instant from, Instant to) {
      this.updatedFrom = from;
      this.updatedTo = to;
      return this;
    }

    public Builder inputContains(JsonNode inputContains) {
      this.inputContains = inputContains;
      return this;
    }

    public Builder outputContains(JsonNode outputContains) {
      this.outputContains = outputContains;
      return this;
    }

    public Builder inputPath(JsonPathPredicate inputPath) {
      this.inputPath = inputPath;
      return this;
    }

    public Builder outputPath(JsonPathPredicate outputPath) {
      this.outputPath = outputPath;
      return this;
    }

    public Builder ownerNotIn(Set<String> ownerNotIn) {
      this.ownerNotIn = ownerNotIn;
      return this;
    }

    public Builder waitingFor(RunWait.Kind waitingFor) {
      this.waitingFor = waitingFor;
      return this;
    }

    public Builder triggerEvent(EventRef triggerEvent) {
      this.triggerEvent = triggerEvent;
      return this;
    }

    public RunFilter build() {
      return new RunFilter(
          statuses,
          flowName,
          node,
          parentRunId,
          rootRunId,
          rootsOnly,
          idempotencyKey,
          recoverable,
          createdFrom,
          createdTo,
          updatedFrom,
          updatedTo,
          inputContains,
          outputContains,
          inputPath,
          outputPath,
          ownerNotIn,
          waitingFor,
          triggerEvent);
    }
  }
}

package io.baton.journal.replay;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.ErrorInfo;
import io.baton.journal.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The replayed state of one run (root or subflow). Mutable; owned by one {@link TreeState}. */
@JsonAutoDetect(fieldVisibility = Visibility.ANY, getterVisibility = Visibility.NONE)
public final class RunState {
  UUID runId;
  UUID rootRunId;
  UUID parentRunId;
  String parentStep;
  String flowName;
  String flowHash;
  JsonNode input;
  JsonNode trigger;
  String traceparent;
  String idempotencyKey;
  RunStatus status = RunStatus.PENDING;
  String statusReason = "";
  boolean recoverable;
  JsonNode output;
  ErrorInfo error;
  Instant wakeAt;
  Instant createdAt;
  Instant updatedAt;
  LinkedHashMap<String, StepState> steps = new LinkedHashMap<>();
  ArrayList<CommandRecord> commands = new ArrayList<>();

  RunState() {}

  /** The commands that changed this run, oldest first: who, how, why and when. */
  public List<CommandRecord> commands() {
    return List.copyOf(commands);
  }

  public UUID runId() {
    return runId;
  }

  public UUID rootRunId() {
    return rootRunId;
  }

  /** The parent run of a subflow; null for a root run. */
  public UUID parentRunId() {
    return parentRunId;
  }

  /** The parent's step that started this subflow; null for a root run. */
  public String parentStep() {
    return parentStep;
  }

  public boolean isRoot() {
    return parentRunId == null;
  }

  public String flowName() {
    return flowName;
  }

  public String flowHash() {
    return flowHash;
  }

  public JsonNode input() {
    return input;
  }

  public JsonNode trigger() {
    return trigger;
  }

  /** The W3C trace context the run continues (see {@code RunCreated}), or null. */
  public String traceparent() {
    return traceparent;
  }

  public String idempotencyKey() {
    return idempotencyKey;
  }

  public RunStatus status() {
    return status;
  }

  public String statusReason() {
    return statusReason;
  }

  public boolean recoverable() {
    return recoverable;
  }

  public JsonNode output() {
    return output;
  }

  public ErrorInfo error() {
    return error;
  }

  public Instant wakeAt() {
    return wakeAt;
  }

  public Instant createdAt() {
    return createdAt;
  }

  public Instant updatedAt() {
    return updatedAt;
  }

  /** The step's state; steps the journal never mentioned are PENDING with no attempts. */
  public StepState step(String name) {
    return steps.computeIfAbsent(name, StepState::new);
  }

  /** Whether the journal mentions the step at all. */
  public boolean hasStep(String name) {
    return steps.containsKey(name);
  }

  /** The steps the journal mentions, in the order it first mentioned them. */
  public Collection<StepState> steps() {
    return Collections.unmodifiableCollection(steps.values());
  }

  Map<String, StepState> stepMap() {
    return steps;
  }
}

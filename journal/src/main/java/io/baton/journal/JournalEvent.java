package io.baton.journal;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A state change of a run. The set is closed: every event is one of the records below and is
 * encoded with an explicit type tag (its simple name). Only state-changing events are journaled. A
 * step's start is journaled ({@link StepStarted}) only where the flow's recovery policy needs to
 * know that the step may have been executing; otherwise a step whose completion is not journaled
 * runs again after a crash (at least once), while its completion is journaled exactly once.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = RunCreated.class, name = "RunCreated"),
  @JsonSubTypes.Type(value = StepStarted.class, name = "StepStarted"),
  @JsonSubTypes.Type(value = StepCompleted.class, name = "StepCompleted"),
  @JsonSubTypes.Type(value = StepFailed.class, name = "StepFailed"),
  @JsonSubTypes.Type(value = StepRepeated.class, name = "StepRepeated"),
  @JsonSubTypes.Type(value = RunWaiting.class, name = "RunWaiting"),
  @JsonSubTypes.Type(value = RunWoken.class, name = "RunWoken"),
  @JsonSubTypes.Type(value = RunClaimed.class, name = "RunClaimed"),
  @JsonSubTypes.Type(value = RunStatusChanged.class, name = "RunStatusChanged"),
  @JsonSubTypes.Type(value = RunCompleted.class, name = "RunCompleted"),
  @JsonSubTypes.Type(value = CommandApplied.class, name = "CommandApplied")
})
public sealed interface JournalEvent
    permits RunCreated,
        StepStarted,
        StepCompleted,
        StepFailed,
        StepRepeated,
        RunWaiting,
        RunWoken,
        RunClaimed,
        RunStatusChanged,
        RunCompleted,
        CommandApplied {}

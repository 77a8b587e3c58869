package io.baton.node.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.baton.engine.RunView;
import io.baton.engine.StepView;
import io.baton.journal.ErrorInfo;
import io.baton.journal.RunStatus;
import io.baton.journal.RunWait;
import io.baton.journal.replay.ClaimRecord;
import io.baton.journal.replay.CommandRecord;
import io.baton.store.RunRecord;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A run as the API shows it. Lists and commands answer with the summary; {@code GET /api/runs/{id}}
 * adds {@code steps}, {@code children} (subflow run ids), {@code ownership} (every claim, oldest
 * first) and {@code commands} (every command that changed the run: {@code command, by, via, reason,
 * at}, oldest first) and, for a run an event started, {@code trigger} (the event's {@code id,
 * source, type, time} and {@code href}, its address in the API). {@code state} is the derived state
 * when the status alone does not say it: {@code recoverable-failure}, {@code stuck} (RUNNING, no
 * live node executes it), and for a WAITING run what it waits for: {@code retrying} (a failed
 * step's next attempt is due later), {@code waiting-approval}, {@code waiting-timer} and {@code
 * waiting-child}; null otherwise. On a run's own page a RUNNING run whose step is in a short
 * back-off (one that did not park it) is {@code retrying} too, read from its steps. {@code waiting}
 * details a WAITING run's wait as recorded when it parked: {@code for} ({@code approval}, {@code
 * retry}, {@code timer}, {@code child}), the waiting step's name, and for a retry {@code attempt}
 * and {@code maxAttempts} (attempt n of m, n the attempt due next) and {@code at} (the next try),
 * for a timer {@code at} (when it falls due); null when the run waits for nothing recorded.
 */
public record RunJson(
    UUID id,
    String flow,
    String flowHash,
    RunStatus status,
    String state,
    String statusReason,
    JsonNode input,
    JsonNode output,
    ErrorInfo error,
    boolean recoverable,
    String orchestratorId,
    UUID parentRunId,
    String parentStep,
    UUID rootRunId,
    Instant createdAt,
    Instant updatedAt,
    Instant wakeAt,
    WaitingJson waiting,
    String idempotencyKey,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<StepView> steps,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<UUID> children,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<ClaimRecord> ownership,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<CommandRecord> commands,
    @JsonInclude(JsonInclude.Include.NON_NULL) TriggerJson trigger) {

  /**
   * The event that started a run (on the detail only): its CloudEvents identity and the link to the
   * event, whose answer lists the runs it started.
   */
  public record TriggerJson(String id, String source, String type, String time, String href) {
    static TriggerJson of(JsonNode envelope) {
      if (envelope == null || !envelope.isObject()) {
        return null;
      }
      String id = envelope.path("id").asText(null);
      String source = envelope.path("source").asText(null);
      String time = envelope.path("time").asText(null);
      return new TriggerJson(
          id,
          source,
          envelope.path("type").asText(null),
          time,
          id == null || source == null
              ? null
              : "/api/v1/events?source=" + encoded(source) + "&id=" + encoded(id));
    }

    private static String encoded(String text) {
      return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
  }

  /** What a WAITING run waits for; see the class's description. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record WaitingJson(
      @JsonProperty("for") String waitingFor,
      String step,
      Integer attempt,
      Integer maxAttempts,
      Instant at) {
    static WaitingJson of(RunRecord run) {
      RunWait wait = run.waiting();
      if (wait == null || run.status() != RunStatus.WAITING) {
        return null;
      }
      boolean retry = wait.kind() == RunWait.Kind.RETRY;
      return new WaitingJson(
          wait.kind().name().toLowerCase(Locale.ROOT),
          wait.step(),
          retry ? wait.attempt() : null,
          retry ? wait.maxAttempts() : null,
          wait.at());
    }
  }

  /** A run without derived state (answers to commands and submissions). */
  public static RunJson summary(RunRecord run) {
    return of(run, null, null, null, null, null, null);
  }

  /** A run in a list, with its derived state as of {@code liveness}. */
  static RunJson listed(RunRecord run, Liveness liveness) {
    DerivedState state = DerivedState.of(run, liveness);
    return of(run, state == null ? null : state.id(), null, null, null, null, null);
  }

  public static RunJson detail(RunView view) {
    return of(
        view.run(),
        null,
        view.steps(),
        view.children(),
        view.ownership(),
        view.commands(),
        TriggerJson.of(view.trigger()));
  }

  /** The detail with its derived state, computed from its steps as well. */
  static RunJson detail(RunView view, Liveness liveness) {
    DerivedState listed = DerivedState.of(view.run(), liveness);
    String state = listed == null ? stepState(view) : listed.id();
    return of(
        view.run(),
        state,
        view.steps(),
        view.children(),
        view.ownership(),
        view.commands(),
        TriggerJson.of(view.trigger()));
  }

  private static String stepState(RunView view) {
    if (view.run().status() == RunStatus.WAITING || view.run().status() == RunStatus.RUNNING) {
      for (StepView step : view.steps()) {
        if ("WAITING".equals(step.status()) && step.waitingFor() != null) {
          return "waiting-" + step.waitingFor().toLowerCase(Locale.ROOT);
        }
      }
      for (StepView step : view.steps()) {
        if ("RETRY_WAIT".equals(step.status())) {
          return "retrying";
        }
      }
    }
    return null;
  }

  private static RunJson of(
      RunRecord run,
      String state,
      List<StepView> steps,
      List<UUID> children,
      List<ClaimRecord> ownership,
      List<CommandRecord> commands,
      TriggerJson trigger) {
    return new RunJson(
        run.runId(),
        run.flowName(),
        run.flowHash(),
        run.status(),
        state,
        run.statusReason(),
        run.input(),
        run.output(),
        run.error(),
        run.recoverable(),
        run.orchestratorId(),
        run.parentRunId(),
        run.parentStep(),
        run.rootRunId(),
        run.createdAt(),
        run.updatedAt(),
        run.wakeAt(),
        WaitingJson.of(run),
        run.idempotencyKey(),
        steps,
        children,
        ownership,
        commands,
        trigger);
  }
}

package io.baton.capability.builtin;

import static io.baton.capability.builtin.Invocations.invocation;
import static io.baton.capability.builtin.Invocations.json;
import static io.baton.capability.builtin.Invocations.outcomeOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.capability.Capability.ParamProblem;
import io.baton.capability.ErrorCodes;
import io.baton.capability.StepOutcome;
import io.baton.capability.StepOutcome.Failed;
import io.baton.capability.StepOutcome.Suspended;
import io.baton.journal.WaitReason;
import io.baton.testkit.SettableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code sleep}, {@code approval} and {@code flow}: steps that park the run durably. */
class SuspendingCapabilitiesTest {
  private final SettableClock clock = new SettableClock();

  @Test
  void sleep_suspends_on_a_timer_due_after_the_duration_on_the_invocations_clock()
      throws Exception {
    clock.advance(Duration.ofMinutes(5));

    StepOutcome outcome =
        outcomeOf(
            new SleepCapability()
                .invoke(invocation(null, json("{\"duration\": \"1h30m\"}"), clock)));

    assertThat(outcome)
        .isEqualTo(
            new Suspended(
                WaitReason.TIMER,
                SettableClock.EPOCH.plus(Duration.ofMinutes(95)),
                json("{\"duration\": \"1h30m\"}")));
  }

  @Test
  void sleep_with_a_rendered_duration_that_is_not_one_fails_as_invalid_params() throws Exception {
    StepOutcome outcome =
        outcomeOf(
            new SleepCapability().invoke(invocation(null, json("{\"duration\": \"5\"}"), clock)));

    assertThat(outcome)
        .isEqualTo(
            new Failed(
                ErrorCodes.INVALID_PARAMS,
                "invalid params for sleep: duration: '5' is not a duration; write a number with a"
                    + " unit: 250ms, 10s, 5m, 2h, 1d",
                false));
  }

  @Test
  void sleep_checks_a_literal_duration_before_any_run_but_not_a_template() {
    SleepCapability sleep = new SleepCapability();

    assertThat(sleep.validate(null, json("{\"duration\": \"soon\"}")))
        .containsExactly(
            new ParamProblem(
                "duration",
                "'soon' is not a duration; write a number with a unit: 250ms, 10s, 5m, 2h, 1d"));
    assertThat(sleep.validate(null, json("{}")))
        .containsExactly(
            new ParamProblem(
                "duration", "missing param 'duration': sleep needs how long to wait, such as 2s"));
    assertThat(sleep.validate(null, json("{\"duration\": \"{{ input.wait }}\"}"))).isEmpty();
  }

  @Test
  void approval_suspends_without_a_due_time_and_carries_the_prompt() throws Exception {
    StepOutcome outcome =
        outcomeOf(
            new ApprovalCapability()
                .invoke(invocation(null, json("{\"prompt\": \"Ship A-7?\"}"), clock)));

    assertThat(outcome)
        .isEqualTo(new Suspended(WaitReason.APPROVAL, null, json("{\"prompt\": \"Ship A-7?\"}")));
  }

  @Test
  void approval_needs_a_prompt() throws Exception {
    ApprovalCapability approval = new ApprovalCapability();

    assertThat(approval.validate(null, json("{\"prompt\": 3, \"to\": \"ops\"}")))
        .containsExactly(
            new ParamProblem("to", "unknown param 'to' for approval; allowed params: prompt"),
            new ParamProblem("prompt", "prompt must be a string, not the number 3"));
    assertThat(outcomeOf(approval.invoke(invocation(null, json("{}"), clock))))
        .isEqualTo(
            new Failed(
                ErrorCodes.INVALID_PARAMS,
                "invalid params for approval: prompt: missing param 'prompt': approval needs a"
                    + " prompt that tells the approver what to decide",
                false));
  }

  @Test
  void flow_suspends_for_a_child_run_of_the_named_flow_with_its_input() throws Exception {
    StepOutcome outcome =
        outcomeOf(
            new SubflowCapability()
                .invoke(
                    invocation(
                        null,
                        json("{\"flow\": \"pack-order\", \"input\": {\"order\": \"A-7\"}}"),
                        clock)));

    assertThat(outcome)
        .isEqualTo(
            new Suspended(
                WaitReason.CHILD,
                null,
                json("{\"flow\": \"pack-order\", \"input\": {\"order\": \"A-7\"}}")));
  }

  @Test
  void flow_without_input_passes_null() throws Exception {
    StepOutcome outcome =
        outcomeOf(
            new SubflowCapability().invoke(invocation(null, json("{\"flow\": \"audit\"}"), clock)));

    assertThat(outcome)
        .isEqualTo(
            new Suspended(WaitReason.CHILD, null, json("{\"flow\": \"audit\", \"input\": null}")));
  }

  @Test
  void flow_needs_a_valid_flow_name() {
    SubflowCapability subflow = new SubflowCapability();

    assertThat(subflow.validate(null, json("{\"flow\": \"pack order\"}")))
        .containsExactly(
            new ParamProblem(
                "flow",
                "'pack order' is not a valid flow name: use letters, digits, '-' and '_',"
                    + " starting with a letter"));
    assertThat(subflow.validate(null, json("{\"input\": 1}")))
        .containsExactly(
            new ParamProblem(
                "flow", "missing param 'flow': flow needs the name of the flow to run"));
    assertThat(subflow.validate(null, json("{\"flow\": \"{{ input.which }}\"}"))).isEmpty();
  }
}

package io.baton.node.cli;

import picocli.CommandLine.Command;

/** {@code baton reject ID [--step S] [--comment C]}: the run fails, not resumable. */
@Command(
    name = "reject",
    mixinStandardHelpOptions = true,
    description = "Reject a run's step(s) waiting for approval; the run fails.")
final class RejectCommand extends AnswerCommand {
  @Override
  String action() {
    return "reject";
  }

  @Override
  String done() {
    return "rejected";
  }
}

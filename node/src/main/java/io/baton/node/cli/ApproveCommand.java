package io.baton.node.cli;

import picocli.CommandLine.Command;

/** {@code baton approve ID [--step S] [--comment C]}. */
@Command(
    name = "approve",
    mixinStandardHelpOptions = true,
    description = "Approve a run's step(s) waiting for approval.")
final class ApproveCommand extends AnswerCommand {
  @Override
  String action() {
    return "approve";
  }

  @Override
  String done() {
    return "approved";
  }
}

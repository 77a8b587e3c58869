package io.baton.node.cli;

import picocli.CommandLine.Command;

/** {@code baton resume ID}. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description = "Resume a failed, recoverable run: its failed steps run again.")
final class ResumeCommand extends RunActionCommand {
  @Override
  String action() {
    return "resume";
  }

  @Override
  String done() {
    return "resumed";
  }
}

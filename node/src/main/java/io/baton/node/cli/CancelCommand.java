package io.baton.node.cli;

import picocli.CommandLine.Command;

/** {@code baton cancel ID}. */
@Command(
    name = "cancel",
    mixinStandardHelpOptions = true,
    description = "Cancel a pending, running or waiting run.")
final class CancelCommand extends RunActionCommand {
  @Override
  String action() {
    return "cancel";
  }

  @Override
  String done() {
    return "cancelled";
  }
}

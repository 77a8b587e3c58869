package io.baton.node.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code baton flows apply | list}. */
@Command(
    name = "flows",
    mixinStandardHelpOptions = true,
    description = "Apply, list and show flows.",
    subcommands = {ApplyFlowCommand.class, ListFlowsCommand.class, ShowFlowCommand.class})
final class FlowsCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: apply, list or show");
  }
}

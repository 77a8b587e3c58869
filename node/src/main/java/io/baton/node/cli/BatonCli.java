package io.baton.node.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The {@code baton} command line: the server commands the caller passes in ({@code node}, {@code
 * dev}) and the client commands that talk to a node's API. Exit codes are {@link ExitCodes}; output
 * goes to the command line's out, errors to its err (set them before {@code execute} to capture).
 */
public final class BatonCli {
  private BatonCli() {}

  /** The {@code baton} command with {@code serverCommands} (picocli command objects) first. */
  public static CommandLine commandLine(Object... serverCommands) {
    CommandLine cli = new CommandLine(new Root());
    for (Object command : serverCommands) {
      cli.addSubcommand(command);
    }
    for (Object command : clientCommands()) {
      cli.addSubcommand(command);
    }
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setExecutionExceptionHandler(new FailureHandler());
    return cli;
  }

  private static Object[] clientCommands() {
    return new Object[] {
      new FlowsCommand(),
      new SubmitCommand(),
      new EmitCommand(),
      new RunsCommand(),
      new RunCommand(),
      new ResumeCommand(),
      new RetryNowCommand(),
      new DiscardCommand(),
      new CancelCommand(),
      new ApproveCommand(),
      new RejectCommand(),
      new ClusterCommand(),
      new JournalCommand(),
      new CompletionCommand(),
      new VersionCommand(),
      new KeysCommand()
    };
  }

  @Command(
      name = "baton",
      mixinStandardHelpOptions = true,
      versionProvider = ClientVersion.Provider.class,
      description = "Baton, a durable workflow orchestrator: run a node, or talk to one.")
  static final class Root implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
      throw new ParameterException(spec.commandLine(), "Missing command");
    }
  }

  /** Prints a failed command's message to stderr and exits with its code; other errors exit 1. */
  static final class FailureHandler implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(
        Exception exception, CommandLine command, ParseResult parsed) {
      if (exception instanceof CommandFailedException failed) {
        command.getErr().println(failed.getMessage());
        command.getErr().flush();
        return failed.exitCode();
      }
      command.getErr().println("baton: " + exception);
      command.getErr().flush();
      return ExitCodes.ERROR;
    }
  }
}

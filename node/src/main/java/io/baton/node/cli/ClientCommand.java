package io.baton.node.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that talks to a node's API: {@code --server} and the rest of {@link ServerOption}, and
 * {@code -o} ({@link OutputOption}) for what it prints to the command's stdout.
 */
abstract class ClientCommand implements Callable<Integer> {
  @Mixin ServerOption server = new ServerOption();

  @Mixin OutputOption outputOption = new OutputOption();

  @Spec CommandSpec spec;

  PrintWriter out() {
    return spec.commandLine().getOut();
  }

  PrintWriter err() {
    return spec.commandLine().getErr();
  }

  /** Where the command prints its result, in the format {@code -o} asked for. */
  Output output() {
    return outputOption.to(out());
  }

  BatonClient client() {
    return server.client();
  }

  @Override
  public Integer call() {
    run(client());
    out().flush();
    err().flush();
    return exitCode();
  }

  /** What the command exits with once {@link #run} returned ({@link ExitCodes#OK} unless set). */
  int exitCode() {
    return ExitCodes.OK;
  }

  /** Does the command's work; failures are {@link CommandFailedException}s. */
  abstract void run(BatonClient client);
}

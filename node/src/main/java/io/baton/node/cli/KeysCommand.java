package io.baton.node.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code baton keys create}. */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    description = "Create API keys for the keys file (auth.keysFile).",
    subcommands = {CreateKeyCommand.class})
final class KeysCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: create");
  }
}

package io.baton.node.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code baton keys create | list | revoke}. */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    description =
        "Manage API keys: create, list and revoke them through a node (as an admin), or print an"
            + " entry for the keys file (create --file-entry).",
    subcommands = {CreateKeyCommand.class, ListKeysCommand.class, RevokeKeyCommand.class})
final class KeysCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: create, list or revoke");
  }
}

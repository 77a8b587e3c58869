package io.baton.node;

import io.baton.node.cli.BatonCli;

/**
 * The {@code baton} command: {@code node}, {@code dev}, {@code migrate} and the client commands.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(
        BatonCli.commandLine(
                new ServerCommands.NodeCommand(),
                new ServerCommands.DevCommand(),
                new ServerCommands.MigrateCommand())
            .execute(args));
  }
}

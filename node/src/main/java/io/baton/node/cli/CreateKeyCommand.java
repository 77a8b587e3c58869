package io.baton.node.cli;

import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Role;
import io.baton.time.Durations;
import io.baton.time.SystemScheduler;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code baton keys create --name N --role R [--flows P,...] [--expires 90d]}: makes a token,
 * prints it once, and prints the entry for the keys file, which holds only the token's hash. Talks
 * to no server.
 */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description =
        "Create an API key: print its token (once) and the entry to add to the keys file.")
final class CreateKeyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--name", required = true, description = "Unique name; journaled as who acted.")
  String name;

  @Option(names = "--role", required = true, description = "viewer, operator, developer or admin.")
  String role;

  @Option(
      names = "--flows",
      split = ",",
      paramLabel = "PATTERN",
      description = "Only these flows ('*' matches any run of characters), e.g. billing-*.")
  List<String> flows = List.of();

  @Option(
      names = "--expires",
      paramLabel = "DURATION",
      description = "Stops working after this long, e.g. 90d, 12h.")
  String expires;

  @Override
  public Integer call() {
    Role parsedRole;
    try {
      parsedRole = Role.parse(role);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--role: " + e.getMessage());
    }
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9._@-]*")) {
      throw new ParameterException(
          spec.commandLine(), "--name: use letters, digits, '.', '_', '@' and '-'");
    }
    Instant expiresAt = null;
    if (expires != null) {
      try {
        expiresAt =
            SystemScheduler.systemClock()
                .instant()
                .plus(Durations.parse(expires))
                .truncatedTo(ChronoUnit.SECONDS);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--expires: " + e.getMessage());
      }
    }
    String token = ApiTokens.generate();
    PrintWriter out = spec.commandLine().getOut();
    out.println("token: " + token);
    out.println("# Shown once: give it to the caller (BATON_TOKEN or --token). Add this entry");
    out.println("# under 'keys:' in the node's keys file (auth.keysFile):");
    out.println("  - name: " + name);
    out.println("    role: " + parsedRole.displayName());
    out.println("    hash: " + ApiTokens.hash(token));
    if (!flows.isEmpty()) {
      out.println(
          "    flows: ["
              + String.join(", ", flows.stream().map(f -> "\"" + f + "\"").toList())
              + "]");
    }
    if (expiresAt != null) {
      out.println("    expires: " + expiresAt);
    }
    out.flush();
    return ExitCodes.OK;
  }
}

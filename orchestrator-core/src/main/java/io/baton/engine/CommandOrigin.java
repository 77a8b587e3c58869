package io.baton.engine;

import io.baton.journal.CommandApplied;

/**
 * Who gives a command to a run, how they proved it and why; journaled with the change the command
 * causes ({@link CommandApplied}).
 *
 * @param by the caller's name (an API key's name, a token's subject), or null when unknown
 * @param via how the caller authenticated ({@code key}, {@code oidc}, {@code none}), or null
 * @param reason the caller's reason or comment, or null
 */
public record CommandOrigin(String by, String via, String reason) {
  /** A caller known only by name, as the engine's direct callers name themselves. */
  public static CommandOrigin named(String by) {
    return new CommandOrigin(by, null, null);
  }

  /** The journal event recording {@code command} given by this origin. */
  public CommandApplied applied(String command) {
    return new CommandApplied(command, by, via, reason);
  }
}

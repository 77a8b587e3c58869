package io.baton.journal;

import java.util.UUID;

/**
 * An append or checkpoint carried a token that is no longer the run's current one: another node
 * owns the run now. The caller must drop the run and never retry under the old token.
 */
public class FencedOutException extends JournalException {
  private final long staleToken;
  private final long currentToken;

  public FencedOutException(UUID rootRunId, long staleToken, long currentToken) {
    super(
        "run "
            + rootRunId
            + " is fenced: token "
            + staleToken
            + " is stale, the current token is "
            + currentToken,
        rootRunId);
    this.staleToken = staleToken;
    this.currentToken = currentToken;
  }

  public long staleToken() {
    return staleToken;
  }

  public long currentToken() {
    return currentToken;
  }
}

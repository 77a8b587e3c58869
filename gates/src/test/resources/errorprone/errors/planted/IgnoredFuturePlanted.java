package planted;

import java.util.concurrent.CompletableFuture;

/** Planted for Error Prone's FutureReturnValueIgnored: a future whose failure nobody sees. */
public final class IgnoredFuturePlanted {
  public void fireAndForget(Runnable task) {
    CompletableFuture.runAsync(task);
  }
}

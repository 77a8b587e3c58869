package io.baton.time;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completion callbacks that never fail silently. {@code stage.whenComplete(callback)} returns a
 * future that holds what the callback threw; a caller that only wants the callback to run drops
 * that future, and with it the failure. Stateless and thread-safe.
 */
public final class Futures {
  private static final Logger log = LoggerFactory.getLogger(Futures.class);

  private Futures() {}

  /**
   * Runs {@code callback} when {@code stage} completes, with its value or its failure. A callback
   * that throws is logged: at debug when it handed work to an executor that has shut down (a
   * completion arriving during shutdown), else as an error.
   */
  // Nothing is lost by dropping whenComplete's future: the callback below cannot throw.
  @SuppressWarnings("FutureReturnValueIgnored")
  public static <T> void whenComplete(
      CompletionStage<T> stage, BiConsumer<? super T, ? super Throwable> callback) {
    stage.whenComplete(
        (value, failure) -> {
          try {
            callback.accept(value, failure);
          } catch (RejectedExecutionException shutDown) {
            log.debug("a completion came after its executor shut down", shutDown);
          } catch (Throwable callbackFailure) {
            log.error("a completion callback failed", callbackFailure);
          }
        });
  }

  /**
   * {@code stage.handle(function)} for a function that returns a stage, flattened: the result
   * completes as the function's stage does (Java 17 has no {@code handleCompose}).
   */
  // The nested future exists only inside this method, which flattens it at once.
  @SuppressWarnings("FutureReturnValueIgnored")
  public static <T, U> CompletableFuture<U> handleCompose(
      CompletableFuture<T> stage,
      BiFunction<? super T, Throwable, ? extends CompletionStage<U>> function) {
    return stage.handle(function).thenCompose(next -> next);
  }
}

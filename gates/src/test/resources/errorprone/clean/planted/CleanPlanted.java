package planted;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/** The control: code that keeps every rule compiles without a diagnostic. */
public final class CleanPlanted {
  private final List<String> names = List.of("A", "B");

  public CompletableFuture<Void> run(Runnable task) {
    return CompletableFuture.runAsync(task);
  }

  public String first() {
    return names.get(0).toLowerCase(Locale.ROOT);
  }
}

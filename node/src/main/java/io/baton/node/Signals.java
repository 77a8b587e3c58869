package io.baton.node;

import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT: the first one starts the graceful stop, the second skips the drain. (JVM
 * shutdown hooks cannot tell a second signal from the first, so the handler is installed directly.)
 */
final class Signals {
  private static final Logger log = LoggerFactory.getLogger(Signals.class);

  private Signals() {}

  static void install(Runnable first, Runnable second) {
    AtomicInteger received = new AtomicInteger();
    for (String name : new String[] {"TERM", "INT"}) {
      Signal.handle(
          new Signal(name),
          signal -> {
            int count = received.incrementAndGet();
            log.info(
                "received SIG{} ({})",
                signal.getName(),
                count == 1 ? "draining" : "skipping the drain");
            Thread handler = new Thread(count == 1 ? first : second, "baton-signal-" + count);
            handler.start();
          });
    }
  }
}

package io.baton.engine.testing;

import io.baton.journal.ExecutionJournal;
import io.baton.store.MetadataStore;
import io.baton.store.StoreUnavailableException;
import io.baton.store.Stores;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * One node's view of shared stores that a test can cut off, as a proxy that drops only that node's
 * database connections would: while cut, every journal and metadata call fails with {@link
 * StoreUnavailableException}; the other nodes reach the same stores as before. Thread-safe.
 */
public final class CuttableStores {
  private volatile boolean cut;

  public void cut() {
    cut = true;
  }

  public void heal() {
    cut = false;
  }

  /** {@code shared} as this node sees it. */
  public Stores wrap(Stores shared) {
    return new Stores(
        proxy(ExecutionJournal.class, shared.journal()),
        proxy(MetadataStore.class, shared.metadata()),
        shared.blobs(),
        null);
  }

  private <T> T proxy(Class<T> type, T delegate) {
    InvocationHandler handler =
        (self, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return method.invoke(delegate, args);
          }
          if (cut) {
            throw new StoreUnavailableException("the store is cut off from this node", null);
          }
          try {
            return method.invoke(delegate, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}

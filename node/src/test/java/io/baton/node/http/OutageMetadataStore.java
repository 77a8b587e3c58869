package io.baton.node.http;

import io.baton.store.MetadataStore;
import io.baton.store.StoreUnavailableException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * A metadata store that can be cut off: while {@link #down} is set, every call fails with {@link
 * StoreUnavailableException}, as a real store does when its database does not answer.
 */
final class OutageMetadataStore {
  private final MetadataStore store;
  private volatile boolean down;

  OutageMetadataStore(MetadataStore delegate) {
    this.store =
        (MetadataStore)
            Proxy.newProxyInstance(
                MetadataStore.class.getClassLoader(),
                new Class<?>[] {MetadataStore.class},
                (proxy, method, args) -> {
                  if (down) {
                    throw new StoreUnavailableException(
                        "the metadata store does not answer (test outage)", null);
                  }
                  try {
                    return method.invoke(delegate, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
  }

  /** The store to give the node. */
  MetadataStore store() {
    return store;
  }

  void down(boolean down) {
    this.down = down;
  }
}

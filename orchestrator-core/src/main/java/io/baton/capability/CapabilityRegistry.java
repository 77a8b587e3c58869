package io.baton.capability;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The capabilities a node can invoke, by name. Immutable once built; thread-safe. */
public final class CapabilityRegistry {
  private final Map<String, Capability> capabilities;

  private CapabilityRegistry(Map<String, Capability> capabilities) {
    this.capabilities = Collections.unmodifiableMap(new TreeMap<>(capabilities));
  }

  public static Builder builder() {
    return new Builder();
  }

  public Optional<Capability> find(String name) {
    return Optional.ofNullable(capabilities.get(name));
  }

  public Collection<Capability> all() {
    return capabilities.values();
  }

  /** Collects capabilities; a later registration of a name replaces an earlier one. */
  public static final class Builder {
    private final Map<String, Capability> capabilities = new TreeMap<>();

    public Builder register(Capability capability) {
      capabilities.put(capability.name(), capability);
      return this;
    }

    /** Adds every capability found with {@link ServiceLoader} on the class path. */
    public Builder discover(ClassLoader loader) {
      for (Capability capability : ServiceLoader.load(Capability.class, loader)) {
        register(capability);
      }
      return this;
    }

    public CapabilityRegistry build() {
      return new CapabilityRegistry(capabilities);
    }
  }
}

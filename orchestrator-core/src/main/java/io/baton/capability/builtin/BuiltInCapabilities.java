package io.baton.capability.builtin;

import io.baton.capability.Capability;
import io.baton.capability.CapabilityRegistry;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;

/**
 * The capabilities every node has ({@code http}, {@code log}, {@code noop}, {@code sleep}, {@code
 * approval}, {@code flow}) plus those found with {@link java.util.ServiceLoader}. A discovered
 * capability replaces a built-in of the same name.
 */
public final class BuiltInCapabilities {
  private BuiltInCapabilities() {}

  /** Built-ins on a new HTTP client, plus capabilities on the context class loader's path. */
  public static CapabilityRegistry registry() {
    return registry(EgressPolicy.defaults());
  }

  /**
   * Built-ins on a new HTTP client whose {@code http} calls go only where {@code egress} allows,
   * plus capabilities on the context class loader's path.
   */
  public static CapabilityRegistry registry(EgressPolicy egress) {
    CapabilityRegistry.Builder builder = CapabilityRegistry.builder();
    HttpClient http = HttpClient.newHttpClient();
    builder.register(new HttpCapability(http, egress, HostResolver.SYSTEM));
    others().forEach(builder::register);
    return builder.discover(defaultLoader()).build();
  }

  /** Built-ins calling through {@code http}, plus capabilities {@code loader} finds. */
  public static CapabilityRegistry registry(HttpClient http, ClassLoader loader) {
    return register(CapabilityRegistry.builder(), http, loader).build();
  }

  /** Adds the built-ins, then what {@code loader} finds, to {@code builder}. */
  public static CapabilityRegistry.Builder register(
      CapabilityRegistry.Builder builder, HttpClient http, ClassLoader loader) {
    all(http).forEach(builder::register);
    return builder.discover(loader);
  }

  /** One instance of each built-in; {@code http} calls through the given client. */
  public static List<Capability> all(HttpClient http) {
    List<Capability> all = new ArrayList<>();
    all.add(new HttpCapability(http));
    all.addAll(others());
    return List.copyOf(all);
  }

  private static List<Capability> others() {
    return List.of(
        new LogCapability(),
        new NoopCapability(),
        new SleepCapability(),
        new ApprovalCapability(),
        new SubflowCapability());
  }

  private static ClassLoader defaultLoader() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return context != null ? context : BuiltInCapabilities.class.getClassLoader();
  }
}

package io.baton.capability.builtin;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the {@code http} capability may send requests, so that whoever may apply flows cannot use a
 * node to reach what the node can reach. Decided on the host name and on every address it resolves
 * to (a name that resolves to a denied address is refused, however it is spelled).
 *
 * <p>In order: an address or name matching {@code denied} is refused; one matching {@code allowed}
 * is accepted; an address the policy denies by default is refused (link-local {@code
 * 169.254.0.0/16} and {@code fe80::/10}, cloud metadata addresses and names, the unspecified
 * addresses, and loopback unless {@code allowLoopback}); then, when {@code allowed} is not empty,
 * anything it does not match is refused. A default denial is lifted only by an {@code allowed}
 * entry that names the address's network (an address or CIDR): a name pattern never lifts it, since
 * whoever controls that name's DNS could point it anywhere.
 *
 * <p>Entries are CIDRs ({@code 10.0.0.0/8}, {@code fd00::/8}), addresses, host names or host
 * patterns ({@code *.example.com} matches every name under it, not the name itself). Immutable and
 * thread-safe.
 */
public final class EgressPolicy {
  public static final String ALLOWED_KEY = "egress.allowedHosts";
  public static final String DENIED_KEY = "egress.deniedHosts";
  public static final String LOOPBACK_KEY = "egress.allowLoopback";

  private static final List<Network> DENIED_BY_DEFAULT =
      List.of(
          Network.parse("169.254.0.0/16", "link-local"),
          Network.parse("fe80::/10", "link-local"),
          Network.parse("100.100.100.200/32", "a cloud metadata address (Alibaba Cloud)"),
          Network.parse("fd00:ec2::254/128", "a cloud metadata address (AWS, IPv6)"),
          Network.parse("0.0.0.0/8", "unspecified ('this network')"),
          Network.parse("::/128", "unspecified"));
  private static final List<String> METADATA_NAMES =
      List.of("metadata.google.internal", "metadata", "instance-data", "metadata.azure.internal");
  private static final Network LOOPBACK_V4 = Network.parse("127.0.0.0/8", "loopback");
  private static final Network LOOPBACK_V6 = Network.parse("::1/128", "loopback");

  private final List<Entry> allowed;
  private final List<Entry> denied;
  private final boolean allowLoopback;

  /**
   * @throws IllegalArgumentException an entry is neither a CIDR, an address nor a host pattern; the
   *     message names the key and the entry
   */
  public EgressPolicy(List<String> allowed, List<String> denied, boolean allowLoopback) {
    this.allowed = entries(allowed, ALLOWED_KEY);
    this.denied = entries(denied, DENIED_KEY);
    this.allowLoopback = allowLoopback;
  }

  /** Link-local, metadata, unspecified and loopback addresses denied; everything else allowed. */
  public static EgressPolicy defaults() {
    return new EgressPolicy(List.of(), List.of(), false);
  }

  /** The defaults with loopback allowed (for {@code baton dev} and tests on a local server). */
  public static EgressPolicy allowingLoopback() {
    return new EgressPolicy(List.of(), List.of(), true);
  }

  /**
   * Why a request to {@code host}, which resolved to {@code addresses}, is refused, or empty when
   * it may be sent. Every address must be acceptable.
   */
  public Optional<String> refusal(String host, List<InetAddress> addresses) {
    String name = normalized(host);
    for (Entry entry : denied) {
      if (entry.matchesName(name)) {
        return Optional.of(host + " matches " + entry + " in " + DENIED_KEY);
      }
    }
    if (METADATA_NAMES.contains(name)) {
      return Optional.of(
          host + " is a cloud metadata service's name, denied by default (" + ALLOWED_KEY + ")");
    }
    boolean nameAllowed = allowed.stream().anyMatch(entry -> entry.matchesName(name));
    for (InetAddress raw : addresses) {
      InetAddress address = unmapped(raw);
      Optional<String> refused = refusal(host, address, nameAllowed);
      if (refused.isPresent()) {
        return refused;
      }
    }
    return Optional.empty();
  }

  private Optional<String> refusal(String host, InetAddress address, boolean nameAllowed) {
    String what = describe(host, address);
    for (Entry entry : denied) {
      if (entry.matchesAddress(address)) {
        return Optional.of(what + " is in " + entry + " in " + DENIED_KEY);
      }
    }
    boolean addressAllowed = allowed.stream().anyMatch(entry -> entry.matchesAddress(address));
    if (!addressAllowed) {
      Optional<Network> byDefault = deniedByDefault(address);
      if (byDefault.isPresent()) {
        Network network = byDefault.get();
        return Optional.of(
            what
                + " is "
                + network.meaning()
                + " ("
                + network
                + "), denied by default"
                + (network.meaning().equals("loopback")
                    ? "; set " + LOOPBACK_KEY + ": true to allow it"
                    : "; list the network in " + ALLOWED_KEY + " to allow it"));
      }
    }
    if (!allowed.isEmpty() && !addressAllowed && !nameAllowed) {
      return Optional.of(what + " matches nothing in " + ALLOWED_KEY + " " + allowed);
    }
    return Optional.empty();
  }

  private Optional<Network> deniedByDefault(InetAddress address) {
    for (Network network : DENIED_BY_DEFAULT) {
      if (network.contains(address)) {
        return Optional.of(network);
      }
    }
    if (!allowLoopback) {
      for (Network network : List.of(LOOPBACK_V4, LOOPBACK_V6)) {
        if (network.contains(address)) {
          return Optional.of(network);
        }
      }
    }
    return Optional.empty();
  }

  private static String describe(String host, InetAddress address) {
    String ip = address.getHostAddress();
    return normalized(host).equals(ip.toLowerCase(Locale.ROOT))
        ? ip
        : host + " (resolved to " + ip + ")";
  }

  /** An IPv4-mapped IPv6 address ({@code ::ffff:169.254.169.254}) is judged as its IPv4. */
  static InetAddress unmapped(InetAddress address) {
    if (address instanceof Inet6Address) {
      byte[] bytes = address.getAddress();
      boolean mapped = bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
      for (int i = 0; i < 10 && mapped; i++) {
        mapped = bytes[i] == 0;
      }
      if (mapped) {
        byte[] v4 = {bytes[12], bytes[13], bytes[14], bytes[15]};
        try {
          return InetAddress.getByAddress(v4);
        } catch (UnknownHostException impossible) {
          return address;
        }
      }
    }
    return address;
  }

  private static String normalized(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    if (name.startsWith("[") && name.endsWith("]")) {
      name = name.substring(1, name.length() - 1);
    }
    return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
  }

  private static List<Entry> entries(List<String> texts, String key) {
    List<Entry> entries = new ArrayList<>();
    for (String text : texts == null ? List.<String>of() : texts) {
      String trimmed = text == null ? "" : text.strip();
      if (!trimmed.isEmpty()) {
        entries.add(Entry.parse(trimmed, key));
      }
    }
    return List.copyOf(entries);
  }

  @Override
  public String toString() {
    return ALLOWED_KEY
        + "="
        + allowed
        + ", "
        + DENIED_KEY
        + "="
        + denied
        + ", "
        + LOOPBACK_KEY
        + "="
        + allowLoopback;
  }

  /** A network (address or CIDR) or a host-name pattern. */
  private record Entry(String text, Network network, String pattern) {
    static Entry parse(String text, String key) {
      if (Network.looksLikeAddress(text)) {
        return new Entry(text, Network.parse(text, key + " entry"), null);
      }
      String pattern = normalized(text);
      String name = pattern.startsWith("*.") ? pattern.substring(2) : pattern;
      if (name.isEmpty()
          || !name.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")) {
        throw new IllegalArgumentException(
            key
                + ": '"
                + text
                + "' is neither a CIDR (10.0.0.0/8), an address nor a host name or pattern"
                + " (*.example.com)");
      }
      return new Entry(text, null, pattern);
    }

    boolean matchesName(String name) {
      if (pattern == null) {
        return false;
      }
      return pattern.startsWith("*.") ? name.endsWith(pattern.substring(1)) : name.equals(pattern);
    }

    boolean matchesAddress(InetAddress address) {
      return network != null && network.contains(address);
    }

    @Override
    public String toString() {
      return "'" + text + "'";
    }
  }
}

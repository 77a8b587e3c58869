package io.baton.capability.builtin;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Resolves a host name to the addresses a connection to it may use, for the egress policy. The
 * system resolver goes through the JVM's address cache, which the HTTP client's own lookup then
 * hits: the client connects to an address the policy saw (see docs/security.md for the window at a
 * cache entry's expiry).
 */
@FunctionalInterface
public interface HostResolver {
  HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));

  List<InetAddress> resolve(String host) throws UnknownHostException;
}

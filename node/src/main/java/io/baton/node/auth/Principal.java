package io.baton.node.auth;

import java.util.List;
import java.util.Objects;

/**
 * Who makes a call: a name (an API key's name), its role, the flow-name patterns it is limited to
 * (empty: every flow) and how it authenticated. Immutable.
 */
public record Principal(String name, Role role, FlowPatterns flows, AuthMethod via) {
  /** Everyone when authentication is off: an admin over every flow. */
  public static final Principal ANONYMOUS =
      new Principal("anonymous", Role.ADMIN, FlowPatterns.ANY, AuthMethod.NONE);

  public Principal {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(flows, "flows");
    Objects.requireNonNull(via, "via");
  }

  public boolean authenticated() {
    return via != AuthMethod.NONE;
  }

  /** The patterns as written, for messages. */
  public List<String> flowPatterns() {
    return flows.patterns();
  }
}

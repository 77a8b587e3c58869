package io.baton.node.auth;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a principal may do, each role everything the one before may and more: {@code viewer} reads;
 * {@code operator} also acts on runs (submit, cancel, resume, retry-now, approve, reject, discard,
 * emit events); {@code developer} also applies flows; {@code admin} also manages keys and reads the
 * audit record. Immutable.
 */
public enum Role {
  VIEWER(
      EnumSet.of(
          Permission.RUNS_READ,
          Permission.FLOWS_READ,
          Permission.CLUSTER_READ,
          Permission.METRICS_READ)),
  OPERATOR(
      with(
          VIEWER.permissions,
          Permission.RUNS_SUBMIT,
          Permission.RUNS_CANCEL,
          Permission.RUNS_RESUME,
          Permission.RUNS_ANSWER,
          Permission.RUNS_DISCARD,
          Permission.EVENTS_EMIT)),
  DEVELOPER(with(OPERATOR.permissions, Permission.FLOWS_APPLY)),
  ADMIN(EnumSet.allOf(Permission.class));

  @SuppressWarnings("ImmutableEnumChecker") // Set.copyOf: unmodifiable
  private final Set<Permission> permissions;

  Role(Set<Permission> permissions) {
    this.permissions = Set.copyOf(permissions);
  }

  private static Set<Permission> with(Set<Permission> base, Permission... more) {
    EnumSet<Permission> all = EnumSet.copyOf(base);
    all.addAll(Arrays.asList(more));
    return all;
  }

  public boolean allows(Permission permission) {
    return permissions.contains(permission);
  }

  public Set<Permission> permissions() {
    return permissions;
  }

  public String displayName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The role named {@code name} (any case).
   *
   * @throws IllegalArgumentException no role has that name; the message lists the roles
   */
  public static Role parse(String name) {
    for (Role role : values()) {
      if (role.displayName().equalsIgnoreCase(name == null ? "" : name.trim())) {
        return role;
      }
    }
    throw new IllegalArgumentException(
        "unknown role '"
            + name
            + "'; expected one of "
            + Arrays.stream(values()).map(Role::displayName).collect(Collectors.joining(", ")));
  }
}

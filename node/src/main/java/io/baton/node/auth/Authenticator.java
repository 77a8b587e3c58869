package io.baton.node.auth;

import java.util.List;

/** Turns a call's bearer token into the principal it proves. Thread-safe. */
public interface Authenticator {
  /**
   * The principal of {@code bearerToken}.
   *
   * @param bearerToken the token after {@code Bearer }, or null when the call sent none
   * @throws AuthenticationFailedException no token, or a token that proves no one; the message says
   *     which (never the token)
   */
  Principal authenticate(String bearerToken);

  /** Whether calls must authenticate at all; false only for {@code auth.mode: none}. */
  default boolean required() {
    return true;
  }

  /**
   * This authenticator that also knows the keys admins created through the API ({@code POST
   * /api/v1/keys}); unchanged when authentication is off.
   */
  default Authenticator withStoredKeys(StoredKeys stored) {
    return this;
  }

  /** The keys of the keys file, as last read; none when there is no file. */
  default List<ApiKey> fileKeys() {
    return List.of();
  }

  /** Authentication off: every call is {@link Principal#ANONYMOUS}. */
  static Authenticator none() {
    return new Authenticator() {
      @Override
      public Principal authenticate(String bearerToken) {
        return Principal.ANONYMOUS;
      }

      @Override
      public boolean required() {
        return false;
      }
    };
  }
}

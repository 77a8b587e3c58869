package io.baton.capability.builtin;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Locale;
import java.util.Set;

/**
 * The request that follows a redirect: 303 becomes a GET without a body, other redirects keep the
 * method and body; credentials (Authorization, Cookie) go only to the same origin.
 */
final class Redirects {
  private static final Set<String> CREDENTIALS = Set.of("authorization", "cookie");

  private Redirects() {}

  /**
   * @throws IllegalArgumentException the location is not an http or https url (the message says
   *     which)
   */
  static HttpRequest follow(HttpRequest request, int status, String location) {
    URI target;
    try {
      target = HttpRequests.uri(request.uri().resolve(location.strip()).toString());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          location + ", which is not followed: " + e.getMessage(), e);
    }
    boolean sameOrigin = sameOrigin(request.uri(), target);
    HttpRequest.Builder next =
        HttpRequest.newBuilder(
                request,
                (name, value) -> sameOrigin || !CREDENTIALS.contains(name.toLowerCase(Locale.ROOT)))
            .uri(target);
    if (status == 303) {
      next.method("GET", HttpRequest.BodyPublishers.noBody());
    }
    return next.build();
  }

  private static boolean sameOrigin(URI a, URI b) {
    return a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost().equalsIgnoreCase(b.getHost())
        && a.getPort() == b.getPort();
  }
}

package io.baton.node.http;

/**
 * The endpoints of one resource, declared on the route table with their permission and what they
 * answer ({@link ApiRouter}; a path under {@code /api/} is served at {@code /api/v1/...}).
 */
interface Routes {
  void addTo(ApiRouter routes);
}

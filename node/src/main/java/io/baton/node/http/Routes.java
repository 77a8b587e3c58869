package io.baton.node.http;

import io.javalin.config.RoutesConfig;

/** The endpoints of one resource. */
interface Routes {
  void addTo(RoutesConfig routes);
}

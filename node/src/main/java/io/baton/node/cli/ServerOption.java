package io.baton.node.cli;

import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code --server URL} of every client command; the default comes from {@code BATON_SERVER}. */
final class ServerOption {
  static final String DEFAULT_SERVER = "http://127.0.0.1:8080";

  @Option(
      names = "--server",
      paramLabel = "URL",
      defaultValue = "${env:BATON_SERVER:-" + DEFAULT_SERVER + "}",
      converter = ServerUrl.class,
      description = "The node's HTTP API (default: $BATON_SERVER, else ${DEFAULT-VALUE}).")
  URI server;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      defaultValue = "${env:BATON_TOKEN}",
      description = "The API key sent as a bearer token (default: $BATON_TOKEN).")
  String token;

  @Option(
      names = "--ca-cert",
      paramLabel = "FILE",
      defaultValue = "${env:BATON_CA_CERT}",
      description =
          "PEM file of the CA that signed the server's certificate, for https:// servers"
              + " (default: $BATON_CA_CERT, else the JVM's trusted CAs).")
  Path caCert;

  BatonClient client() {
    return new BatonClient(server, token, caCert);
  }

  /** Accepts http and https URLs with a host. */
  static final class ServerUrl implements ITypeConverter<URI> {
    @Override
    public URI convert(String value) {
      try {
        URI uri = URI.create(value.trim());
        if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
            && uri.getHost() != null) {
          return uri;
        }
      } catch (IllegalArgumentException e) {
        // reported below
      }
      throw new TypeConversionException(
          "'" + value + "' is not a server URL such as " + DEFAULT_SERVER);
    }
  }
}

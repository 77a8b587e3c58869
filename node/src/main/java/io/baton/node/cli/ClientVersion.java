package io.baton.node.cli;

import picocli.CommandLine.IVersionProvider;

/** The version of this build, from the jar's manifest; {@code dev} when run from classes. */
final class ClientVersion {
  private ClientVersion() {}

  static String current() {
    String version = ClientVersion.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }

  /** {@code baton --version}. */
  static final class Provider implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"baton " + current()};
    }
  }
}

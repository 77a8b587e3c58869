package io.baton.node.cli;

/** Flow hashes as people read them: the first 12 hex digits, as git shortens commits. */
final class Hashes {
  static final int SHORT_LENGTH = 12;

  private Hashes() {}

  static String shortHash(String hash) {
    return hash.length() <= SHORT_LENGTH ? hash : hash.substring(0, SHORT_LENGTH);
  }
}

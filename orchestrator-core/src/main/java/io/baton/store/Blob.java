package io.baton.store;

import java.util.Arrays;
import java.util.Objects;

/** Stored bytes with their type ({@code flow}, {@code output}) and address. */
// The array is copied in and out, equals compares its content and hashCode the hash (its address).
@SuppressWarnings("ArrayRecordComponent")
public record Blob(String hash, String type, byte[] content) {
  public Blob {
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(type, "type");
    content = content.clone();
  }

  @Override
  public byte[] content() {
    return content.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Blob blob
        && blob.hash.equals(hash)
        && blob.type.equals(type)
        && Arrays.equals(blob.content, content);
  }

  @Override
  public int hashCode() {
    return hash.hashCode();
  }

  @Override
  public String toString() {
    return "Blob[" + hash + ", " + type + ", " + content.length + " bytes]";
  }
}

package io.baton.store;

/** A blob exceeded the store's size cap; nothing was stored. */
public class BlobTooLargeException extends StoreException {
  public BlobTooLargeException(String type, long size, long maxBytes) {
    super(
        "a " + type + " blob of " + size + " bytes exceeds the limit of " + maxBytes + " bytes",
        null,
        null);
  }
}

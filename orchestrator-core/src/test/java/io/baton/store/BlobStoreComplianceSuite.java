package io.baton.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The contract of {@link BlobStore}; implementations supply a store with a given size cap. */
public abstract class BlobStoreComplianceSuite {
  protected static final int MAX_BYTES = 64 * 1024;

  /** A blob store that accepts blobs of up to {@code maxBytes}. */
  protected abstract BlobStore createBlobStore(int maxBytes) throws Exception;

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void content_is_addressed_by_its_sha256() throws Exception {
    BlobStore blobs = createBlobStore(MAX_BYTES);
    String hash = blobs.put("flow", bytes("abc"));
    assertThat(hash).isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(blobs.get(hash))
        .hasValueSatisfying(
            blob -> {
              assertThat(blob.type()).isEqualTo("flow");
              assertThat(blob.content()).isEqualTo(bytes("abc"));
            });
    assertThat(blobs.contains(hash)).isTrue();
  }

  @Test
  void the_same_content_twice_is_one_blob() throws Exception {
    BlobStore blobs = createBlobStore(MAX_BYTES);
    byte[] content = bytes("same " + UUID.randomUUID());
    String first = blobs.put("flow", content);
    String second = blobs.put("flow", content);
    assertThat(second).isEqualTo(first);
    assertThat(blobs.get(first).orElseThrow().content()).isEqualTo(content);
  }

  @Test
  void binary_and_empty_content_round_trip() throws Exception {
    BlobStore blobs = createBlobStore(MAX_BYTES);
    byte[] binary = new byte[256];
    for (int i = 0; i < binary.length; i++) {
      binary[i] = (byte) i;
    }
    assertThat(blobs.get(blobs.put("output", binary)).orElseThrow().content()).isEqualTo(binary);
    assertThat(blobs.get(blobs.put("output", new byte[0])).orElseThrow().content()).isEmpty();
  }

  @Test
  void unknown_hashes_are_absent() throws Exception {
    BlobStore blobs = createBlobStore(MAX_BYTES);
    String unknown = Hashing.sha256(bytes("never stored " + UUID.randomUUID()));
    assertThat(blobs.get(unknown)).isEmpty();
    assertThat(blobs.contains(unknown)).isFalse();
  }

  @Test
  void a_blob_over_the_cap_is_refused_with_a_clear_error() throws Exception {
    BlobStore blobs = createBlobStore(MAX_BYTES);
    byte[] tooLarge = new byte[MAX_BYTES + 1];
    assertThatThrownBy(() -> blobs.put("output", tooLarge))
        .isInstanceOf(BlobTooLargeException.class)
        .hasMessageContaining(String.valueOf(MAX_BYTES + 1))
        .hasMessageContaining(String.valueOf(MAX_BYTES));
    assertThat(blobs.contains(Hashing.sha256(tooLarge))).isFalse();
    blobs.put("output", new byte[MAX_BYTES]);
  }
}

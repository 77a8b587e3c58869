package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.baton.journal.JournalCodec;
import io.baton.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;

/**
 * An append-only file of JSON lines, one per change to the embedded store, each batch forced to
 * disk before the change is acknowledged. A line cut short by a crash is dropped when the log is
 * opened again. One process at a time: the directory is locked. Thread-safe.
 */
final class MutationLog implements AutoCloseable {
  static final String FILE = "store.log";
  private static final ObjectMapper MAPPER = JournalCodec.mapper();

  private final Path file;
  private final FileChannel channel;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private MutationLog(Path file, FileChannel channel, FileChannel lockChannel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /**
   * Opens (or creates) the log in {@code dir}, replaying every complete line into {@code apply}.
   */
  static MutationLog open(Path dir, Consumer<JsonNode> apply) {
    try {
      Files.createDirectories(dir);
      FileChannel lockChannel =
          FileChannel.open(
              dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = lockChannel.tryLock();
      } catch (java.nio.channels.OverlappingFileLockException heldHere) {
        lock = null;
      }
      if (lock == null) {
        lockChannel.close();
        throw new StoreException(
            "another baton process is using the embedded store in " + dir, null, null);
      }
      Path file = dir.resolve(FILE);
      long valid = replay(file, apply);
      FileChannel channel =
          FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      channel.truncate(valid);
      channel.position(valid);
      return new MutationLog(file, channel, lockChannel, lock);
    } catch (IOException e) {
      throw new StoreException(
          "cannot open the embedded store in " + dir + ": " + e.getMessage(), null, e);
    }
  }

  /** Applies every complete line; returns the length of the log up to its last complete line. */
  private static long replay(Path file, Consumer<JsonNode> apply) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    byte[] content = Files.readAllBytes(file);
    int start = 0;
    for (int i = 0; i < content.length; i++) {
      if (content[i] == '\n') {
        String line = new String(content, start, i - start, StandardCharsets.UTF_8);
        if (!line.isBlank()) {
          apply.accept(MAPPER.readTree(line));
        }
        start = i + 1;
      }
    }
    return start;
  }

  /** Writes the records and forces them to disk. */
  synchronized void write(List<? extends JsonNode> records) {
    if (records.isEmpty()) {
      return;
    }
    try {
      StringBuilder lines = new StringBuilder();
      for (JsonNode record : records) {
        lines.append(MAPPER.writeValueAsString(record)).append('\n');
      }
      ByteBuffer buffer = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the embedded store's log " + file, e);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (channel.isOpen()) {
      channel.close();
      lock.release();
      lockChannel.close();
    }
  }
}

package io.baton.node.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.baton.journal.JournalCodec;
import io.baton.store.StoreException;
import io.baton.store.StoreUnavailableException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;

/**
 * An append-only file of JSON lines, one per change to the embedded store. A batch is acknowledged
 * only once it is forced to disk. A batch that fails (no space, an I/O error, a write cut short) is
 * cut off again, so the log ends at its last acknowledged line and stays readable; if even that
 * fails, the log refuses every further write until the store is opened again (a line cut short by a
 * crash or a failure is dropped then). The log is read by streaming, so it may grow past 2 GiB. One
 * process at a time: the directory is locked. Thread-safe.
 */
final class MutationLog implements AutoCloseable {
  static final String FILE = "store.log";
  private static final ObjectMapper MAPPER = JournalCodec.mapper();
  private static final int READ_BUFFER = 1 << 20;

  static final String COMPACTING = FILE + ".compacting";

  private final Path path;
  private final LogFile.Opener files;
  private LogFile file;
  private final FileChannel lockChannel;
  private final FileLock lock;
  private long length;
  private IOException broken;

  private MutationLog(
      Path path,
      LogFile.Opener files,
      LogFile file,
      FileChannel lockChannel,
      FileLock lock,
      long length) {
    this.path = path;
    this.files = files;
    this.file = file;
    this.lockChannel = lockChannel;
    this.lock = lock;
    this.length = length;
  }

  /**
   * Opens (or creates) the log in {@code dir}, replaying every complete line into {@code apply}.
   */
  static MutationLog open(Path dir, Consumer<JsonNode> apply, LogFile.Opener files) {
    FileChannel lockChannel = null;
    try {
      Files.createDirectories(dir);
      lockChannel =
          FileChannel.open(
              dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = tryLock(lockChannel, dir);
      Path path = dir.resolve(FILE);
      // a compaction that crashed before its rename: the log itself is whole
      Files.deleteIfExists(dir.resolve(COMPACTING));
      boolean created = !Files.exists(path);
      long valid = created ? 0 : replay(path, apply);
      LogFile file = files.open(path);
      file.truncate(valid);
      file.force();
      if (created) {
        syncDirectory(dir);
      }
      return new MutationLog(path, files, file, lockChannel, lock, valid);
    } catch (IOException e) {
      closeQuietly(lockChannel);
      throw new StoreException(
          "cannot open the embedded store in " + dir + ": " + e.getMessage(), null, e);
    } catch (RuntimeException e) {
      closeQuietly(lockChannel);
      throw e;
    }
  }

  private static FileLock tryLock(FileChannel lockChannel, Path dir) throws IOException {
    FileLock lock;
    try {
      lock = lockChannel.tryLock();
    } catch (OverlappingFileLockException heldHere) {
      lock = null;
    }
    if (lock == null) {
      throw new StoreException(
          "another baton process is using the embedded store in " + dir, null, null);
    }
    return lock;
  }

  /** A new file is only durable once its directory entry is: force the directory too. */
  private static void syncDirectory(Path dir) throws IOException {
    try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
      directory.force(true);
    }
  }

  /** Applies every complete line again (after a failed write, to match memory to disk). */
  synchronized void replay(Consumer<JsonNode> apply) {
    try {
      replay(path, apply);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the embedded store's log " + path, e);
    }
  }

  /**
   * Applies every complete line, streaming; returns the log's length up to its last complete line.
   */
  private static long replay(Path path, Consumer<JsonNode> apply) throws IOException {
    long offset = 0;
    long valid = 0;
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    boolean content = false; // the current line has a non-blank byte: it is being buffered
    try (InputStream in = new BufferedInputStream(Files.newInputStream(path), READ_BUFFER)) {
      byte[] chunk = new byte[READ_BUFFER];
      int read;
      while ((read = in.read(chunk)) > 0) {
        int start = 0;
        for (int i = 0; i < read; i++) {
          byte b = chunk[i];
          if (b == '\n') {
            if (content) {
              line.write(chunk, start, i - start);
              apply.accept(MAPPER.readTree(line.toByteArray()));
              line.reset();
              content = false;
            }
            start = i + 1;
            valid = offset + start;
          } else if (!content) {
            if (isBlank(b)) {
              start = i + 1; // blank lines are skipped without buffering them
            } else {
              content = true;
            }
          }
        }
        if (content) {
          line.write(chunk, start, read - start);
        }
        offset += read;
      }
    }
    return valid;
  }

  private static boolean isBlank(byte b) {
    return b == ' ' || b == '\t' || b == '\r';
  }

  /**
   * Writes the records and forces them to disk; returns only once they are durable.
   *
   * @throws StoreUnavailableException nothing of the batch is acknowledged: it failed (and was cut
   *     off again), or the log refuses writes since an earlier failure could not be cut off
   */
  synchronized void write(List<? extends JsonNode> records) {
    if (records.isEmpty()) {
      return;
    }
    if (broken != null) {
      throw new StoreUnavailableException(
          "the embedded store's log "
              + path
              + " refuses writes since a failed write could not be undone ("
              + broken
              + "); restart the node to reopen it",
          broken);
    }
    ByteBuffer batch = encode(records);
    long before = length;
    try {
      while (batch.hasRemaining()) {
        length += file.write(batch, length);
      }
      file.force();
    } catch (IOException failure) {
      cutBack(before);
      throw new StoreUnavailableException(
          "cannot write the embedded store's log " + path + ": " + failure, failure);
    }
  }

  private static ByteBuffer encode(List<? extends JsonNode> records) {
    try {
      StringBuilder lines = new StringBuilder();
      for (JsonNode record : records) {
        lines.append(MAPPER.writeValueAsString(record)).append('\n');
      }
      return ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode a record of the embedded store", e);
    }
  }

  /** The log's length in bytes, up to its last acknowledged line. */
  synchronized long length() {
    return length;
  }

  /**
   * Replaces the whole log by {@code records} (a snapshot of the store): they are written to a new
   * file and forced, which then replaces the log in one atomic rename, so a crash at any point
   * leaves either the old log or the new one, whole. On a failure before the rename the old log
   * stays in use; after it, the log refuses writes until reopened.
   */
  synchronized void rewrite(List<? extends JsonNode> records) {
    if (broken != null) {
      return;
    }
    Path compacting = path.resolveSibling(COMPACTING);
    ByteBuffer content = encode(records);
    long size = content.remaining();
    try {
      try (FileChannel out =
          FileChannel.open(
              compacting,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        while (content.hasRemaining()) {
          out.write(content);
        }
        out.force(true);
      }
      Files.move(
          compacting, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException failure) {
      try {
        Files.deleteIfExists(compacting);
      } catch (IOException ignored) {
        // the next open deletes it
      }
      throw new StoreUnavailableException(
          "cannot compact the embedded store's log " + path + ": " + failure, failure);
    }
    try {
      syncDirectory(path.getParent());
      file.close();
      file = files.open(path);
      length = size;
    } catch (IOException failure) {
      broken = failure;
    }
  }

  /** Cuts a failed batch off, so the log ends at its last acknowledged line. */
  private void cutBack(long before) {
    try {
      file.truncate(before);
      file.force();
      length = before;
    } catch (IOException failure) {
      broken = failure;
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (lockChannel.isOpen()) {
      file.close();
      lock.release();
      lockChannel.close();
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // opening failed already; that failure is the one to report
      }
    }
  }
}

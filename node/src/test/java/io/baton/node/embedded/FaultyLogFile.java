package io.baton.node.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A log file whose next operations fail on demand, as a full disk or a failing device makes them: a
 * write that writes nothing, a write cut short, a force or a truncate that throws. Not thread-safe,
 * like the log's use of it.
 */
final class FaultyLogFile implements LogFile {
  /** What goes wrong next. */
  enum Fault {
    NONE,
    /** The write throws before writing anything (no space left). */
    WRITE_FAILS,
    /** The write writes part of the batch, then the next write throws. */
    WRITE_CUT_SHORT,
    /** Everything is written, then forcing it to disk throws. */
    FORCE_FAILS
  }

  private final LogFile file;
  Fault next = Fault.NONE;
  boolean truncateFails;

  FaultyLogFile(Path path) throws IOException {
    this.file = LogFile.SYSTEM.open(path);
  }

  @Override
  public int write(ByteBuffer source, long position) throws IOException {
    switch (next) {
      case WRITE_FAILS -> {
        next = Fault.NONE;
        throw new IOException("No space left on device");
      }
      case WRITE_CUT_SHORT -> {
        next = Fault.WRITE_FAILS;
        ByteBuffer part = source.duplicate();
        part.limit(part.position() + Math.max(1, part.remaining() / 2));
        int written = file.write(part, position);
        source.position(source.position() + written);
        return written;
      }
      default -> {
        return file.write(source, position);
      }
    }
  }

  @Override
  public void force() throws IOException {
    if (next == Fault.FORCE_FAILS) {
      next = Fault.NONE;
      throw new IOException("Input/output error");
    }
    file.force();
  }

  @Override
  public void truncate(long size) throws IOException {
    if (truncateFails) {
      throw new IOException("Input/output error");
    }
    file.truncate(size);
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}

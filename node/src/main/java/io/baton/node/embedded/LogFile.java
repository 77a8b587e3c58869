package io.baton.node.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The writing end of the embedded store's log file: the few operations the log needs, so that tests
 * can make them fail (no space, an I/O error, a write cut short). Not thread-safe: the log
 * serializes its calls.
 */
interface LogFile extends AutoCloseable {
  /** Opens (or creates) the file for writing. */
  @FunctionalInterface
  interface Opener {
    LogFile open(Path path) throws IOException;
  }

  /** Files on the local file system. */
  Opener SYSTEM = ChannelLogFile::new;

  /** Writes some of {@code source} at {@code position}; returns how many bytes. */
  int write(ByteBuffer source, long position) throws IOException;

  /** Forces what was written to the device. */
  void force() throws IOException;

  /** Cuts the file to {@code size} bytes. */
  void truncate(long size) throws IOException;

  @Override
  void close() throws IOException;

  /** A {@link LogFile} on a {@link FileChannel}. */
  final class ChannelLogFile implements LogFile {
    private final FileChannel channel;

    ChannelLogFile(Path path) throws IOException {
      this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    @Override
    public int write(ByteBuffer source, long position) throws IOException {
      return channel.write(source, position);
    }

    @Override
    public void force() throws IOException {
      channel.force(false);
    }

    @Override
    public void truncate(long size) throws IOException {
      channel.truncate(size);
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}

package io.baton.node.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.journal.JournalCodec;
import io.baton.store.FlowRecord;
import io.baton.store.Stores;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log over 2 GiB opens: it is read by streaming, with offsets past what an int holds. The test
 * writes a real log of that size (blank lines, which the log skips, with records on both sides of
 * the 2 GiB mark), so it takes a few seconds and as much disk, which the temporary directory frees.
 */
class LargeLogTest {
  private static final Instant T0 = Instant.parse("2026-05-01T12:00:00Z");
  private static final long TWO_GIB = 2L << 30;
  @TempDir Path dir;

  @Test
  void a_log_over_two_gibibytes_opens_with_every_record_and_takes_more() throws Exception {
    Path log = dir.resolve(MutationLog.FILE);
    try (FileChannel channel =
        FileChannel.open(log, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      write(channel, record(new FlowRecord("before", "hash-before", T0)));
      byte[] blank = new byte[8 << 20];
      Arrays.fill(blank, (byte) ' ');
      blank[blank.length - 1] = '\n';
      while (channel.size() < TWO_GIB + blank.length) {
        write(channel, blank);
      }
      write(channel, record(new FlowRecord("after", "hash-after", T0)));
    }

    FileStores.Opened opened = FileStores.open(dir, Clock.systemUTC());
    try (Stores stores = opened.stores()) {
      assertThat(stores.metadata().latestFlow("before")).isPresent();
      assertThat(stores.metadata().latestFlow("after")).isPresent();
      stores.metadata().saveFlow(new FlowRecord("appended", "hash-appended", T0));
    }
    try (Stores stores = FileStores.open(dir, Clock.systemUTC()).stores()) {
      assertThat(stores.metadata().latestFlow("appended")).isPresent();
    }
  }

  private static byte[] record(FlowRecord flow) {
    String line = JournalCodec.mapper().valueToTree(Records.flow(flow)).toString() + "\n";
    return line.getBytes(StandardCharsets.UTF_8);
  }

  private static void write(FileChannel channel, byte[] bytes) throws Exception {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }
}

package io.baton.lease.etcd;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Real etcd processes for tests: one member or several forming a cluster, started from {@code etcd}
 * on {@code PATH}, listening on free loopback ports only, with data in a temporary directory. A
 * test can kill (SIGKILL), pause (SIGSTOP), resume and restart single members, or stop and start
 * them all. {@link #close()} kills every member and deletes the data; a JVM shutdown hook does the
 * same for clusters a test forgot. Members elect faster than etcd's defaults (heartbeat 50 ms,
 * election 500 ms) so fault tests stay short. Driven by one test thread.
 *
 * <pre>{@code
 * try (EtcdTestCluster etcd = EtcdTestCluster.start(3)) {
 *   etcd.kill(0);
 *   ...
 *   etcd.restart(0);
 * }
 * }</pre>
 */
public final class EtcdTestCluster implements AutoCloseable {
  /** How long members may take to become healthy. */
  public static final Duration HEALTHY_WITHIN = Duration.ofSeconds(30);

  private static final List<String> FAST_ELECTIONS =
      List.of("--heartbeat-interval=50", "--election-timeout=500");
  private static final Set<EtcdTestCluster> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> List.copyOf(LIVE).forEach(EtcdTestCluster::close), "etcd-cleanup"));
  }

  private final Path baseDir;
  private final List<EtcdMember> members;
  private final List<String> flags;
  private final String token = "baton-test-" + UUID.randomUUID();
  private boolean closed;

  private EtcdTestCluster(Path baseDir, List<EtcdMember> members, List<String> flags) {
    this.baseDir = baseDir;
    this.members = members;
    this.flags = flags;
  }

  /** Starts {@code size} members (1 or an odd number) and waits until every one is healthy. */
  public static EtcdTestCluster start(int size) {
    return start(size, List.of());
  }

  /**
   * As {@link #start(int)}, with extra etcd flags for every member (e.g. {@code --max-txn-ops}).
   */
  public static EtcdTestCluster start(int size, List<String> extraFlags) {
    return start(size, extraFlags, "http");
  }

  /**
   * Members that serve clients over TLS only ({@code https} endpoints) and demand a client
   * certificate signed by the test CA.
   */
  public static EtcdTestCluster startWithTls(int size, TestCertificates certificates) {
    return start(
        size,
        List.of(
            "--cert-file=" + certificates.serverCert(),
            "--key-file=" + certificates.serverKey(),
            "--trusted-ca-file=" + certificates.caCert(),
            "--client-cert-auth=true"),
        "https");
  }

  private static EtcdTestCluster start(int size, List<String> extraFlags, String scheme) {
    if (size < 1) {
      throw new IllegalArgumentException("an etcd cluster needs at least one member, got " + size);
    }
    List<String> flags = new ArrayList<>(FAST_ELECTIONS);
    flags.addAll(extraFlags);
    Path baseDir = createBaseDir();
    List<EtcdMember> members = new ArrayList<>();
    int[][] ports = freeLoopbackPorts(size * 3);
    for (int i = 0; i < size; i++) {
      members.add(new EtcdMember("m" + i, baseDir, ports[i], scheme));
    }
    EtcdTestCluster cluster = new EtcdTestCluster(baseDir, members, List.copyOf(flags));
    LIVE.add(cluster);
    try {
      cluster.startAll();
    } catch (RuntimeException | Error failure) {
      cluster.close();
      throw failure;
    }
    return cluster;
  }

  public int size() {
    return members.size();
  }

  /** Every member's client URL, in member order. */
  public List<URI> endpoints() {
    return members.stream().map(EtcdMember::clientUrl).toList();
  }

  public URI endpoint(int index) {
    return members.get(index).clientUrl();
  }

  /** Kills the member with SIGKILL; its data stays for {@link #restart}. */
  public void kill(int index) {
    members.get(index).kill();
  }

  /** Freezes the member with SIGSTOP: its sockets stay open but it answers nothing. */
  public void pause(int index) {
    members.get(index).pause();
  }

  /** Thaws a paused member with SIGCONT. */
  public void resume(int index) {
    members.get(index).resume();
  }

  /**
   * Kills the member if it runs, starts it again on the same ports and data, waits until healthy.
   */
  public void restart(int index) {
    EtcdMember member = members.get(index);
    member.kill();
    member.start(initialCluster(), token, flags);
    awaitHealthy(List.of(member));
  }

  /** Kills every member (the whole etcd is down); data stays for {@link #startAll}. */
  public void stopAll() {
    members.forEach(EtcdMember::kill);
  }

  /** Starts every member that is not running and waits until all are healthy. */
  public void startAll() {
    for (EtcdMember member : members) {
      if (!member.isRunning()) {
        member.start(initialCluster(), token, flags);
      }
    }
    awaitHealthy(members);
  }

  /** The index of the member that leads now, waiting (bounded) until one does. */
  public int leader() {
    int[] found = {-1};
    await("an etcd leader")
        .atMost(HEALTHY_WITHIN)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              for (int i = 0; i < members.size(); i++) {
                if (members.get(i).isLeader()) {
                  found[0] = i;
                  return true;
                }
              }
              return false;
            });
    return found[0];
  }

  public boolean isHealthy(int index) {
    return members.get(index).isHealthy();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    members.forEach(EtcdMember::kill);
    deleteRecursively(baseDir);
    LIVE.remove(this);
  }

  private String initialCluster() {
    return members.stream()
        .map(member -> member.name + "=" + member.peerUrl())
        .collect(Collectors.joining(","));
  }

  private static void awaitHealthy(List<EtcdMember> waiting) {
    for (EtcdMember member : waiting) {
      try {
        await("etcd member " + member.name + " healthy")
            .atMost(HEALTHY_WITHIN)
            .pollInterval(Duration.ofMillis(50))
            .failFast("etcd member " + member.name + " exited", () -> !member.isRunning())
            .until(member::isHealthy);
      } catch (ConditionTimeoutException | AssertionError failure) {
        throw new IllegalStateException(
            "etcd member "
                + member.name
                + " did not become healthy; its log ends:\n"
                + member.logTail(),
            failure);
      }
    }
  }

  /** Free ports on 127.0.0.1, three per member (client, peer, metrics), all distinct. */
  private static int[][] freeLoopbackPorts(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
      int[][] ports = new int[count / 3][3];
      for (int i = 0; i < count; i++) {
        ports[i / 3][i % 3] = sockets.get(i).getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // the port is free again either way
        }
      }
    }
  }

  private static Path createBaseDir() {
    try {
      return Files.createTempDirectory("baton-etcd-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

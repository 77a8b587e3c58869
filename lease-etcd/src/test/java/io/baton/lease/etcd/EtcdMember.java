package io.baton.lease.etcd;

import io.baton.testkit.UnixSignals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One etcd process of an {@link EtcdTestCluster}: its name, loopback ports and data directory stay
 * the same across restarts, so a restarted member rejoins with its data. Not thread-safe; the
 * cluster drives it from the test thread.
 */
final class EtcdMember {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  final String name;
  final int clientPort;
  final int peerPort;
  final int metricsPort;
  private final String scheme;
  private final Path dataDir;
  private final Path logFile;
  private Process process;
  private boolean paused;

  EtcdMember(String name, Path baseDir, int[] ports, String scheme) {
    this.name = name;
    this.scheme = scheme;
    this.clientPort = ports[0];
    this.peerPort = ports[1];
    this.metricsPort = ports[2];
    this.dataDir = baseDir.resolve(name);
    this.logFile = baseDir.resolve(name + ".log");
  }

  URI clientUrl() {
    return URI.create(scheme + "://127.0.0.1:" + clientPort);
  }

  String peerUrl() {
    return "http://127.0.0.1:" + peerPort;
  }

  void start(String initialCluster, String clusterToken, List<String> extraFlags) {
    List<String> command = new ArrayList<>();
    command.add("etcd");
    command.add("--name=" + name);
    command.add("--data-dir=" + dataDir);
    command.add("--listen-client-urls=" + clientUrl());
    command.add("--advertise-client-urls=" + clientUrl());
    command.add("--listen-peer-urls=" + peerUrl());
    command.add("--initial-advertise-peer-urls=" + peerUrl());
    command.add("--listen-metrics-urls=http://127.0.0.1:" + metricsPort);
    command.add("--initial-cluster=" + initialCluster);
    command.add("--initial-cluster-token=" + clusterToken);
    command.add("--initial-cluster-state=new");
    command.addAll(extraFlags);
    try {
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start etcd (is it on PATH? deploy/test.sh installs etcd-server)", e);
    }
    paused = false;
  }

  boolean isRunning() {
    return process != null && process.isAlive();
  }

  boolean isPaused() {
    return paused;
  }

  /** Whether etcd answers its health check (it has a leader and no alarm). */
  boolean isHealthy() {
    if (!isRunning() || paused) {
      return false;
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/health"))
            .timeout(Duration.ofSeconds(1))
            .build();
    try {
      HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 && response.body().contains("\"health\":\"true\"");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Whether this member is the raft leader now, from its metrics. */
  boolean isLeader() {
    if (!isRunning() || paused) {
      return false;
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
            .timeout(Duration.ofSeconds(1))
            .build();
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString())
          .body()
          .lines()
          .anyMatch(line -> line.equals("etcd_server_is_leader 1"));
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** SIGKILL: the process dies at once, as in a crash. */
  void kill() {
    if (process == null) {
      return;
    }
    if (paused) {
      signal("CONT");
    }
    process.destroyForcibly();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("etcd member " + name + " did not die on SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    paused = false;
  }

  /** SIGSTOP: the process freezes with its sockets open, as in a long GC pause or a hung host. */
  void pause() {
    signal("STOP");
    paused = true;
  }

  void resume() {
    signal("CONT");
    paused = false;
  }

  private void signal(String name) {
    if (!isRunning()) {
      throw new IllegalStateException("etcd member " + this.name + " is not running");
    }
    UnixSignals.send(process.pid(), name);
  }

  /** The end of the member's log, for failure messages. */
  String logTail() {
    try {
      List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}

package io.baton.store.postgres.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A throwaway PostgreSQL cluster of its own, for tests that stop, crash or restart the server
 * (which the shared test server must never be): {@code initdb} into a temporary directory, then
 * {@code pg_ctl} start, stop and restart on a free port bound to 127.0.0.1 only, with the socket in
 * the same directory. {@link #close()} stops it and deletes the directory.
 *
 * <p>The binaries come from {@code BATON_TEST_PG_BINDIR} or else the newest {@code
 * /usr/lib/postgresql/<version>/bin}. {@code initdb} refuses to run as root, so as root every
 * command runs as the {@code postgres} user through {@code runuser}, in a directory it owns.
 */
public final class PrivatePostgresCluster implements AutoCloseable {
  public static final String BINDIR_VARIABLE = "BATON_TEST_PG_BINDIR";

  private static final Logger log = LoggerFactory.getLogger(PrivatePostgresCluster.class);
  private static final long COMMAND_TIMEOUT_SECONDS = 120;

  private final Path binaries;
  private final Path directory;
  private final Path dataDirectory;
  private final int port;
  private final List<String> settings;
  private final Thread cleanupOnExit;
  private boolean running;

  private PrivatePostgresCluster(Path binaries, Path directory, int port, List<String> settings) {
    this.binaries = binaries;
    this.directory = directory;
    this.dataDirectory = directory.resolve("data");
    this.port = port;
    this.settings = settings;
    this.cleanupOnExit = new Thread(this::stopQuietly, "baton-private-postgres-cleanup");
  }

  /**
   * Creates and starts a cluster.
   *
   * @param settings extra server settings, each {@code name=value} (for example {@code
   *     max_connections=200})
   */
  public static PrivatePostgresCluster create(String... settings) {
    Path binaries = findBinaries();
    Path directory;
    try {
      directory = Files.createTempDirectory("baton-pg-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for a private cluster", e);
    }
    PrivatePostgresCluster cluster =
        new PrivatePostgresCluster(binaries, directory, freePort(), List.of(settings));
    try {
      cluster.initialize();
      cluster.start();
      Runtime.getRuntime().addShutdownHook(cluster.cleanupOnExit);
      return cluster;
    } catch (RuntimeException failure) {
      cluster.deleteDirectory();
      throw failure;
    }
  }

  public int port() {
    return port;
  }

  /** The server as a test server: superuser {@code postgres}, no password, no TLS. */
  public PostgresServer server() {
    return new PostgresServer(
        "jdbc:postgresql://127.0.0.1:" + port + "/postgres?sslmode=disable", "postgres", "");
  }

  public Path binaries() {
    return binaries;
  }

  /** Creates a database on this cluster (dropped by its {@code close()}). */
  public TestDatabase createDatabase(String label) {
    return TestDatabase.create(server(), label);
  }

  public synchronized boolean isRunning() {
    return running;
  }

  /** Starts the stopped server and waits until it accepts connections. */
  public synchronized void start() {
    List<String> options = new ArrayList<>();
    options.add("-p " + port);
    options.add("-k " + directory);
    options.add("-c listen_addresses=127.0.0.1");
    for (String setting : settings) {
      options.add("-c " + setting);
    }
    run(
        pgCtl(
            "-D",
            dataDirectory.toString(),
            "-l",
            directory.resolve("server.log").toString(),
            "-w",
            "-t",
            "60",
            "-o",
            String.join(" ", options),
            "start"));
    running = true;
  }

  /**
   * Stops the server: {@code fast} disconnects clients and shuts down cleanly, {@code immediate}
   * aborts like a crash (the next start recovers from the write-ahead log).
   */
  public synchronized void stop(String mode) {
    run(pgCtl("-D", dataDirectory.toString(), "-m", mode, "-w", "-t", "60", "stop"));
    running = false;
  }

  /** Stops ({@code mode} as in {@link #stop}) and starts again. */
  public synchronized void restart(String mode) {
    stop(mode);
    start();
  }

  /** The server's log, for diagnosing a failed test. */
  public String serverLog() {
    try {
      return Files.readString(directory.resolve("server.log"));
    } catch (IOException e) {
      return "(no server log: " + e.getMessage() + ")";
    }
  }

  /** The process id of the server's postmaster, while it runs. */
  public long postmasterPid() {
    try {
      return Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0));
    } catch (IOException e) {
      throw new UncheckedIOException("the private cluster is not running", e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      stopQuietly();
      deleteDirectory();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(cleanupOnExit);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs anyway
      }
    }
  }

  private synchronized void stopQuietly() {
    if (running) {
      try {
        stop("immediate");
      } catch (RuntimeException e) {
        log.warn(
            "could not stop the private PostgreSQL cluster in {}: {}", directory, e.getMessage());
      }
    }
  }

  private void initialize() {
    if (isRoot()) {
      run(List.of("chown", "postgres:postgres", directory.toString()));
    }
    run(
        asServerUser(
            List.of(
                binaries.resolve("initdb").toString(),
                "-D",
                dataDirectory.toString(),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync")));
  }

  private List<String> pgCtl(String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(binaries.resolve("pg_ctl").toString());
    command.addAll(Arrays.asList(arguments));
    return asServerUser(command);
  }

  private static List<String> asServerUser(List<String> command) {
    if (!isRoot()) {
      return command;
    }
    List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private void run(List<String> command) {
    try {
      Path output = Files.createTempFile("baton-pg-command-", ".log");
      try {
        Process process =
            new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!process.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IllegalStateException("timed out: " + String.join(" ", command));
        }
        if (process.exitValue() != 0) {
          throw new IllegalStateException(
              "failed ("
                  + process.exitValue()
                  + "): "
                  + String.join(" ", command)
                  + "\n"
                  + Files.readString(output)
                  + "\nserver log:\n"
                  + serverLog());
        }
      } finally {
        Files.deleteIfExists(output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
  }

  private void deleteDirectory() {
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      log.warn("could not delete {}: {}", directory, e.getMessage());
    }
  }

  private static Path findBinaries() {
    String configured = System.getenv(BINDIR_VARIABLE);
    if (configured != null && !configured.isBlank()) {
      return requireBinaries(Paths.get(configured));
    }
    Path installed = Paths.get("/usr/lib/postgresql");
    try (Stream<Path> versions = Files.list(installed)) {
      return versions
          .filter(version -> Files.isExecutable(version.resolve("bin/initdb")))
          .max(Comparator.comparingInt(PrivatePostgresCluster::majorVersion))
          .map(version -> version.resolve("bin"))
          .orElseThrow(() -> missing(installed));
    } catch (IOException e) {
      throw missing(installed);
    }
  }

  private static Path requireBinaries(Path directory) {
    if (!Files.isExecutable(directory.resolve("initdb"))) {
      throw missing(directory);
    }
    return directory;
  }

  private static IllegalStateException missing(Path where) {
    return new IllegalStateException(
        "no PostgreSQL server binaries (initdb, pg_ctl) in "
            + where
            + "; install the postgresql package or set "
            + BINDIR_VARIABLE);
  }

  private static int majorVersion(Path versionDirectory) {
    try {
      return Integer.parseInt(versionDirectory.getFileName().toString());
    } catch (NumberFormatException notAVersion) {
      return -1;
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port for a private cluster", e);
    }
  }
}

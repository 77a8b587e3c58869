package io.baton.node.process;

import static org.awaitility.Awaitility.await;

import io.baton.testkit.UnixSignals;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code baton} process started through {@code bin/baton} (the launcher users run), with its
 * output in a log file. {@link #close()} kills it if it still runs.
 */
public final class BatonProcess implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final Process process;
  private final Path log;
  private final String name;

  private BatonProcess(Process process, Path log, String name) {
    this.process = process;
    this.log = log;
    this.name = name;
  }

  /** The repository root (where bin/baton is). */
  public static Path root() {
    return Path.of(System.getProperty("baton.root", "..")).toAbsolutePath().normalize();
  }

  /** Runs {@code bin/baton args...} in {@code workDir} with extra environment variables. */
  public static BatonProcess start(Path workDir, Map<String, String> env, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(root().resolve("bin/baton").toString());
    command.addAll(List.of(args));
    Path log = Files.createTempFile("baton-" + args[0], ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().putAll(env);
    builder.environment().putIfAbsent("JAVA_OPTS", "-Xmx256m");
    return new BatonProcess(builder.start(), log, String.join(" ", args));
  }

  /** Runs a client command to completion: its exit code and output. */
  public static Result run(Path workDir, Map<String, String> env, String... args) throws Exception {
    try (BatonProcess client = start(workDir, env, args)) {
      if (!client.process.waitFor(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("baton " + String.join(" ", args) + " did not finish");
      }
      return new Result(client.process.exitValue(), client.output());
    }
  }

  /** A finished command. */
  public record Result(int exitCode, String output) {}

  /** Waits until {@code GET url/health/ready} answers 200. */
  public BatonProcess awaitReady(String baseUrl, Duration within) {
    await()
        .atMost(within)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new IllegalStateException(
                    name + " exited with " + process.exitValue() + ":\n" + output());
              }
              return status(baseUrl + "/health/ready") == 200;
            });
    return this;
  }

  /** The status code of a GET, or -1 when nothing answered within two seconds. */
  public static int status(String url) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  public long pid() {
    return process.pid();
  }

  /** Sends SIGTERM (the JVM's {@code destroy} on Unix). */
  public void terminate() {
    process.destroy();
  }

  /** Sends SIGKILL to the JVM the launcher exec'd into. */
  public void kill() {
    process.destroyForcibly();
  }

  /** Sends {@code kill -<name>} (e.g. STOP, CONT) to the JVM the launcher exec'd into. */
  public void signal(String name) {
    UnixSignals.send(process.pid(), name);
  }

  public int awaitExit(Duration within) throws InterruptedException {
    if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(name + " still runs after " + within + ":\n" + output());
    }
    return process.exitValue();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public String output() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

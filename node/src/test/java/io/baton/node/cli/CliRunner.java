package io.baton.node.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine;

/**
 * Runs the real {@code baton} command line in-process, as the launcher does, capturing stdout and
 * stderr; {@link #start} runs a long command ({@code run --follow}) in the background while the
 * test watches what it printed so far. Close to stop the background thread.
 */
final class CliRunner implements AutoCloseable {
  private final URI server;
  private final ExecutorService background = Executors.newCachedThreadPool();

  CliRunner(URI server) {
    this.server = server;
  }

  /** A command in progress: what it printed so far, and its result once it exits. */
  record Running(StringWriter out, StringWriter err, CompletableFuture<CliResult> result) {}

  /** {@code baton ARGS --server <the node>}. */
  CliResult baton(String... args) {
    return raw(withServer(args));
  }

  /** {@code baton ARGS --server <the node>} on a background thread. */
  Running start(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CompletableFuture<CliResult> result =
        CompletableFuture.supplyAsync(() -> execute(out, err, withServer(args)), background);
    return new Running(out, err, result);
  }

  /** {@code baton ARGS}, as given. */
  static CliResult raw(String... args) {
    return execute(new StringWriter(), new StringWriter(), args);
  }

  private String[] withServer(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--server");
    all.add(server.toString());
    return all.toArray(String[]::new);
  }

  private static CliResult execute(StringWriter out, StringWriter err, String... args) {
    CommandLine cli = BatonCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args);
    return new CliResult(code, out.toString(), err.toString());
  }

  @Override
  public void close() {
    background.shutdownNow();
  }
}

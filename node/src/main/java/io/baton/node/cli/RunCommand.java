package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.time.SystemScheduler;
import java.util.UUID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code baton run ID}: one run with its steps and ownership history. With {@code --follow}: the
 * run's journal entries as they are written, until the run ends, and the exit code of its end.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Show a run with its steps and ownership history, or follow it to its end.")
final class RunCommand extends ClientCommand {
  @Parameters(paramLabel = "ID", description = "The run id.")
  UUID runId;

  @Option(
      names = {"-f", "--follow"},
      description =
          "Print the run's journal entries as they are written until it ends (-o json: one JSON"
              + " object per line); exit 0 when it succeeded, "
              + ExitCodes.RUN_FAILED
              + " when it failed, "
              + ExitCodes.RUN_CANCELLED
              + " when it was cancelled.")
  boolean follow;

  private int exit = ExitCodes.OK;

  @Override
  void run(BatonClient client) {
    if (follow) {
      follow(client);
      return;
    }
    ApiResponse response = client.get("/api/v1/runs/" + runId);
    if (response.status() == 404) {
      throw new CommandFailedException(ExitCodes.NOT_FOUND, "Run " + runId + " not found");
    }
    JsonNode run = Failures.check(response).json();
    output().print(run, out -> new RunSummary(run).print(out));
  }

  private void follow(BatonClient client) {
    Output output = output();
    TextTable table = JournalRows.table();
    JsonNode ended =
        new RunFollower(
                client,
                runId,
                SystemScheduler.systemClock(),
                entry ->
                    output.event(
                        entry,
                        out -> {
                          table.row(JournalRows.row(entry));
                          table.print(out);
                        }))
            .follow();
    exit = RunEnd.exitCode(ended);
    RunEnd.reportFailure(ended, err());
  }

  @Override
  int exitCode() {
    return exit;
  }
}

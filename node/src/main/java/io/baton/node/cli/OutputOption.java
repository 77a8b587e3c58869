package io.baton.node.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** {@code -o json|yaml|table} of every client command (a mixin of {@link ClientCommand}). */
final class OutputOption {
  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      converter = OutputFormat.Converter.class,
      completionCandidates = OutputFormat.Candidates.class,
      description =
          "table (for people, the default), json or yaml (the API's answer, for programs).")
  OutputFormat format = OutputFormat.TABLE;

  /** What {@code run} and {@code journal} offered before {@code -o}; scripts still pass it. */
  @Option(names = "--json", hidden = true, description = "The same as -o json.")
  boolean json;

  OutputFormat format() {
    return json ? OutputFormat.JSON : format;
  }

  Output to(PrintWriter out) {
    return new Output(format(), out);
  }
}

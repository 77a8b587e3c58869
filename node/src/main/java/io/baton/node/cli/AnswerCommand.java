package io.baton.node.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Option;

/** Approve or reject: the step(s) waiting for approval, with an optional comment. */
abstract class AnswerCommand extends RunActionCommand {
  @Option(
      names = "--step",
      paramLabel = "STEP",
      description = "Only this step (default: every step waiting for approval).")
  String step;

  @Option(
      names = "--comment",
      paramLabel = "TEXT",
      description = "Kept in the run's history (the same as --reason).")
  String comment;

  @Override
  void addTo(ObjectNode body) {
    if (step != null) {
      body.put("step", step);
    }
    if (comment != null) {
      body.put("comment", comment);
    }
  }
}

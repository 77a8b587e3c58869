package io.baton.flow;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** Turns a parser's exception into a position and a message without the parser's internals. */
final class SyntaxErrors {
  private SyntaxErrors() {}

  static Position position(JsonProcessingException error) {
    MarkedYAMLException yaml = yamlCause(error);
    Mark mark = yaml == null ? null : yaml.getProblemMark();
    if (mark != null) {
      return new Position(mark.getLine() + 1, mark.getColumn() + 1);
    }
    return at(error.getLocation());
  }

  static String message(String format, JsonProcessingException error) {
    MarkedYAMLException yaml = yamlCause(error);
    String detail = yaml != null ? yamlDetail(yaml) : error.getOriginalMessage();
    return format + " syntax error: " + detail.strip();
  }

  static Position at(JsonLocation location) {
    if (location == null) {
      return Position.START;
    }
    return new Position(Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
  }

  private static String yamlDetail(MarkedYAMLException yaml) {
    String problem = yaml.getProblem() == null ? "unreadable YAML" : yaml.getProblem();
    return yaml.getContext() == null ? problem : problem + " (" + yaml.getContext() + ")";
  }

  private static MarkedYAMLException yamlCause(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof MarkedYAMLException marked) {
        return marked;
      }
    }
    return null;
  }
}

package io.baton.flow;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Reads flow text into a {@link SourceTree}. Text starting with <code>{</code> is read as JSON when
 * it is valid JSON (so tab-indented JSON works, which YAML refuses); everything else is YAML.
 *
 * <p>Decisions: a file holds exactly one document (a trailing empty one is tolerated); YAML aliases
 * are refused, because a flow's identity is its written content; duplicate keys are refused;
 * booleans are only {@code true} and {@code false} ({@code yes}, {@code on} stay strings);
 * non-finite numbers and binary values are refused, because JSON cannot hold them.
 */
final class SourceReader {
  private static final JsonFactory JSON = new JsonFactory();
  private static final YAMLFactory YAML =
      YAMLFactory.builder()
          .enable(YAMLParser.Feature.PARSE_BOOLEAN_LIKE_WORDS_AS_STRINGS)
          .disable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
          .build();

  /**
   * What reading found.
   *
   * @param tree null when the text could not be read at all
   */
  record Result(SourceTree tree, List<FlowProblem> problems) {}

  private SourceReader() {}

  static Result read(String text, String file) {
    if (!text.stripLeading().startsWith("{")) {
      return parse(YAML, "YAML", text, file);
    }
    Result json = parse(JSON, "JSON", text, file);
    if (json.tree() != null) {
      return json;
    }
    Result yaml = parse(YAML, "YAML", text, file);
    // Neither reads it: the JSON error is the one the author of JSON-looking text will follow.
    return yaml.tree() != null ? yaml : json;
  }

  private static Result parse(JsonFactory factory, String format, String text, String file) {
    TreeBuilder builder = new TreeBuilder(file);
    try (JsonParser parser = factory.createParser(text)) {
      return new Result(builder.build(parser), builder.problems());
    } catch (JsonProcessingException e) {
      Position at = SyntaxErrors.position(e);
      String message = SyntaxErrors.message(format, e);
      return new Result(null, List.of(builder.problem(at, FieldPaths.ROOT, message)));
    } catch (IOException e) {
      throw new UncheckedIOException("reading flow text from memory failed", e);
    }
  }
}

package io.baton.flow;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the document tree from the parser's tokens, recording where every value and key starts,
 * and refusing what has no place in a flow's identity (see {@link SourceReader}). One use only.
 */
final class TreeBuilder {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private final String file;
  private final Map<String, Position> values = new HashMap<>();
  private final Map<String, Position> keys = new HashMap<>();
  private final List<FlowProblem> problems = new ArrayList<>();
  private boolean aliased;

  TreeBuilder(String file) {
    this.file = file;
  }

  /**
   * The tree, or null when the text holds no document or uses aliases (the problems then say so;
   * checking a tree with holes where the aliases were would only add noise).
   */
  SourceTree build(JsonParser parser) throws IOException {
    if (parser.nextToken() == null) {
      problems.add(
          problem(
              Position.START, FieldPaths.ROOT, "the file is empty: a flow needs a name and steps"));
      return null;
    }
    JsonNode root = value(parser, FieldPaths.ROOT);
    checkNoFurtherDocument(parser);
    return aliased ? null : new SourceTree(root, values, keys);
  }

  List<FlowProblem> problems() {
    return List.copyOf(problems);
  }

  FlowProblem problem(Position at, String field, String message) {
    return new FlowProblem(file, at.line(), at.column(), field, message);
  }

  private JsonNode value(JsonParser parser, String path) throws IOException {
    Position at = SyntaxErrors.at(parser.currentTokenLocation());
    values.putIfAbsent(path, at);
    if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
      aliased = true;
      problems.add(
          problem(
              at,
              path,
              "YAML aliases (*"
                  + parser.getText()
                  + ") are not supported: write the value out, so the flow reads the same"
                  + " everywhere"));
      return NullNode.getInstance();
    }
    return switch (parser.currentToken()) {
      case START_OBJECT -> object(parser, path);
      case START_ARRAY -> array(parser, path);
      case VALUE_STRING -> NODES.textNode(parser.getText());
      case VALUE_NUMBER_INT -> integer(parser);
      case VALUE_NUMBER_FLOAT -> decimal(parser, path, at);
      case VALUE_TRUE -> NODES.booleanNode(true);
      case VALUE_FALSE -> NODES.booleanNode(false);
      case VALUE_NULL -> NullNode.getInstance();
      default -> unsupported(path, at, "binary and other non-JSON values are not supported");
    };
  }

  private ObjectNode object(JsonParser parser, String path) throws IOException {
    ObjectNode object = NODES.objectNode();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      String keyPath = FieldPaths.key(path, key);
      Position keyAt = SyntaxErrors.at(parser.currentTokenLocation());
      boolean repeated = object.has(key);
      if (repeated) {
        problems.add(
            problem(keyAt, keyPath, "duplicate key '" + key + "': each key may appear once"));
      }
      keys.putIfAbsent(keyPath, keyAt);
      parser.nextToken();
      JsonNode child = value(parser, keyPath);
      if (!repeated) {
        object.set(key, child);
      }
    }
    return object;
  }

  private ArrayNode array(JsonParser parser, String path) throws IOException {
    ArrayNode array = NODES.arrayNode();
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      array.add(value(parser, FieldPaths.index(path, array.size())));
    }
    return array;
  }

  private static JsonNode integer(JsonParser parser) throws IOException {
    return switch (parser.getNumberType()) {
      case INT -> NODES.numberNode(parser.getIntValue());
      case LONG -> NODES.numberNode(parser.getLongValue());
      default -> NODES.numberNode(parser.getBigIntegerValue());
    };
  }

  private JsonNode decimal(JsonParser parser, String path, Position at) throws IOException {
    double value = parser.getDoubleValue();
    if (!Double.isFinite(value)) {
      return unsupported(path, at, "'" + parser.getText() + "' is not a finite number");
    }
    return NODES.numberNode(value);
  }

  private JsonNode unsupported(String path, Position at, String message) {
    problems.add(problem(at, path, message));
    return NullNode.getInstance();
  }

  private void checkNoFurtherDocument(JsonParser parser) throws IOException {
    JsonToken next = parser.nextToken();
    if (next == null || (isEmptyDocument(parser) && parser.nextToken() == null)) {
      return;
    }
    Position at = SyntaxErrors.at(parser.currentTokenLocation());
    problems.add(
        problem(
            at,
            FieldPaths.ROOT,
            "a flow file holds one document, but another starts here: put each flow in its own"
                + " file"));
  }

  private static boolean isEmptyDocument(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    return token == JsonToken.VALUE_NULL
        || (token == JsonToken.VALUE_STRING && parser.getText().isEmpty());
  }
}

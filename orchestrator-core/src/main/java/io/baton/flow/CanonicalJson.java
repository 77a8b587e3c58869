package io.baton.flow;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The canonical JSON of a document: object keys sorted (by UTF-16 code units) at every level, no
 * insignificant white space, numbers as the parser typed them. Written explicitly rather than
 * through mapper settings, so that a flow's hash does not depend on how a mapper is configured.
 */
final class CanonicalJson {
  private static final JsonFactory JSON = new JsonFactory();

  private CanonicalJson() {}

  static String write(JsonNode document) {
    StringWriter text = new StringWriter();
    try (JsonGenerator generator = JSON.createGenerator(text)) {
      write(document, generator);
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to memory failed", e);
    }
    return text.toString();
  }

  private static void write(JsonNode node, JsonGenerator out) throws IOException {
    if (node.isObject()) {
      out.writeStartObject();
      for (String key : sortedKeys(node)) {
        out.writeFieldName(key);
        write(node.get(key), out);
      }
      out.writeEndObject();
    } else if (node.isArray()) {
      out.writeStartArray();
      for (JsonNode element : node) {
        write(element, out);
      }
      out.writeEndArray();
    } else {
      scalar(node, out);
    }
  }

  private static void scalar(JsonNode node, JsonGenerator out) throws IOException {
    if (node.isTextual()) {
      out.writeString(node.textValue());
    } else if (node.isBoolean()) {
      out.writeBoolean(node.booleanValue());
    } else if (node.isNull()) {
      out.writeNull();
    } else if (node.isInt() || node.isLong()) {
      out.writeNumber(node.longValue());
    } else if (node.isBigInteger()) {
      out.writeNumber(node.bigIntegerValue());
    } else if (node.isNumber()) {
      out.writeNumber(node.doubleValue());
    } else {
      throw new IllegalArgumentException("no JSON form for " + node.getNodeType());
    }
  }

  private static List<String> sortedKeys(JsonNode object) {
    List<String> keys = new ArrayList<>();
    for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
      keys.add(names.next());
    }
    keys.sort(null);
    return keys;
  }
}

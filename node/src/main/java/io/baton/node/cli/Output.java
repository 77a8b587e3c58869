package io.baton.node.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one renderer of the client commands: prints a result as {@code -o} asks. {@code json} and
 * {@code yaml} print the API's answer (pretty JSON; YAML documents that start with {@code ---}), so
 * that their fields are the versioned API's; {@code table} runs the command's own printer for
 * people. Errors never go here: they go to stderr with an exit code. One per command run; not
 * thread-safe.
 */
final class Output {
  private static final ObjectMapper YAML = new YAMLMapper();

  private final OutputFormat format;
  private final PrintWriter out;

  Output(OutputFormat format, PrintWriter out) {
    this.format = format;
    this.out = out;
  }

  OutputFormat format() {
    return format;
  }

  boolean isTable() {
    return format == OutputFormat.TABLE;
  }

  /** One result: {@code value} in json and yaml, what {@code table} prints in the table format. */
  void print(JsonNode value, Consumer<PrintWriter> table) {
    switch (format) {
      case TABLE -> table.accept(out);
      case JSON -> out.println(write(ApiResponse.MAPPER.writerWithDefaultPrettyPrinter(), value));
      case YAML -> out.print(write(YAML.writer(), value));
    }
    out.flush();
  }

  /**
   * One event of a stream that lasts until the command ends ({@code run --follow}): a line of
   * compact JSON each (JSON Lines), a YAML document each, or what {@code table} prints.
   */
  void event(JsonNode value, Consumer<PrintWriter> table) {
    switch (format) {
      case TABLE -> table.accept(out);
      case JSON -> out.println(write(ApiResponse.MAPPER.writer(), value));
      case YAML -> out.print(write(YAML.writer(), value));
    }
    out.flush();
  }

  /**
   * A list too long to hold, printed while its pages arrive: in json and yaml the object {@code
   * head} with the items in an array under {@code field} (the shape of one page of the API's
   * answer), in the table format a row of {@code table} per item.
   */
  Listing listing(
      ObjectNode head, String field, TextTable table, Function<JsonNode, Object[]> row) {
    return isTable() ? new TableListing(table, row) : new DocumentListing(head, field);
  }

  /** Items added page by page; {@link #end} ends the list once the last page was added. */
  interface Listing {
    void add(JsonNode item);

    /** Prints what was added so far (after each page). */
    void flush();

    /** Ends the list (and the document in json and yaml). */
    void end();
  }

  private final class TableListing implements Listing {
    private final TextTable table;
    private final Function<JsonNode, Object[]> row;

    TableListing(TextTable table, Function<JsonNode, Object[]> row) {
      this.table = table;
      this.row = row;
    }

    @Override
    public void add(JsonNode item) {
      table.row(row.apply(item));
    }

    @Override
    public void flush() {
      table.print(out);
      out.flush();
    }

    @Override
    public void end() {
      flush();
    }
  }

  private final class DocumentListing implements Listing {
    private final ObjectMapper mapper;
    private final JsonGenerator generator;

    DocumentListing(ObjectNode head, String field) {
      mapper = format == OutputFormat.YAML ? YAML : ApiResponse.MAPPER;
      try {
        generator = mapper.getFactory().createGenerator(out);
        generator.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        if (format == OutputFormat.JSON) {
          generator.useDefaultPrettyPrinter();
        }
        generator.writeStartObject();
        for (Map.Entry<String, JsonNode> headField : head.properties()) {
          generator.writeFieldName(headField.getKey());
          mapper.writeTree(generator, headField.getValue());
        }
        generator.writeArrayFieldStart(field);
      } catch (IOException e) {
        throw cannotPrint(e);
      }
    }

    @Override
    public void add(JsonNode item) {
      try {
        mapper.writeTree(generator, item);
      } catch (IOException e) {
        throw cannotPrint(e);
      }
    }

    @Override
    public void flush() {
      try {
        generator.flush();
      } catch (IOException e) {
        throw cannotPrint(e);
      }
    }

    @Override
    public void end() {
      try {
        generator.writeEndArray();
        generator.writeEndObject();
        generator.close();
      } catch (IOException e) {
        throw cannotPrint(e);
      }
      if (format == OutputFormat.JSON) {
        out.println();
      }
      out.flush();
    }
  }

  private static String write(ObjectWriter writer, JsonNode value) {
    try {
      return writer.writeValueAsString(value);
    } catch (IOException e) {
      throw cannotPrint(e);
    }
  }

  private static CommandFailedException cannotPrint(IOException e) {
    return new CommandFailedException(
        ExitCodes.ERROR, "Cannot print the answer: " + e.getMessage());
  }
}

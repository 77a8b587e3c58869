package io.baton.node.cli;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How a client command prints its result ({@code -o}): {@code table} for people (the default),
 * {@code json} or {@code yaml} for programs, which get the API's answer as it is documented in
 * {@code /api/v1/openapi.json}.
 */
enum OutputFormat {
  TABLE,
  JSON,
  YAML;

  /** The name on the command line: {@code table}, {@code json}, {@code yaml}. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Every format's label, for messages and shell completion. */
  static List<String> labels() {
    return Arrays.stream(values()).map(OutputFormat::label).toList();
  }

  /** Parses {@code -o}; anything else is a usage error that lists the formats. */
  static final class Converter implements ITypeConverter<OutputFormat> {
    @Override
    public OutputFormat convert(String value) {
      for (OutputFormat format : values()) {
        if (format.label().equalsIgnoreCase(value.trim())) {
          return format;
        }
      }
      throw new TypeConversionException(
          "'" + value + "' is not an output format; use " + String.join(", ", labels()));
    }
  }

  /** The labels picocli completes and shows as ${COMPLETION-CANDIDATES}. */
  static final class Candidates implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return labels().iterator();
    }
  }
}

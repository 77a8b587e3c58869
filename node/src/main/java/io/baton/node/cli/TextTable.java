package io.baton.node.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Columns aligned with two spaces between them, for the listing commands. A table can be printed
 * while it grows ({@code baton journal}, {@code run --follow}): each {@link #print} prints the rows
 * added since the last, and a column keeps the width it was printed with unless a cell needs more.
 */
final class TextTable {
  private final List<String[]> pending = new ArrayList<>();
  private final int[] widths;
  private boolean hasRows;

  TextTable(String... headers) {
    pending.add(headers);
    widths = new int[headers.length];
  }

  /** Starts the columns at least this wide, so that a table printed while it grows stays even. */
  TextTable minWidths(int... minimum) {
    for (int i = 0; i < minimum.length && i < widths.length; i++) {
      widths[i] = Math.max(widths[i], minimum[i]);
    }
    return this;
  }

  TextTable row(Object... cells) {
    String[] texts = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      texts[i] = cells[i] == null ? "-" : String.valueOf(cells[i]);
    }
    pending.add(texts);
    hasRows = true;
    return this;
  }

  /** Whether no row was ever added (the header does not count). */
  boolean isEmpty() {
    return !hasRows;
  }

  /** Prints the rows not printed yet, the header first. */
  void print(PrintWriter out) {
    for (String[] row : pending) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : pending) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i == row.length - 1 ? row[i] : pad(row[i], widths[i] + 2));
      }
      out.println(line.toString().stripTrailing());
    }
    pending.clear();
  }

  private static String pad(String text, int width) {
    return text + " ".repeat(width - text.length());
  }
}

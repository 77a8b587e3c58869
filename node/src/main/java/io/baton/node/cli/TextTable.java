package io.baton.node.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Columns aligned with two spaces between them, for the listing commands. */
final class TextTable {
  private final List<String[]> rows = new ArrayList<>();

  TextTable(String... headers) {
    rows.add(headers);
  }

  TextTable row(Object... cells) {
    String[] texts = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      texts[i] = cells[i] == null ? "-" : String.valueOf(cells[i]);
    }
    rows.add(texts);
    return this;
  }

  boolean isEmpty() {
    return rows.size() == 1;
  }

  void print(PrintWriter out) {
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i == row.length - 1 ? row[i] : pad(row[i], widths[i] + 2));
      }
      out.println(line.toString().stripTrailing());
    }
  }

  private static String pad(String text, int width) {
    return text + " ".repeat(width - text.length());
  }
}

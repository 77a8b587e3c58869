package io.baton.gates;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Every package says what it owns: a {@code package-info.java} in each source directory that holds
 * Java files, and for an {@code internal} package one that says it is not API (Jdbi's convention).
 * Read from the sources, since a package-info without annotations compiles to nothing.
 */
final class PackageDocs {
  static final String NOT_API = "Not API";

  private PackageDocs() {}

  /** What is missing under {@code sourceRoot}, one line per package; empty when nothing is. */
  static List<String> problems(Path sourceRoot) {
    List<String> problems = new ArrayList<>();
    for (Path directory : packageDirectories(sourceRoot)) {
      String name = sourceRoot.relativize(directory).toString().replace('/', '.');
      Path info = directory.resolve("package-info.java");
      if (!Files.isRegularFile(info)) {
        problems.add(name + " has no package-info.java");
      } else if (isInternal(name) && !read(info).contains(NOT_API)) {
        problems.add(
            name + " is internal, but its package-info.java does not say \"" + NOT_API + "\"");
      }
    }
    return problems;
  }

  private static boolean isInternal(String packageName) {
    return List.of(packageName.split("\\.", -1)).contains("internal");
  }

  private static List<Path> packageDirectories(Path sourceRoot) {
    try (Stream<Path> walk = Files.walk(sourceRoot)) {
      return walk.filter(Files::isDirectory).filter(PackageDocs::holdsJava).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean holdsJava(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files.anyMatch(
          file -> file.toString().endsWith(".java") && !file.endsWith("package-info.java"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package io.baton.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compiler gate fails on a planted violation of each rule. The planted sources (test resources
 * under {@code errorprone/}) are compiled with the flags the build gives main code: the parent
 * pom's {@code javac.lint} and {@code errorprone.args}, passed in by Surefire, with {@code
 * -Werror}.
 */
class ErrorProneGateTest {
  @TempDir Path output;

  @Test
  void each_planted_violation_is_an_error_named_after_its_check() {
    Compilation compilation = compile("errors");

    assertThat(compilation.succeeded()).isFalse();
    assertThat(compilation.errorsIn("UnusedVariablePlanted")).anyMatch(has("[UnusedVariable]"));
    assertThat(compilation.errorsIn("UnusedMethodPlanted")).anyMatch(has("[UnusedMethod]"));
    assertThat(compilation.errorsIn("FullyQualifiedPlanted"))
        .anyMatch(has("[UnnecessarilyFullyQualified]"));
    assertThat(compilation.errorsIn("IgnoredFuturePlanted"))
        .anyMatch(has("[FutureReturnValueIgnored]"));
    assertThat(compilation.errorsIn("DeadExceptionPlanted")).anyMatch(has("[DeadException]"));
  }

  @Test
  void an_error_prone_warning_fails_the_build_through_werror() {
    Compilation compilation = compile("warnings");

    assertThat(compilation.succeeded()).isFalse();
    assertThat(compilation.warnings()).anyMatch(has("[StringCaseLocaleUsage]"));
    assertThat(compilation.errors()).anyMatch(has("-Werror"));
  }

  @Test
  void a_javac_lint_warning_fails_the_build_through_werror() {
    Compilation compilation = compile("lint");

    assertThat(compilation.succeeded()).isFalse();
    assertThat(compilation.warnings()).anyMatch(has("raw type"));
    assertThat(compilation.errors()).anyMatch(has("-Werror"));
  }

  @Test
  void code_that_keeps_the_rules_compiles_without_a_diagnostic() {
    Compilation compilation = compile("clean");

    assertThat(compilation.diagnostics()).isEmpty();
    assertThat(compilation.succeeded()).isTrue();
  }

  private static Predicate<String> has(String text) {
    return message -> message.contains(text);
  }

  /** What javac said about one set of planted sources. */
  private record Compilation(boolean succeeded, List<Diagnostic<? extends JavaFileObject>> all) {
    List<String> diagnostics() {
      return all.stream().map(Compilation::describe).toList();
    }

    List<String> errors() {
      return of(Diagnostic.Kind.ERROR, null);
    }

    List<String> warnings() {
      return Stream.concat(
              of(Diagnostic.Kind.WARNING, null).stream(),
              of(Diagnostic.Kind.MANDATORY_WARNING, null).stream())
          .toList();
    }

    List<String> errorsIn(String className) {
      return of(Diagnostic.Kind.ERROR, className + ".java");
    }

    private List<String> of(Diagnostic.Kind kind, String fileName) {
      return all.stream()
          .filter(diagnostic -> diagnostic.getKind() == kind)
          .filter(diagnostic -> fileName == null || fileOf(diagnostic).endsWith("/" + fileName))
          .map(Compilation::describe)
          .toList();
    }

    private static String fileOf(Diagnostic<? extends JavaFileObject> diagnostic) {
      return diagnostic.getSource() == null ? "" : diagnostic.getSource().toUri().toString();
    }

    private static String describe(Diagnostic<? extends JavaFileObject> diagnostic) {
      return fileOf(diagnostic) + ": " + diagnostic.getMessage(Locale.ROOT);
    }
  }

  private Compilation compile(String plantedSet) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      Boolean succeeded =
          javac
              .getTask(
                  null,
                  files,
                  diagnostics,
                  options(),
                  null,
                  files.getJavaFileObjectsFromPaths(sources(plantedSet)))
              .call();
      return new Compilation(succeeded, List.copyOf(diagnostics.getDiagnostics()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The main compilation's flags (parent pom), with Error Prone on the processor path. */
  private List<String> options() {
    List<String> options = new ArrayList<>();
    options.addAll(List.of("--release", "17", "-d", output.toString()));
    options.add(required("javac.lint"));
    options.addAll(List.of("-XDcompilePolicy=simple", "--should-stop=ifError=FLOW", "-Werror"));
    options.add(required("errorprone.args"));
    options.addAll(List.of("-processorpath", testClassPath()));
    return options;
  }

  private static String required(String property) {
    return Objects.requireNonNull(
        System.getProperty(property), property + " is not set: run the gates through Maven");
  }

  private static String testClassPath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  private static List<Path> sources(String plantedSet) {
    URL root = ErrorProneGateTest.class.getResource("/errorprone/" + plantedSet);
    Objects.requireNonNull(root, "no planted sources " + plantedSet);
    try (Stream<Path> walk = Files.walk(Path.of(root.toURI()))) {
      List<Path> sources = walk.filter(path -> path.toString().endsWith(".java")).toList();
      assertThat(sources).as("planted sources of %s", plantedSet).isNotEmpty();
      return sources;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}

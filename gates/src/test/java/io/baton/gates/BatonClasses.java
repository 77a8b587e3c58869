package io.baton.gates;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every module's main classes, read from the module's {@code target/classes}, so that a class's
 * module is the one that compiled it. Tests are not imported: the rules are about the product.
 */
final class BatonClasses {
  private static JavaClasses cached;

  private final JavaClasses classes;
  private final Map<Module, URI> outputs;

  private BatonClasses(JavaClasses classes, Map<Module, URI> outputs) {
    this.classes = classes;
    this.outputs = outputs;
  }

  static synchronized BatonClasses load() {
    Map<Module, URI> outputs = outputs();
    if (cached == null) {
      List<Path> paths = new ArrayList<>();
      outputs.values().forEach(uri -> paths.add(Path.of(uri)));
      cached = new ClassFileImporter().importPaths(paths);
    }
    return new BatonClasses(cached, outputs);
  }

  JavaClasses classes() {
    return classes;
  }

  /** A class's module: the one whose output directory holds its class file. */
  ModuleMap modules() {
    return javaClass -> javaClass.getSource().flatMap(source -> moduleAt(source.getUri()));
  }

  private Optional<Module> moduleAt(URI classFile) {
    String file = classFile.toString();
    return outputs.entrySet().stream()
        .filter(output -> file.startsWith(output.getValue().toString()))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  private static Map<Module, URI> outputs() {
    String root = System.getProperty("baton.root");
    if (root == null) {
      throw new IllegalStateException("baton.root is not set: run the gates through Maven");
    }
    Map<Module, URI> outputs = new EnumMap<>(Module.class);
    for (Module module : Module.values()) {
      Path classes = Path.of(root, module.directory(), "target", "classes").normalize();
      if (!Files.isDirectory(classes)) {
        throw new IllegalStateException(
            classes + " is missing: build the modules first (mvn verify, or -am)");
      }
      outputs.put(module, classes.toUri());
    }
    return outputs;
  }

  /** How many classes each module contributed (every module must contribute some). */
  Map<Module, Long> counts() {
    Map<Module, Long> counts = new EnumMap<>(Module.class);
    for (JavaClass javaClass : classes) {
      modules().moduleOf(javaClass).ifPresent(module -> counts.merge(module, 1L, Long::sum));
    }
    return counts;
  }
}

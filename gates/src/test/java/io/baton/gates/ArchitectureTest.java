package io.baton.gates;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Baton's main classes keep the architecture's rules (docs/architecture.md, "Build gates"). */
class ArchitectureTest {
  private static final String ROOT = "io.baton";
  private static final String CLOCK_HOME = "io.baton.time";

  private final BatonClasses baton = BatonClasses.load();

  @Test
  void every_module_is_imported_and_every_class_has_its_module() {
    assertThat(baton.counts()).containsOnlyKeys(Module.values());
    assertThat(baton.counts().values()).allSatisfy(count -> assertThat(count).isPositive());
    List<String> homeless =
        baton.classes().stream()
            .filter(javaClass -> baton.modules().moduleOf(javaClass).isEmpty())
            .map(JavaClass::getName)
            .toList();
    assertThat(homeless).isEmpty();
  }

  @Test
  void every_main_package_says_what_it_owns() {
    for (Module module : Module.values()) {
      Path sources = Path.of(System.getProperty("baton.root"), module.directory(), "src/main/java");
      assertThat(PackageDocs.problems(sources)).as(module.directory()).isEmpty();
    }
  }

  @Test
  void core_imports_no_adapter() {
    ArchitectureRules.coreImportsNoAdapter(baton.modules()).check(baton.classes());
  }

  @Test
  void adapters_do_not_import_each_other() {
    ArchitectureRules.adaptersDoNotImportEachOther(baton.modules()).check(baton.classes());
  }

  @Test
  void internal_packages_are_used_only_inside_their_module() {
    ArchitectureRules.internalPackagesStayInTheirModule(baton.modules()).check(baton.classes());
  }

  @Test
  void no_package_depends_on_itself_through_others() {
    ArchitectureRules.noPackageCycles(ROOT).check(baton.classes());
  }

  @Test
  void only_the_clock_home_reads_the_wall_clock() {
    ArchitectureRules.wallClockOnlyInItsHome(ROOT, CLOCK_HOME).check(baton.classes());
  }
}

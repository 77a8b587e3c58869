package io.baton.gates;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.ListAssert;
import org.junit.jupiter.api.Test;

/**
 * Every architecture rule, run against planted violations ({@code io.baton.gates.planted}), reports
 * them and nothing else: a rule that silently checks nothing, or checks too much, fails here.
 */
class PlantedViolationsTest {
  private static final String PLANTED = "io.baton.gates.planted";
  private static final JavaClasses CLASSES = new ClassFileImporter().importPackages(PLANTED);

  /** A planted class's module is the first package segment under {@code planted}. */
  private static final Map<String, Module> MODULE_PACKAGES =
      Map.of(
          "journal", Module.JOURNAL,
          "core", Module.ORCHESTRATOR_CORE,
          "postgres", Module.STORE_POSTGRES,
          "etcd", Module.LEASE_ETCD,
          "node", Module.NODE);

  private static final ModuleMap MODULES =
      javaClass -> {
        String name = javaClass.getPackageName();
        if (!name.startsWith(PLANTED + ".")) {
          return Optional.empty();
        }
        String segment = name.substring(PLANTED.length() + 1).split("\\.", -1)[0];
        return Optional.ofNullable(MODULE_PACKAGES.get(segment));
      };

  @Test
  void core_importing_an_adapter_is_reported() {
    assertReports(ArchitectureRules.coreImportsNoAdapter(MODULES))
        .anyMatch(line -> line.contains("CoreImportsPostgres"))
        .noneMatch(line -> line.contains("CoreUsesJournal"));
  }

  @Test
  void an_adapter_importing_another_is_reported() {
    assertReports(ArchitectureRules.adaptersDoNotImportEachOther(MODULES))
        .anyMatch(line -> line.contains("PostgresImportsEtcd"))
        .noneMatch(line -> line.contains("PostgresAdapter"))
        .noneMatch(line -> line.contains("PostgresUsesOwnInternal"))
        .noneMatch(line -> line.contains("NodeWiresEverything"));
  }

  @Test
  void an_internal_package_used_from_another_module_is_reported() {
    assertReports(ArchitectureRules.internalPackagesStayInTheirModule(MODULES))
        .anyMatch(line -> line.contains("EtcdUsesPostgresInternal"))
        .noneMatch(line -> line.contains("PostgresUsesOwnInternal"));
  }

  @Test
  void a_package_cycle_is_reported_but_not_a_package_with_its_internal_part() {
    assertReports(ArchitectureRules.noPackageCycles(PLANTED + ".cycle"))
        .anyMatch(line -> line.contains("CycleA") && line.contains("CycleB"))
        .noneMatch(line -> line.contains("Implementation"));
  }

  @Test
  void reading_the_wall_clock_outside_its_home_is_reported() {
    assertReports(
            ArchitectureRules.wallClockOnlyInItsHome(PLANTED + ".clock", PLANTED + ".clock.home"))
        .anyMatch(line -> line.contains("ReadsInstantNow"))
        .anyMatch(line -> line.contains("ReadsCurrentTimeMillis"))
        .anyMatch(line -> line.contains("CreatesSystemClock"))
        .anyMatch(line -> line.contains("RefersToInstantNow"))
        .noneMatch(line -> line.contains("UsesInjectedClock"))
        .noneMatch(line -> line.contains("SystemClockHome"));
  }

  @Test
  void a_package_without_package_info_or_an_internal_one_claiming_nothing_is_reported()
      throws Exception {
    Path sources = Path.of(PlantedViolationsTest.class.getResource("/package-docs").toURI());

    assertThat(PackageDocs.problems(sources))
        .containsExactlyInAnyOrder(
            "undocumented has no package-info.java",
            "documented.internal is internal, but its package-info.java does not say \"Not API\"");
  }

  private static ListAssert<String> assertReports(ArchRule rule) {
    EvaluationResult result = rule.evaluate(CLASSES);
    assertThat(result.hasViolation()).as("%s reports the planted violation", rule).isTrue();
    return assertThat(result.getFailureReport().getDetails());
  }
}

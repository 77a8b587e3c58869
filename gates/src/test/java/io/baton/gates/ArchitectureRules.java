package io.baton.gates;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * The architecture rules of issue 10, each built from what it needs to know (which module a class
 * is in, which package is the root), so that the same rule runs against the product and against
 * planted violations ({@code PlantedViolationsTest}): a rule that silently checks nothing fails
 * there.
 */
final class ArchitectureRules {
  private ArchitectureRules() {}

  /** Core (journal, orchestrator-core) imports no adapter and not the composition root. */
  static ArchRule coreImportsNoAdapter(ModuleMap modules) {
    return classes()
        .that(inRole(modules, Module.Role.CORE))
        .should(
            dependOnlyWhere(
                modules,
                "import no adapter module and not node",
                (from, to) -> to.role() == Module.Role.CORE))
        .as("core modules import no adapter");
  }

  /** An adapter imports core only: no other adapter, not the composition root. */
  static ArchRule adaptersDoNotImportEachOther(ModuleMap modules) {
    return classes()
        .that(inRole(modules, Module.Role.ADAPTER))
        .should(
            dependOnlyWhere(
                modules,
                "import no other adapter and not node",
                (from, to) -> to == from || to.role() == Module.Role.CORE))
        .as("adapters do not import each other");
  }

  /** A package named {@code internal} is used only by classes of its own module. */
  static ArchRule internalPackagesStayInTheirModule(ModuleMap modules) {
    return classes()
        .should(
            new ArchCondition<>("use internal packages of their own module only") {
              @Override
              public void check(JavaClass origin, ConditionEvents events) {
                Optional<Module> from = modules.moduleOf(origin);
                for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                  JavaClass target = dependency.getTargetClass().getBaseComponentType();
                  if (isInternal(target.getPackageName())
                      && (from.isEmpty() || !from.equals(modules.moduleOf(target)))) {
                    events.add(
                        SimpleConditionEvent.violated(
                            dependency,
                            dependency.getDescription()
                                + ", across modules "
                                + from.map(Module::directory).orElse("?")
                                + " -> "
                                + modules.moduleOf(target).map(Module::directory).orElse("?")));
                  }
                }
              }
            })
        .as("internal packages are used only inside their module");
  }

  /**
   * No two packages under {@code rootPackage} depend on each other, directly or through others. A
   * package's {@code internal} subpackage is its implementation and counts as part of it: the
   * public types construct the internal ones, which take the public configuration and throw the
   * public exceptions (Jdbi's layout).
   */
  static ArchRule noPackageCycles(String rootPackage) {
    return SlicesRuleDefinition.slices()
        .assignedFrom(packagesUnder(rootPackage))
        .should()
        .beFreeOfCycles()
        .as("no package cycles under " + rootPackage);
  }

  private static SliceAssignment packagesUnder(String rootPackage) {
    String prefix = rootPackage + ".";
    return new SliceAssignment() {
      @Override
      public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
        String name = javaClass.getPackageName();
        if (!name.equals(rootPackage) && !name.startsWith(prefix)) {
          return SliceIdentifier.ignore();
        }
        List<String> segments =
            name.equals(rootPackage)
                ? List.of()
                : List.of(name.substring(prefix.length()).split("\\.", -1));
        int internal = segments.indexOf("internal");
        List<String> owner = internal < 0 ? segments : segments.subList(0, internal);
        return SliceIdentifier.of(owner.isEmpty() ? rootPackage : String.join(".", owner));
      }

      @Override
      public String getDescription() {
        return "packages under " + rootPackage + ", each with its internal subpackages";
      }
    };
  }

  /** The wall clock readings that only the clock's home may make. */
  static final List<String> WALL_CLOCK_READINGS =
      List.of(
          "java.time.Clock.systemUTC()",
          "java.time.Clock.systemDefaultZone()",
          "java.time.Clock.system(java.time.ZoneId)",
          "java.time.Instant.now()",
          "java.time.LocalDate.now()",
          "java.time.LocalDateTime.now()",
          "java.time.LocalTime.now()",
          "java.time.OffsetDateTime.now()",
          "java.time.ZonedDateTime.now()",
          "java.lang.System.currentTimeMillis()");

  /**
   * Classes under {@code scope} read the wall clock only through an injected {@code Clock} (the
   * scheduler's): only {@code home} creates the system clock. Calls and method references count.
   * (Monotonic {@code System.nanoTime()} stays allowed: it measures how long something took and is
   * never recorded as a time.)
   */
  static ArchRule wallClockOnlyInItsHome(String scope, String home) {
    return classes()
        .that()
        .resideInAPackage(scope + "..")
        .and()
        .resideOutsideOfPackage(home + "..")
        .should(
            new ArchCondition<>(
                "not read the wall clock (" + String.join(", ", WALL_CLOCK_READINGS) + ")") {
              @Override
              public void check(JavaClass origin, ConditionEvents events) {
                for (JavaAccess<?> access : origin.getAccessesFromSelf()) {
                  if (WALL_CLOCK_READINGS.contains(signature(access.getTarget()))) {
                    events.add(SimpleConditionEvent.violated(access, access.getDescription()));
                  }
                }
              }
            })
        .as("the wall clock is read only in " + home);
  }

  private static String signature(AccessTarget target) {
    if (!(target instanceof AccessTarget.CodeUnitAccessTarget codeUnit)) {
      return "";
    }
    List<String> parameters =
        codeUnit.getRawParameterTypes().stream().map(JavaClass::getName).toList();
    return target.getOwner().getName()
        + "."
        + target.getName()
        + "("
        + String.join(",", parameters)
        + ")";
  }

  private static boolean isInternal(String packageName) {
    return Set.of(packageName.split("\\.", -1)).contains("internal");
  }

  private static DescribedPredicate<JavaClass> inRole(ModuleMap modules, Module.Role role) {
    return DescribedPredicate.describe(
        "are in a " + role.name().toLowerCase(Locale.ROOT) + " module",
        javaClass -> modules.moduleOf(javaClass).map(Module::role).orElse(null) == role);
  }

  /**
   * Every dependency on a class of a module satisfies {@code allowed(from, to)}; dependencies on
   * classes outside every module (the JDK, libraries) are not this rule's business.
   */
  private static ArchCondition<JavaClass> dependOnlyWhere(
      ModuleMap modules, String description, BiPredicate<Module, Module> allowed) {
    return new ArchCondition<>(description) {
      @Override
      public void check(JavaClass origin, ConditionEvents events) {
        Module from = modules.moduleOf(origin).orElseThrow();
        for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
          JavaClass target = dependency.getTargetClass().getBaseComponentType();
          Optional<Module> to = modules.moduleOf(target);
          if (to.isPresent() && !allowed.test(from, to.get())) {
            events.add(
                SimpleConditionEvent.violated(
                    dependency,
                    dependency.getDescription()
                        + " ("
                        + from.directory()
                        + " -> "
                        + to.get().directory()
                        + ")"));
          }
        }
      }
    };
  }
}

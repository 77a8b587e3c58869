package io.baton.gates;

import com.tngtech.archunit.core.domain.JavaClass;
import java.util.Optional;

/** Which module a class belongs to; empty for a class outside every module (the JDK, a library). */
@FunctionalInterface
interface ModuleMap {
  Optional<Module> moduleOf(JavaClass javaClass);
}

package io.baton.testkit;

import io.baton.internal.Defect;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test class with the defects named in {@code -Dbaton.defects=A,B} switched on, to show that
 * its tests fail without the fix they protect ({@code mvn -pl orchestrator-core test
 * -Dtest=RecoveryPolicyTest -Dbaton.defects=POLICY_ON_EVERY_ADOPTION}); repairs every defect after
 * each test.
 */
public final class InjectDefects implements BeforeEachCallback, AfterEachCallback {
  @Override
  public void beforeEach(ExtensionContext context) {
    String names = System.getProperty("baton.defects", "");
    for (String name : names.split(",")) {
      if (!name.isBlank()) {
        Defect.valueOf(name.trim()).inject();
      }
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    Defect.repair();
  }
}

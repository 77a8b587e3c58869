package io.baton.node.http;

/** Flow documents the API tests apply, as YAML. */
public final class TestFlows {
  private TestFlows() {}

  /** {@code prepare} (noop), then {@code ask} (approval), then {@code finish} (noop). */
  public static String approval(String name) {
    return """
        name: %s
        steps:
          - name: prepare
            capability: noop
            params: { order: "{{ input.orderId }}" }
          - name: ask
            capability: approval
            needs: [prepare]
            params: { prompt: "Ship {{ input.orderId }}?" }
          - name: finish
            capability: noop
            needs: [ask]
            params: { shipped: true }
        """
        .formatted(name);
  }

  /** One {@code work} step that holds the run RUNNING until the test releases it. */
  public static String held(String name) {
    return """
        name: %s
        steps:
          - name: work
            capability: hold
        """
        .formatted(name);
  }

  /** {@code first} (noop), then {@code flaky} (toggle): fails until the switch is turned on. */
  public static String toggled(String name, String switchName) {
    return """
        name: %s
        recovery: fail
        steps:
          - name: first
            capability: noop
          - name: flaky
            capability: toggle
            needs: [first]
            params: { name: %s }
        """
        .formatted(name, switchName);
  }

  /**
   * {@code first} (noop), then {@code flaky} (toggle) retried after an hour's back-off, at most 3
   * attempts: it waits in back-off after its first attempt until the switch is on and someone says
   * retry now.
   */
  public static String backingOff(String name, String switchName) {
    return """
        name: %s
        steps:
          - name: first
            capability: noop
          - name: flaky
            capability: toggle
            needs: [first]
            params: { name: %s }
            retry: { maxAttempts: 3, delay: 1h, retryOn: [switched_off] }
        """
        .formatted(name, switchName);
  }

  /** One noop step: succeeds at once. */
  public static String quick(String name) {
    return """
        name: %s
        steps:
          - name: only
            capability: noop
            params: { echo: "{{ input.value }}" }
        """
        .formatted(name);
  }
}

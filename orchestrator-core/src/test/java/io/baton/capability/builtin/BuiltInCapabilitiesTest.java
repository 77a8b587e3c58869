package io.baton.capability.builtin;

import static io.baton.capability.builtin.Invocations.invocation;
import static io.baton.capability.builtin.Invocations.json;
import static io.baton.capability.builtin.Invocations.outcomeOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.baton.capability.Capability;
import io.baton.capability.CapabilityRegistry;
import io.baton.capability.EchoCapability;
import io.baton.capability.StepOutcome.Completed;
import io.baton.testkit.SettableClock;
import java.net.http.HttpClient;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BuiltInCapabilitiesTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @Test
  void the_registry_holds_every_built_in_and_what_the_service_loader_finds() {
    CapabilityRegistry registry =
        BuiltInCapabilities.registry(CLIENT, BuiltInCapabilitiesTest.class.getClassLoader());

    assertThat(registry.all())
        .extracting(Capability::name)
        .containsExactly("approval", "echo", "flow", "http", "log", "noop", "sleep");
    assertThat(registry.find("echo")).get().isInstanceOf(EchoCapability.class);
  }

  @Test
  void a_class_loader_that_sees_no_service_file_discovers_nothing() {
    ClassLoader bootstrapOnly = new ClassLoader(null) {};

    CapabilityRegistry registry = BuiltInCapabilities.registry(CLIENT, bootstrapOnly);

    assertThat(registry.find("echo")).isEmpty();
    assertThat(registry.all()).hasSize(6);
  }

  @Test
  void a_discovered_capability_can_be_invoked_through_the_registry() throws Exception {
    Capability echo = BuiltInCapabilities.registry().find("echo").orElseThrow();

    assertThat(
            outcomeOf(
                echo.invoke(invocation("shout", json("{\"text\": \"hi\"}"), new SettableClock()))))
        .isEqualTo(new Completed(json("\"HI\"")));
  }

  @Test
  void http_offers_five_operations_and_no_default_while_the_others_take_none() {
    CapabilityRegistry registry = BuiltInCapabilities.registry();

    Capability http = registry.find("http").orElseThrow();
    assertThat(http.operations())
        .containsExactlyInAnyOrder("get", "post", "put", "patch", "delete");
    assertThat(http.defaultOperation()).isEqualTo(Optional.empty());
    for (String name : new String[] {"log", "noop", "sleep", "approval", "flow"}) {
      assertThat(registry.find(name).orElseThrow().operations()).as(name).isEmpty();
    }
  }
}

package io.baton.capability.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EgressPolicyTest {
  private static List<InetAddress> at(String... addresses) throws Exception {
    List<InetAddress> resolved = new ArrayList<>();
    for (String address : addresses) {
      resolved.add(InetAddress.getByName(address));
    }
    return resolved;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "169.254.169.254",
        "169.254.0.1",
        "fe80::1",
        "::ffff:169.254.169.254",
        "100.100.100.200",
        "fd00:ec2::254",
        "0.0.0.0",
        "127.0.0.1",
        "::1"
      })
  void link_local_metadata_unspecified_and_loopback_addresses_are_denied_by_default(String address)
      throws Exception {
    assertThat(EgressPolicy.defaults().refusal(address, at(address)))
        .hasValueSatisfying(why -> assertThat(why).contains("denied by default"));
  }

  @Test
  void public_and_private_network_addresses_are_allowed_by_default() throws Exception {
    EgressPolicy policy = EgressPolicy.defaults();
    assertThat(policy.refusal("api.example.com", at("93.184.216.34"))).isEmpty();
    assertThat(policy.refusal("billing.internal", at("10.1.2.3"))).isEmpty();
  }

  @Test
  void a_name_is_judged_by_every_address_it_resolves_to() throws Exception {
    assertThat(
            EgressPolicy.defaults()
                .refusal("innocent.example.com", at("93.184.216.34", "169.254.169.254")))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains("innocent.example.com (resolved to 169.254.169.254)")
                    .contains("link-local (169.254.0.0/16)"));
  }

  @Test
  void metadata_names_are_denied_whatever_they_resolve_to() throws Exception {
    assertThat(EgressPolicy.defaults().refusal("Metadata.Google.Internal.", at("10.0.0.1")))
        .hasValueSatisfying(why -> assertThat(why).contains("cloud metadata"));
  }

  @Test
  void loopback_is_allowed_only_when_configured() throws Exception {
    assertThat(EgressPolicy.defaults().refusal("localhost", at("127.0.0.1")))
        .hasValueSatisfying(why -> assertThat(why).contains("egress.allowLoopback: true"));
    assertThat(EgressPolicy.allowingLoopback().refusal("localhost", at("127.0.0.1"))).isEmpty();
  }

  @Test
  void a_denied_entry_wins_over_everything() throws Exception {
    EgressPolicy policy =
        new EgressPolicy(List.of("10.0.0.0/8"), List.of("10.9.0.0/16", "*.corp.example"), true);
    assertThat(policy.refusal("db", at("10.9.0.5")))
        .hasValueSatisfying(why -> assertThat(why).contains("'10.9.0.0/16' in egress.deniedHosts"));
    assertThat(policy.refusal("Wiki.Corp.Example", at("10.1.1.1")))
        .hasValueSatisfying(
            why -> assertThat(why).contains("'*.corp.example' in egress.deniedHosts"));
    assertThat(policy.refusal("app", at("10.1.1.1"))).isEmpty();
  }

  @Test
  void with_an_allow_list_anything_else_is_refused() throws Exception {
    EgressPolicy policy =
        new EgressPolicy(List.of("*.example.com", "192.168.1.0/24"), List.of(), false);
    assertThat(policy.refusal("api.example.com", at("93.184.216.34"))).isEmpty();
    assertThat(policy.refusal("printer", at("192.168.1.7"))).isEmpty();
    assertThat(policy.refusal("example.com", at("93.184.216.34")))
        .hasValueSatisfying(
            why -> assertThat(why).contains("matches nothing in egress.allowedHosts"));
  }

  @Test
  void an_allowed_name_pattern_does_not_lift_a_default_denial_but_an_allowed_network_does()
      throws Exception {
    EgressPolicy byName = new EgressPolicy(List.of("*.example.com"), List.of(), false);
    assertThat(byName.refusal("rebound.example.com", at("169.254.169.254")))
        .hasValueSatisfying(why -> assertThat(why).contains("link-local"));
    EgressPolicy byNetwork = new EgressPolicy(List.of("169.254.169.254"), List.of(), false);
    assertThat(byNetwork.refusal("169.254.169.254", at("169.254.169.254"))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.0/33", "300.1.1.1", "not a host", "*.", "fe80::/200", "a/b"})
  void a_bad_entry_is_refused_naming_the_key_and_the_entry(String entry) {
    assertThatThrownBy(() -> new EgressPolicy(List.of(), List.of(entry), false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("egress.deniedHosts")
        .hasMessageContaining(entry);
  }
}

package io.baton.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link AccessStore}: keys by hash with unique names, revocation that keeps the
 * key and its first time, and an audit record read newest first in pages. Every implementation's
 * test extends this class and supplies only its {@link Stores}.
 */
public abstract class AccessStoreComplianceSuite {
  protected static final Instant T0 = Instant.parse("2026-02-03T04:05:06.789012Z");

  protected Stores stores;
  protected AccessStore access;

  /** Fresh stores for one test (an empty database, or one no other test writes to). */
  protected abstract Stores createStores() throws Exception;

  @BeforeEach
  void openStores() throws Exception {
    stores = createStores();
    access = stores.access();
  }

  @AfterEach
  void closeStores() throws Exception {
    stores.close();
  }

  private static StoredKey key(String name, List<String> flows, Instant expires) {
    return new StoredKey(
        "k-" + UUID.randomUUID(),
        name,
        "operator",
        hashOf(name),
        flows,
        expires,
        T0,
        "admin-key",
        null);
  }

  private static String hashOf(String name) {
    return "sha256:" + String.format("%064x", name.hashCode() & 0xffffffffL);
  }

  private static AuditEntry entry(String action, String target, Instant at) {
    return new AuditEntry(0, at, action, target, "admin-key", "key", "because", null);
  }

  private void create(StoredKey key) {
    access.createKey(key, entry("key.create", key.id(), key.createdAt()));
  }

  private Optional<StoredKey> revoke(String id, Instant at) {
    return access.revokeKey(id, entry("key.revoke", id, at));
  }

  @Test
  void a_created_key_reads_back_field_for_field() {
    StoredKey key = key("ci", List.of("billing-*", "payroll"), T0.plus(Duration.ofDays(90)));
    create(key);
    assertThat(access.findKey(key.id())).contains(key);
    assertThat(access.keys()).containsExactly(key);
  }

  @Test
  void a_key_without_flows_or_expiry_reads_back_with_none() {
    StoredKey key = key("plain", List.of(), null);
    create(key);
    StoredKey read = access.findKey(key.id()).orElseThrow();
    assertThat(read.flows()).isEmpty();
    assertThat(read.expires()).isNull();
    assertThat(read.revoked()).isFalse();
  }

  @Test
  void names_are_unique_even_after_a_revocation() {
    StoredKey first = key("ci", List.of(), null);
    create(first);
    revoke(first.id(), T0.plusSeconds(1));
    assertThatThrownBy(() -> create(key("ci", List.of(), null)))
        .isInstanceOf(KeyNameTakenException.class)
        .hasMessageContaining("ci");
    assertThat(access.keys()).hasSize(1);
  }

  @Test
  void two_keys_never_share_a_token_hash() {
    StoredKey first = key("first", List.of(), null);
    create(first);
    StoredKey twin =
        new StoredKey(
            "k-twin", "second", "viewer", first.hash(), List.of(), null, T0, "admin-key", null);
    assertThatThrownBy(() -> create(twin)).isInstanceOf(KeyNameTakenException.class);
    assertThat(access.keys()).containsExactly(first);
  }

  @Test
  void keys_are_listed_oldest_first() {
    List<StoredKey> created = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      StoredKey key = key("key-" + i, List.of(), null);
      create(key);
      created.add(key);
    }
    assertThat(access.keys()).containsExactlyElementsOf(created);
  }

  @Test
  void revoking_keeps_the_key_and_its_first_revocation_time() {
    StoredKey key = key("ci", List.of(), null);
    create(key);
    Instant first = T0.plusSeconds(10);
    assertThat(revoke(key.id(), first)).contains(key.revokedAt(first));
    assertThat(revoke(key.id(), first.plusSeconds(5))).contains(key.revokedAt(first));
    assertThat(access.findKey(key.id()).orElseThrow().revokedAt()).isEqualTo(first);
    assertThat(access.keys()).hasSize(1);
  }

  @Test
  void a_key_change_and_its_audit_entry_are_recorded_together() {
    StoredKey key = key("ci", List.of(), null);
    create(key);
    assertThatThrownBy(() -> create(key("ci", List.of(), null)))
        .isInstanceOf(KeyNameTakenException.class);
    revoke(key.id(), T0.plusSeconds(1));
    revoke(key.id(), T0.plusSeconds(2));
    assertThat(access.audit(Long.MAX_VALUE, 10))
        .extracting(AuditEntry::action, AuditEntry::target, AuditEntry::at)
        .containsExactly(
            tuple("key.revoke", key.id(), T0.plusSeconds(1)), tuple("key.create", key.id(), T0));
  }

  @Test
  void an_unknown_key_is_not_found_and_cannot_be_revoked() {
    assertThat(access.findKey("k-nope")).isEmpty();
    assertThat(revoke("k-nope", T0)).isEmpty();
  }

  @Test
  void audit_entries_are_numbered_in_order_and_read_newest_first_in_pages() {
    List<AuditEntry> recorded = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      recorded.add(
          access.record(
              new AuditEntry(
                  0,
                  T0.plusSeconds(i),
                  "flow.apply",
                  "flow-" + i,
                  "dev-key",
                  "key",
                  i % 2 == 0 ? "release " + i : null,
                  "sha256:" + i)));
    }
    for (int i = 1; i < recorded.size(); i++) {
      assertThat(recorded.get(i).seq()).isGreaterThan(recorded.get(i - 1).seq());
    }
    List<AuditEntry> first = access.audit(Long.MAX_VALUE, 3);
    assertThat(first).extracting(AuditEntry::target).containsExactly("flow-6", "flow-5", "flow-4");
    assertThat(first.get(0)).isEqualTo(recorded.get(6));
    List<AuditEntry> second = access.audit(first.get(2).seq(), 3);
    assertThat(second).extracting(AuditEntry::target).containsExactly("flow-3", "flow-2", "flow-1");
    List<AuditEntry> last = access.audit(second.get(2).seq(), 3);
    assertThat(last).extracting(AuditEntry::target).containsExactly("flow-0");
    assertThat(last.get(0).reason()).isEqualTo("release 0");
    assertThat(access.audit(last.get(0).seq(), 3)).isEmpty();
  }

  @Test
  void an_audit_entry_keeps_every_field() {
    AuditEntry entry =
        access.record(
            new AuditEntry(0, T0, "key.revoke", "k-1", "alice", "oidc", "left the team", null));
    assertThat(access.audit(Long.MAX_VALUE, 10)).containsExactly(entry);
    assertThat(entry.at()).isEqualTo(T0);
    assertThat(entry.detail()).isNull();
  }
}

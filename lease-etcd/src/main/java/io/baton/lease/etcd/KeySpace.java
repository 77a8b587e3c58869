package io.baton.lease.etcd;

import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a Baton cluster's keys live under its prefix: {@code <prefix>nodes/<nodeId>} (node info, on
 * the node lease), {@code <prefix>runs/<runId>} (the owner's node id, on the owner's lease) and
 * {@code <prefix>offers/<nodeId>/<runId>} (a run offered to a node, valued with the offering node's
 * id, on the offering node's lease) and {@code <prefix>pending} (the node that last stored runs
 * PENDING for others to claim, on no lease: a hint, see LeaseManager#hintPending). Immutable.
 */
final class KeySpace {
  private final String prefix;
  private final String nodes;
  private final String runs;

  KeySpace(String prefix) {
    this.prefix = prefix;
    this.nodes = prefix + "nodes/";
    this.runs = prefix + "runs/";
  }

  /** Where runs offered to {@code nodeId} are recorded: {@code <prefix>offers/<nodeId>/}. */
  ByteSequence offersPrefix(String nodeId) {
    return bytes(prefix + "offers/" + nodeId + "/");
  }

  ByteSequence offerKey(String nodeId, UUID runId) {
    return bytes(prefix + "offers/" + nodeId + "/" + runId);
  }

  /** The run id an offer key names, or empty when it is not a well-formed offer key. */
  Optional<UUID> offeredRun(String nodeId, ByteSequence key) {
    String text = text(key);
    String start = prefix + "offers/" + nodeId + "/";
    if (!text.startsWith(start)) {
      return Optional.empty();
    }
    try {
      return Optional.of(UUID.fromString(text.substring(start.length())));
    } catch (IllegalArgumentException notARun) {
      return Optional.empty();
    }
  }

  ByteSequence pendingKey() {
    return bytes(prefix + "pending");
  }

  boolean isPendingKey(ByteSequence key) {
    return text(key).equals(prefix + "pending");
  }

  ByteSequence prefix() {
    return bytes(prefix);
  }

  ByteSequence nodesPrefix() {
    return bytes(nodes);
  }

  ByteSequence runsPrefix() {
    return bytes(runs);
  }

  ByteSequence nodeKey(String nodeId) {
    return bytes(nodes + nodeId);
  }

  ByteSequence runKey(UUID runId) {
    return bytes(runs + runId);
  }

  /** The node id a node key names, or empty when the key is not a node key. */
  Optional<String> nodeId(ByteSequence key) {
    String text = text(key);
    return text.startsWith(nodes) ? Optional.of(text.substring(nodes.length())) : Optional.empty();
  }

  /** The run id a run key names, or empty when the key is not a well-formed run key. */
  Optional<UUID> runId(ByteSequence key) {
    String text = text(key);
    if (!text.startsWith(runs)) {
      return Optional.empty();
    }
    try {
      return Optional.of(UUID.fromString(text.substring(runs.length())));
    } catch (IllegalArgumentException notARun) {
      return Optional.empty();
    }
  }

  static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  static String text(ByteSequence bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}

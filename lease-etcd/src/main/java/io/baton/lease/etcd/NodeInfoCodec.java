package io.baton.lease.etcd;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.baton.lease.NodeInfo;
import io.baton.lease.NodeLoad;
import io.etcd.jetcd.ByteSequence;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The node key's value: {@code {"nodeId":..,"address":..,"startedAt":"2026-..Z","version":..,
 * "draining":false,"load":{"activeRuns":..,"stepsPerSecond":..,"accepting":..,"claims":..,
 * "fencedOutWrites":..,"coolingDown":..,"outgoing":{"node-b":..}}}}. Unknown fields are ignored so
 * that newer nodes may add some. Thread-safe.
 */
final class NodeInfoCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private NodeInfoCodec() {}

  static ByteSequence encode(NodeInfo info) {
    ObjectNode json = MAPPER.createObjectNode();
    json.put("nodeId", info.nodeId());
    json.put("address", info.address());
    json.put("startedAt", info.startedAt() == null ? null : info.startedAt().toString());
    json.put("version", info.version());
    json.put("draining", info.draining());
    if (!info.load().equals(NodeLoad.UNKNOWN)) {
      ObjectNode load = json.putObject("load");
      load.put("activeRuns", info.load().activeRuns());
      load.put("stepsPerSecond", info.load().stepsPerSecond());
      load.put("accepting", info.load().accepting());
      load.put("claims", info.load().claims());
      load.put("fencedOutWrites", info.load().fencedOutWrites());
      load.put("coolingDown", info.load().coolingDown());
      ObjectNode outgoing = load.putObject("outgoing");
      info.load().outgoing().forEach(outgoing::put);
    }
    return KeySpace.bytes(json.toString());
  }

  /**
   * Reads a node key's value; {@code nodeId} is the id in the key, which wins over the value's.
   *
   * @throws IllegalArgumentException the value is not node info
   */
  static NodeInfo decode(String nodeId, ByteSequence value) {
    try {
      JsonNode json = MAPPER.readTree(KeySpace.text(value));
      if (json == null || !json.isObject()) {
        throw new IllegalArgumentException("node " + nodeId + ": node info is not a JSON object");
      }
      String startedAt = json.path("startedAt").asText(null);
      return new NodeInfo(
          nodeId,
          json.path("address").asText(""),
          startedAt == null ? null : Instant.parse(startedAt),
          json.path("version").asText(""),
          json.path("draining").asBoolean(false),
          json.has("load")
              ? new NodeLoad(
                  json.path("load").path("activeRuns").asInt(0),
                  json.path("load").path("stepsPerSecond").asDouble(0),
                  json.path("load").path("accepting").asBoolean(false),
                  json.path("load").path("claims").asLong(0),
                  json.path("load").path("fencedOutWrites").asLong(0),
                  json.path("load").path("coolingDown").asInt(0),
                  outgoing(json.path("load").path("outgoing")))
              : NodeLoad.UNKNOWN);
    } catch (JsonProcessingException | DateTimeParseException e) {
      throw new IllegalArgumentException("node " + nodeId + ": unreadable node info", e);
    }
  }

  private static Map<String, Integer> outgoing(JsonNode json) {
    Map<String, Integer> outgoing = new LinkedHashMap<>();
    json.properties().forEach(e -> outgoing.put(e.getKey(), e.getValue().asInt(0)));
    return outgoing;
  }

  /** The address a node key's value announces; empty when it cannot be read. */
  static String address(String nodeId, ByteSequence value) {
    try {
      return decode(nodeId, value).address();
    } catch (IllegalArgumentException unreadable) {
      return "";
    }
  }

  /** Whether a node key's value says draining; false when it cannot be read. */
  static boolean draining(ByteSequence value) {
    try {
      return decode("?", value).draining();
    } catch (IllegalArgumentException unreadable) {
      return false;
    }
  }
}

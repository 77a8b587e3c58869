package io.baton.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.journal.CommandApplied;
import io.baton.journal.JournalEvent;
import io.baton.journal.RunCompleted;
import io.baton.journal.RunCreated;
import io.baton.journal.RunStatusChanged;
import io.baton.journal.RunWaiting;
import io.baton.journal.StepCompleted;
import io.baton.journal.StepFailed;
import io.baton.journal.StepRepeated;
import java.util.Map;

/**
 * About how many bytes an event takes in the journal, without encoding it: a fixed allowance for
 * its envelope and small fields, plus the JSON size of the payloads that can grow (outputs, inputs,
 * wait details, messages). It walks the payload once and encodes nothing, so the engine can count
 * it for every entry it journals (to decide when a checkpoint is due) at no measurable cost.
 * Stateless.
 */
final class EntrySize {
  /** The envelope (ids, seq, timestamp, type, step name, attempt) of any entry. */
  static final int ENVELOPE = 160;

  private EntrySize() {}

  static long of(JournalEvent event) {
    long payload = 0;
    if (event instanceof StepCompleted completed) {
      payload = json(completed.output()) + json(completed.emitted());
    } else if (event instanceof RunCreated created) {
      payload = json(created.input()) + json(created.trigger());
    } else if (event instanceof RunWaiting waiting) {
      payload = json(waiting.detail());
    } else if (event instanceof StepRepeated repeated) {
      payload = json(repeated.output());
    } else if (event instanceof StepFailed failed) {
      payload = text(failed.message());
    } else if (event instanceof RunCompleted done) {
      payload = json(done.output()) + (done.error() == null ? 0 : text(done.error().message()));
    } else if (event instanceof RunStatusChanged changed) {
      payload = text(changed.reason());
    } else if (event instanceof CommandApplied applied) {
      payload = text(applied.reason());
    }
    return ENVELOPE + payload;
  }

  private static long text(String value) {
    return value == null ? 0 : value.length() + 2L;
  }

  /** The length of the value's compact JSON, counting characters, not escapes. */
  static long json(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return 0;
    }
    if (node.isTextual()) {
      return node.textValue().length() + 2L;
    }
    if (node.isObject()) {
      long size = 2;
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        size += field.getKey().length() + 4L + json(field.getValue());
      }
      return size;
    }
    if (node.isArray()) {
      long size = 2;
      for (JsonNode element : node) {
        size += json(element) + 1;
      }
      return size;
    }
    if (node.isNumber()) {
      return 8;
    }
    return node.isBoolean() ? 5 : 4;
  }

  /**
   * At least the number of UTF-8 bytes of the value's compact JSON, found by walking it without
   * encoding: every character may take up to six bytes (an escape), and a number as many as its
   * text. Cheap enough for every step output; a caller encodes only when this bound is over its
   * limit.
   */
  static long jsonUpperBound(JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return 0;
    }
    if (node.isTextual()) {
      return node.textValue().length() * 6L + 2;
    }
    if (node.isObject()) {
      long size = 2;
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        size += field.getKey().length() * 6L + 4 + jsonUpperBound(field.getValue());
      }
      return size;
    }
    if (node.isArray()) {
      long size = 2;
      for (JsonNode element : node) {
        size += jsonUpperBound(element) + 1;
      }
      return size;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return 20;
    }
    if (node.isNumber()) {
      return node.asText().length() + 8L;
    }
    return node.isBoolean() ? 5 : 4;
  }
}

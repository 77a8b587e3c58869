package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a flow's {@code trigger}: {@code {event: TYPE | [TYPE, …], key: "{{ event.… }}"}}. The key
 * template may read only {@code event.*}: it is rendered before the run exists.
 */
final class TriggerReader {
  static final String FIELD = "trigger";
  static final List<String> KEYS = List.of("event", "key");

  private final Report report;
  private final Fields fields;
  private boolean badKey;

  TriggerReader(Report report, Fields fields) {
    this.report = report;
    this.fields = fields;
  }

  /** The trigger, or null when there is none or it is wrong (then reported). */
  EventTrigger read(JsonNode root) {
    JsonNode trigger = Fields.present(root, FIELD);
    if (trigger == null) {
      return null;
    }
    if (!trigger.isObject()) {
      return fields.wrongType(FIELD, FIELD, "a mapping such as {event: order.created}", trigger);
    }
    fields.allowOnly(trigger, FIELD, KEYS, "the trigger");
    List<String> types = types(trigger);
    String key = key(trigger);
    return types == null || types.isEmpty() || types.contains(null) || badKey
        ? null
        : new EventTrigger(types, key);
  }

  private List<String> types(JsonNode trigger) {
    JsonNode event = Fields.present(trigger, "event");
    String path = FieldPaths.key(FIELD, "event");
    if (event == null) {
      fields.missing(FIELD, "event", "a trigger names the event type(s) that start the flow");
      return null;
    }
    List<String> types = new ArrayList<>();
    if (event.isTextual()) {
      types.add(type(event, path));
    } else if (event.isArray() && !event.isEmpty()) {
      for (int i = 0; i < event.size(); i++) {
        types.add(type(event.get(i), FieldPaths.index(path, i)));
      }
    } else {
      return fields.wrongType(
          path, "event", "an event type or a non-empty list of them, such as order.*", event);
    }
    return types;
  }

  private String type(JsonNode value, String path) {
    if (!value.isTextual()) {
      return fields.wrongType(path, "event", "an event type such as order.created", value);
    }
    String type = value.textValue();
    if (!EventTrigger.isValidType(type)) {
      report.atValue(
          path, "'" + type + "' is not a valid event type pattern: " + EventTrigger.TYPE_RULE);
      return null;
    }
    return type;
  }

  /** The key template, or null when absent or reported as wrong (then {@link #badKey} is set). */
  private String key(JsonNode trigger) {
    String path = FieldPaths.key(FIELD, "key");
    JsonNode value = Fields.present(trigger, "key");
    if (value == null) {
      return null;
    }
    if (!value.isTextual() || value.textValue().isBlank()) {
      fields.wrongType(path, "key", "a template such as \"{{ event.data.orderId }}\"", value);
      badKey = true;
      return null;
    }
    try {
      for (TemplatePath expression : Templates.expressions(TextNode.valueOf(value.textValue()))) {
        if (!expression.root().equals("event")) {
          report.atValue(
              path,
              "{{ "
                  + expression.text()
                  + " }}: a trigger key reads only event.* (id, type, source, time, data.…),"
                  + " since it is rendered before the run exists");
          badKey = true;
          return null;
        }
      }
    } catch (TemplateException e) {
      report.atValue(path, "bad template: " + e.getMessage());
      badKey = true;
      return null;
    }
    return value.textValue();
  }
}

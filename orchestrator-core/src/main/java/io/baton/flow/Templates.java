package io.baton.flow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Renders params and outputs. Every string value may hold {@code {{ path }}} expressions (see
 * {@link TemplatePath}); object keys are never rendered. A string that is exactly one expression
 * keeps the value's JSON type (object, array, number, boolean); otherwise values are interpolated
 * as text (objects and arrays as JSON, a missing value or null as nothing). A path that leads
 * nowhere renders as JSON null. Stateless and thread-safe.
 */
public final class Templates {
  private static final String OPEN = "{{";
  private static final String CLOSE = "}}";

  private Templates() {}

  /** Renders every string in the tree; the tree itself is not changed. */
  public static JsonNode render(JsonNode template, TemplateContext context) {
    if (template == null) {
      return NullNode.getInstance();
    }
    if (template.isTextual()) {
      return renderText(template.textValue(), context);
    }
    if (template.isObject()) {
      ObjectNode rendered = JsonNodeFactory.instance.objectNode();
      for (Map.Entry<String, JsonNode> field : template.properties()) {
        rendered.set(field.getKey(), render(field.getValue(), context));
      }
      return rendered;
    }
    if (template.isArray()) {
      ArrayNode rendered = JsonNodeFactory.instance.arrayNode();
      template.forEach(element -> rendered.add(render(element, context)));
      return rendered;
    }
    return template;
  }

  /**
   * Every expression in the tree, parsed; throws {@link TemplateException} on the first bad one.
   */
  public static List<TemplatePath> expressions(JsonNode template) {
    List<TemplatePath> paths = new ArrayList<>();
    collect(template, paths);
    return paths;
  }

  /** Whether the tree holds any expression at all (rendering can then be skipped). */
  public static boolean isStatic(JsonNode template) {
    if (template == null) {
      return true;
    }
    if (template.isTextual()) {
      return !template.textValue().contains(OPEN);
    }
    for (JsonNode child : template) {
      if (!isStatic(child)) {
        return false;
      }
    }
    return true;
  }

  private static void collect(JsonNode node, List<TemplatePath> paths) {
    if (node == null) {
      return;
    }
    if (node.isTextual()) {
      for (Segment segment : split(node.textValue())) {
        if (segment.path() != null) {
          paths.add(segment.path());
        }
      }
      return;
    }
    node.forEach(child -> collect(child, paths));
  }

  private record Segment(String literal, TemplatePath path) {}

  private static List<Segment> split(String text) {
    List<Segment> segments = new ArrayList<>();
    int from = 0;
    while (true) {
      int open = text.indexOf(OPEN, from);
      if (open < 0) {
        segments.add(new Segment(text.substring(from), null));
        return segments;
      }
      int close = text.indexOf(CLOSE, open + OPEN.length());
      if (close < 0) {
        throw new TemplateException("unclosed '{{' in \"" + text + "\"");
      }
      segments.add(new Segment(text.substring(from, open), null));
      segments.add(
          new Segment(null, TemplatePath.parse(text.substring(open + OPEN.length(), close))));
      from = close + CLOSE.length();
    }
  }

  private static JsonNode renderText(String text, TemplateContext context) {
    if (!text.contains(OPEN)) {
      return TextNode.valueOf(text);
    }
    List<Segment> segments = split(text);
    List<Segment> meaningful =
        segments.stream().filter(s -> s.path() != null || !s.literal().isBlank()).toList();
    if (meaningful.size() == 1 && meaningful.get(0).path() != null) {
      return resolve(meaningful.get(0).path(), context);
    }
    StringBuilder rendered = new StringBuilder();
    for (Segment segment : segments) {
      rendered.append(
          segment.path() == null ? segment.literal() : asText(resolve(segment.path(), context)));
    }
    return TextNode.valueOf(rendered.toString());
  }

  private static String asText(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "";
    }
    return value.isValueNode() ? value.asText() : value.toString();
  }

  /** The value a path leads to, or JSON null. */
  public static JsonNode resolve(TemplatePath path, TemplateContext context) {
    JsonNode current = rootValue(path, context);
    int start = path.root().equals("steps") ? 1 : 0;
    if (path.root().equals("run")) {
      return runValue(path, context);
    }
    for (int i = start; i < path.segments().size() && current != null; i++) {
      Object segment = path.segments().get(i);
      current =
          segment instanceof Integer index ? current.get(index) : current.get((String) segment);
    }
    return current == null || current.isMissingNode() ? NullNode.getInstance() : current;
  }

  private static JsonNode rootValue(TemplatePath path, TemplateContext context) {
    return switch (path.root()) {
      case "input" -> context.input();
      case "event" -> context.event();
      case "steps" -> stepsValue(path, context);
      default -> MissingNode.getInstance();
    };
  }

  private static JsonNode stepsValue(TemplatePath path, TemplateContext context) {
    String step = path.stepName();
    JsonNode output = step == null ? null : context.stepOutputs().get(step);
    if (output == null) {
      return MissingNode.getInstance();
    }
    ObjectNode view = JsonNodeFactory.instance.objectNode();
    view.set("output", output);
    return view;
  }

  private static JsonNode runValue(TemplatePath path, TemplateContext context) {
    if (path.segments().size() != 1) {
      return NullNode.getInstance();
    }
    Object field = path.segments().get(0);
    if ("id".equals(field)) {
      return context.runId() == null
          ? NullNode.getInstance()
          : TextNode.valueOf(context.runId().toString());
    }
    if ("attempt".equals(field)) {
      return IntNode.valueOf(context.attempt());
    }
    if ("iteration".equals(field)) {
      return IntNode.valueOf(context.iteration());
    }
    return NullNode.getInstance();
  }
}

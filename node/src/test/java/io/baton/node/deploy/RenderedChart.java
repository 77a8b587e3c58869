package io.baton.node.deploy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What {@code helm template} rendered, read strictly into the fabric8 Kubernetes model: a field the
 * model does not know (a typo, a wrong indent) lands in a model object's additional properties, and
 * {@link #unknownFields()} lists every one of them.
 */
final class RenderedChart {
  private static final Pattern DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---\\s*$");
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
  private static final Map<String, Class<? extends HasMetadata>> KINDS =
      Map.of(
          "ConfigMap", ConfigMap.class,
          "Service", Service.class,
          "ServiceAccount", ServiceAccount.class,
          "StatefulSet", StatefulSet.class,
          "Job", Job.class,
          "PodDisruptionBudget", PodDisruptionBudget.class,
          "NetworkPolicy", NetworkPolicy.class,
          "HorizontalPodAutoscaler", HorizontalPodAutoscaler.class);

  private final String text;
  private final List<HasMetadata> objects = new ArrayList<>();

  RenderedChart(String text) {
    this.text = text;
    for (String document : DOCUMENT_SEPARATOR.split(text)) {
      JsonNode tree = read(document);
      if (tree == null || tree.isNull() || tree.isMissingNode()) {
        continue;
      }
      String kind = tree.path("kind").asText();
      Class<? extends HasMetadata> type = KINDS.getOrDefault(kind, GenericKubernetesResource.class);
      try {
        objects.add(YAML.treeToValue(tree, type));
      } catch (Exception e) {
        throw new AssertionError("cannot read the " + kind + ":\n" + document, e);
      }
    }
  }

  private static JsonNode read(String document) {
    try {
      return YAML.readTree(document);
    } catch (Exception e) {
      throw new AssertionError("not YAML:\n" + document, e);
    }
  }

  String text() {
    return text;
  }

  List<HasMetadata> objects() {
    return objects;
  }

  <T extends HasMetadata> List<T> all(Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  <T extends HasMetadata> T one(Class<T> type) {
    List<T> found = all(type);
    if (found.size() != 1) {
      throw new AssertionError("expected one " + type.getSimpleName() + ", found " + found.size());
    }
    return found.get(0);
  }

  <T extends HasMetadata> Optional<T> optional(Class<T> type) {
    return all(type).stream().findFirst();
  }

  List<GenericKubernetesResource> custom(String kind) {
    return all(GenericKubernetesResource.class).stream()
        .filter(r -> r.getKind().equals(kind))
        .toList();
  }

  /** Paths of every field that the typed model did not know, such as {@code Job.spec.tmplate}. */
  List<String> unknownFields() {
    List<String> unknown = new ArrayList<>();
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (HasMetadata object : objects) {
      if (!(object instanceof GenericKubernetesResource)) {
        walk(object, object.getKind(), unknown, seen);
      }
    }
    return unknown;
  }

  private static void walk(Object value, String path, List<String> unknown, Set<Object> seen) {
    if (value == null || !seen.add(value)) {
      return;
    }
    if (value instanceof Collection<?> items) {
      int i = 0;
      for (Object item : items) {
        walk(item, path + "[" + i++ + "]", unknown, seen);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((key, item) -> walk(item, path + "." + key, unknown, seen));
      return;
    }
    if (!value.getClass().getName().startsWith("io.fabric8.")) {
      return;
    }
    for (Method getter : value.getClass().getMethods()) {
      if (getter.getParameterCount() != 0
          || Modifier.isStatic(getter.getModifiers())
          || !getter.getName().startsWith("get")
          || getter.getDeclaringClass() == Object.class) {
        continue;
      }
      Object field;
      try {
        field = getter.invoke(value);
      } catch (IllegalAccessException | InvocationTargetException e) {
        continue;
      }
      if (getter.getName().equals("getAdditionalProperties")) {
        if (field instanceof Map<?, ?> extra && !extra.isEmpty()) {
          extra.keySet().forEach(key -> unknown.add(path + "." + key));
        }
      } else if (!(field instanceof Map<?, ?> labels && isStringMap(labels))) {
        walk(field, path + "." + fieldName(getter), unknown, seen);
      }
    }
  }

  private static boolean isStringMap(Map<?, ?> map) {
    return map.values().stream().allMatch(v -> v instanceof String);
  }

  private static String fieldName(Method getter) {
    String name = getter.getName().substring(3);
    return Character.toLowerCase(name.charAt(0)) + name.substring(1);
  }
}

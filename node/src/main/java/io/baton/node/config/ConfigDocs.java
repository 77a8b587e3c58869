package io.baton.node.config;

/** Writes docs/configuration.md from the key registry, so the page never drifts from the code. */
public final class ConfigDocs {
  private ConfigDocs() {}

  public static String markdown() {
    StringBuilder page = new StringBuilder();
    page.append("# Configuration\n\n")
        .append(
            "A node reads its configuration in layers, each overriding the one before: the defaults\n")
        .append(
            "below, the mode's defaults (`baton dev` presets an embedded store, a local lease and\n")
        .append(
            "`examples/` flows), the YAML file given with `--config FILE`, the environment, then flags.\n")
        .append(
            "Keys are camelCase; in the file they may be nested (`lease: {ttl: 5s}`) or dotted\n")
        .append("(`lease.ttl: 5s`). Every key has an environment variable (`lease.ttl` →\n")
        .append("`BATON_LEASE_TTL`) and a flag of `baton node` and `baton dev` (`--lease-ttl`).\n")
        .append("Durations carry a unit: `500ms`, `10s`, `5m`, `2h`, `1d`.\n\n")
        .append(
            "An unknown key or a bad value stops the node with a message that names the key and\n")
        .append("where the value came from (the file, the environment variable or the flag).\n\n")
        .append("This page is generated from `ConfigKeys` and checked by a test.\n\n")
        .append("| key | type | default | environment | meaning |\n")
        .append("|---|---|---|---|---|\n");
    for (ConfigKey key : ConfigKeys.all()) {
      String type =
          key.type() == ConfigType.CHOICE
              ? "one of "
                  + String.join(", ", key.choices().stream().map(c -> "`" + c + "`").toList())
              : key.type().description();
      String value =
          key.defaultValue() == null
              ? "—"
              : key.defaultValue().isEmpty() ? "(empty)" : "`" + key.defaultValue() + "`";
      page.append("| `")
          .append(key.name())
          .append("` | ")
          .append(type)
          .append(" | ")
          .append(value)
          .append(" | `")
          .append(key.envName())
          .append("` | ")
          .append(key.meaning())
          .append(" |\n");
    }
    return page.toString();
  }
}

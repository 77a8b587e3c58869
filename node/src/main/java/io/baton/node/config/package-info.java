/**
 * The node's configuration: every key with its type, default and documentation ({@link
 * io.baton.node.config.ConfigKeys}), read in layers (defaults, the mode's presets, the YAML file,
 * {@code BATON_*} environment variables, flags) into a validated {@link
 * io.baton.node.config.NodeConfig}; errors name the key and where its value came from.
 */
package io.baton.node.config;

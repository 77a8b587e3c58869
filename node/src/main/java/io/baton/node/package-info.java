/**
 * The composition root and launcher: {@link io.baton.node.Main} runs the {@code baton} command,
 * {@link io.baton.node.NodeRuntime} opens the configured backends and starts a node with its HTTP
 * API, and {@link io.baton.node.ServerProcess} runs it until a signal stops it.
 */
package io.baton.node;

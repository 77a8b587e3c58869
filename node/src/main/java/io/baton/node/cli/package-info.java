/**
 * The {@code baton} command line. {@link io.baton.node.cli.BatonCli#commandLine} builds it from the
 * server commands the launcher passes in and the client commands here, which talk to a node's HTTP
 * API at {@code --server URL} (default {@code $BATON_SERVER}, else {@code http://127.0.0.1:8080}):
 * {@code flows apply | list | show}, {@code submit FLOW [--wait]}, {@code runs}, {@code run ID
 * [--follow]}, {@code journal ID}, {@code resume}, {@code cancel}, {@code approve}, {@code reject},
 * {@code discard}, {@code emit}, {@code cluster}, {@code version}, {@code keys} and {@code
 * completion bash|zsh}. Every client command prints its result as {@code -o table|json|yaml} asks
 * (one mixin, one renderer: json and yaml are the API's answer); errors go to stderr; exit codes
 * are {@link io.baton.node.cli.ExitCodes}.
 */
package io.baton.node.cli;

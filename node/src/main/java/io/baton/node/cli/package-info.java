/**
 * The {@code baton} command line. {@link io.baton.node.cli.BatonCli#commandLine} builds it from the
 * server commands the launcher passes in and the client commands here, which talk to a node's HTTP
 * API at {@code --server URL} (default {@code $BATON_SERVER}, else {@code http://127.0.0.1:8080}):
 * {@code flows apply FILE}, {@code flows list}, {@code submit FLOW}, {@code runs}, {@code run ID},
 * {@code resume}, {@code cancel}, {@code approve}, {@code reject}, {@code cluster}, {@code
 * version}. Output goes to stdout, errors to stderr; exit codes are {@link
 * io.baton.node.cli.ExitCodes}.
 */
package io.baton.node.cli;

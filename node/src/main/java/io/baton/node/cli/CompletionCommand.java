package io.baton.node.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton completion bash|zsh}: a completion script for every command and option. Load it with
 * {@code source <(baton completion bash)} (or {@code zsh}).
 */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = "Print a shell completion script: source <(baton completion bash).")
final class CompletionCommand implements Runnable {
  /** The shells the script is for. */
  enum Shell {
    BASH,
    ZSH
  }

  @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
  Shell shell;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    // One script for both shells: under zsh it loads zsh's bash-completion emulation itself, and
    // runs compinit only when the shell has not (a second compinit drops the completions the user
    // registered since the first).
    String script = AutoComplete.bash("baton", spec.root().commandLine());
    spec.commandLine().getOut().print(script);
    spec.commandLine().getOut().flush();
  }
}

package io.baton.node.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton completion bash|zsh}: a completion script for every command and option. Load it with
 * {@code source <(baton completion bash)}.
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
    String script = AutoComplete.bash("baton", spec.root().commandLine());
    if (shell == Shell.ZSH) {
      // zsh runs the bash script through its bash completion emulation.
      script =
          "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n"
              + script;
    }
    spec.commandLine().getOut().print(script);
    spec.commandLine().getOut().flush();
  }
}

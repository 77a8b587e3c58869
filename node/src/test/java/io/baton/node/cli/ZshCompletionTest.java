package io.baton.node.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code baton completion zsh} in a real zsh ({@code deploy/test.sh} installs it): the script
 * loads, registers a completer for {@code baton} in zsh's completion system ({@code _comps}), and
 * that completer offers what a person sees after pressing Tab. zsh's {@code compadd} works only
 * inside a completion widget, so the check stands in for it with a function that prints the
 * candidates matching the word being completed, as {@code compadd} shows them; everything else (the
 * registration, zsh's bash-completion emulation, the script's own logic) is zsh's.
 */
class ZshCompletionTest {
  private static final String CHECK =
      """
      if [[ $2 == after-compinit ]]; then
        autoload -U compinit && compinit -u
        compdef _files other-tool
      fi
      source "$1" || exit 3
      print -r -- "registered: ${_comps[baton]}"
      print -r -- "other-tool: ${_comps[other-tool]}"
      compadd() {
        while (( $# )) && [[ $1 != - ]]; do shift; done
        (( $# )) && shift
        local candidate
        for candidate in "$@"; do
          [[ -n $candidate && $candidate == ${PREFIX}* ]] && print -r -- "$candidate"
        done
        return 0
      }
      compset() { return 1; }
      _default() { return 1; }
      complete_line() {
        local -a words
        local CURRENT PREFIX IPREFIX QIPREFIX
        words=("$@"); CURRENT=$#; PREFIX=${words[CURRENT]}; IPREFIX=''; QIPREFIX=''
        eval "${_comps[baton]}"
      }
      print -r -- "formats: ${(j: :)${(f)$(complete_line baton runs -o '')}}"
      print -r -- "commands: ${(j: :)${(f)$(complete_line baton ru)}}"
      print -r -- "options: ${(j: :)${(f)$(complete_line baton run x --fo)}}"
      """;

  /** A ~/.zshrc that sources the script and never ran compinit. */
  @Test
  void in_a_fresh_zsh_the_script_registers_baton_and_completes_commands_options_and_formats()
      throws Exception {
    assertThat(zshCompletes("fresh")).contains("other-tool: ");
  }

  /**
   * A ~/.zshrc that ran compinit and registered completions of its own: loading the script keeps
   * them (a second compinit would drop them).
   */
  @Test
  void after_compinit_the_script_completes_baton_and_keeps_the_users_other_completions()
      throws Exception {
    assertThat(zshCompletes("after-compinit")).contains("other-tool: _files");
  }

  /** What the check prints, once it asserted that baton's completions work in that shell. */
  private static List<String> zshCompletes(String mode) throws Exception {
    Optional<Path> zsh = onPath("zsh");
    assumeTrue(
        zsh.isPresent(),
        "zsh is not installed, so the zsh completion script is not checked in a real zsh"
            + " (deploy/test.sh installs it: apt-get install zsh)");
    CliResult completion = CliRunner.raw("completion", "zsh");
    assertThat(completion.exitCode()).as("%s", completion).isZero();
    Path script = Files.writeString(Files.createTempFile("baton", ".zsh"), completion.out());
    Path check = Files.writeString(Files.createTempFile("baton-check", ".zsh"), CHECK);
    try {
      Process process =
          new ProcessBuilder(zsh.get().toString(), "-f", check.toString(), script.toString(), mode)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as("out: %s%nerr: %s", out, err).isZero();
      List<String> lines = out.lines().toList();
      assertThat(lines)
          .as("stderr: %s", err)
          .contains(
              "registered: _bash_complete -F _complete_baton -o default",
              "formats: table json yaml",
              "commands: runs run",
              "options: --follow");
      assertThat(err).isEmpty();
      return lines;
    } finally {
      Files.delete(script);
      Files.delete(check);
    }
  }

  private static Optional<Path> onPath(String program) {
    String path = System.getenv().getOrDefault("PATH", "");
    return Arrays.stream(path.split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty())
        .map(dir -> Path.of(dir, program))
        .filter(Files::isExecutable)
        .findFirst();
  }
}

package io.baton.node.chaos;

/**
 * {@code deploy/chaos.sh [--seed N] [--duration 2m] [--nodes 3] [--rate 4]}: one chaos run on real
 * processes; prints the report and exits 0 when the verdict is clean, 1 on any violation, 2 on bad
 * options.
 */
public final class ChaosMain {
  private ChaosMain() {}

  public static void main(String[] args) throws Exception {
    ChaosOptions options;
    try {
      options = ChaosOptions.parse(args);
    } catch (IllegalArgumentException bad) {
      System.err.println("chaos: " + bad.getMessage());
      System.exit(2);
      return;
    }
    System.out.println("chaos: starting; replay with " + options.command());
    ChaosReport report = ChaosRun.run(options).report();
    System.out.print(report.format());
    System.exit(report.verdict().clean() ? 0 : 1);
  }
}

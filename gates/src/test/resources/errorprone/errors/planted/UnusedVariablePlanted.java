package planted;

/** Planted for Error Prone's UnusedVariable: a local that is never read. */
public final class UnusedVariablePlanted {
  public int answer() {
    int forgotten = 41;
    return 42;
  }
}

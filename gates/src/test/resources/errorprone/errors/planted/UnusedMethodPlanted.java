package planted;

/** Planted for Error Prone's UnusedMethod: a private method nobody calls. */
public final class UnusedMethodPlanted {
  private int forgotten() {
    return 41;
  }

  public int answer() {
    return 42;
  }
}

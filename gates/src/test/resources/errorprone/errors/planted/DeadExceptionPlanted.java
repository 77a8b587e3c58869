package planted;

/** Planted for one of Error Prone's default errors, DeadException: an exception never thrown. */
public final class DeadExceptionPlanted {
  public void check(int value) {
    if (value < 0) {
      new IllegalArgumentException("negative");
    }
  }
}

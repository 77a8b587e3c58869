package planted;

/** Planted for Error Prone's UnnecessarilyFullyQualified: a name spelled out inline. */
public final class FullyQualifiedPlanted {
  public java.util.List<String> names() {
    return java.util.List.of("a", "b");
  }
}

package planted;

/** Planted for an Error Prone warning (StringCaseLocaleUsage), which -Werror makes fatal. */
public final class LocaleWarningPlanted {
  public String key(String name) {
    return name.toLowerCase();
  }
}

package planted;

import java.util.ArrayList;
import java.util.List;

/** Planted for a javac lint warning (rawtypes), which -Werror makes fatal. */
public final class RawTypePlanted {
  public int size() {
    List raw = new ArrayList<String>();
    return raw.size();
  }
}

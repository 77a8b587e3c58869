package io.baton.node.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The whole memory of the renderer process that draws one tab of the headless Chromium started on
 * {@code profile}, read from Linux's {@code /proc}: its proportional set size (PSS: its private
 * pages, and its share of the pages it shares with the browser's other processes) and resident set
 * size. The browser has several renderers (a spare one, its own pages'); the tab's is the one whose
 * CPU time grows while the tab runs a busy loop ({@code busyTab}), so nothing is guessed from
 * sizes. Not thread-safe.
 */
final class TabMemory {
  /** A renderer whose CPU time grew by less than this (clock ticks) was not the busy one. */
  private static final long MIN_BUSY_TICKS = 10;

  /** One renderer process's memory, in megabytes (10^6 bytes). */
  record Renderer(long pid, double pssMegabytes, double rssMegabytes) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT, "pid %d: PSS %.1f MB, RSS %.1f MB", pid, pssMegabytes, rssMegabytes);
    }
  }

  /** The tab's renderer, or null when none was found busy; and every renderer of the browser. */
  record Reading(Renderer tab, List<Renderer> renderers) {}

  private TabMemory() {}

  /** Reads the renderers' memory; {@code busyTab} keeps the tab's renderer busy for a moment. */
  static Reading read(Path profile, Runnable busyTab) throws IOException {
    List<Long> renderers = renderers(profile);
    Map<Long, Long> before = cpuTicks(renderers);
    busyTab.run();
    Map<Long, Long> after = cpuTicks(renderers);
    Long busiest = null;
    long most = MIN_BUSY_TICKS - 1;
    for (long pid : renderers) {
      long grew = after.getOrDefault(pid, 0L) - before.getOrDefault(pid, 0L);
      if (grew > most) {
        most = grew;
        busiest = pid;
      }
    }
    List<Renderer> all = new ArrayList<>();
    Renderer tab = null;
    for (long pid : renderers) {
      Renderer renderer = memory(pid);
      if (renderer != null) {
        all.add(renderer);
        if (busiest != null && pid == busiest) {
          tab = renderer;
        }
      }
    }
    return new Reading(tab, all);
  }

  /** The renderer processes of the browser on {@code profile} (its children carry the profile). */
  private static List<Long> renderers(Path profile) throws IOException {
    String userDataDir = "--user-data-dir=" + profile;
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      for (Path process : (Iterable<Path>) processes::iterator) {
        String name = process.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        List<String> arguments = arguments(process);
        if (arguments.contains("--type=renderer") && arguments.contains(userDataDir)) {
          pids.add(Long.parseLong(name));
        }
      }
    }
    return pids;
  }

  /** A process's arguments; Chromium's children rewrite theirs as one line, split at spaces. */
  private static List<String> arguments(Path process) {
    try {
      return List.of(Files.readString(process.resolve("cmdline")).split("[\0 ]"));
    } catch (IOException | SecurityException gone) {
      return List.of(); // ended meanwhile, or not ours
    }
  }

  /** User and system CPU time of each process, in clock ticks (fields 14 and 15 of its stat). */
  private static Map<Long, Long> cpuTicks(List<Long> pids) {
    Map<Long, Long> ticks = new HashMap<>();
    for (long pid : pids) {
      try {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // after the command's name in parentheses: state is field 3, utime 14, stime 15
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        ticks.put(pid, Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
      } catch (IOException gone) {
        // the process ended: it is not the tab's
      }
    }
    return ticks;
  }

  private static Renderer memory(long pid) {
    try {
      long pss = 0;
      long rss = 0;
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps_rollup"))) {
        if (line.startsWith("Pss:")) {
          pss = kilobytes(line);
        } else if (line.startsWith("Rss:")) {
          rss = kilobytes(line);
        }
      }
      return new Renderer(pid, pss * 1024 / 1e6, rss * 1024 / 1e6);
    } catch (IOException gone) {
      return null;
    }
  }

  private static long kilobytes(String line) {
    String[] parts = line.trim().split("\\s+");
    return Long.parseLong(parts[1]);
  }
}

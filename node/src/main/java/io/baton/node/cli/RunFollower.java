package io.baton.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.node.cli.ServerEvents.Kind;
import io.baton.node.cli.ServerEvents.ServerEvent;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Follows a run until it ends ({@code baton run --follow}): hands over its journal entries, oldest
 * first and each once, as they are written, and returns the run at its end.
 *
 * <p>The cluster-wide stream of run changes ({@code GET /api/v1/stream/runs?root=}, the run's tree)
 * says when the run was claimed, changed status or ended, whichever node did it; the journal API
 * ({@code GET /api/v1/runs/{id}/journal?after=}) says what was written. A step's completion does
 * not touch the run's row (so that appends stay HOT updates), so the stream is silent while a run
 * moves from step to step: the journal's tail is read again every {@link #TAIL_INTERVAL} too. Once
 * the stream is open (its {@code connected} comment) the run and the journal are read again, so a
 * change made while it opened is not missed. A stream the server ends is opened again with {@code
 * Last-Event-ID}; {@link #MAX_RECONNECTS} ends in a row without an event is a failure. An ended run
 * is printed without opening the stream.
 */
final class RunFollower {
  static final Duration TAIL_INTERVAL = Duration.ofSeconds(1);
  static final int JOURNAL_PAGE = 1000;
  static final int MAX_RECONNECTS = 5;
  private static final String CONNECTED = "connected";

  private final BatonClient client;
  private final UUID runId;
  private final Clock clock;
  private final Consumer<JsonNode> entries;
  private long after;
  private Instant journalRead = Instant.MIN;
  private String lastEventId;

  RunFollower(BatonClient client, UUID runId, Clock clock, Consumer<JsonNode> entries) {
    this.client = client;
    this.runId = runId;
    this.clock = clock;
    this.entries = entries;
  }

  /** Hands over every entry up to the run's end and returns the ended run (as the API shows it). */
  JsonNode follow() {
    JsonNode run = run();
    readJournal();
    if (RunEnd.ended(run)) {
      return run;
    }
    String stream =
        "/api/v1/stream/runs?root="
            + URLEncoder.encode(
                run.path("rootRunId").asText(runId.toString()), StandardCharsets.UTF_8);
    int quietEnds = 0;
    while (true) {
      try (ServerEvents events = client.events(stream, lastEventId)) {
        for (ServerEvent event = nextOf(events); event.kind() != Kind.END; event = nextOf(events)) {
          JsonNode ended = handle(event);
          if (ended != null) {
            return ended;
          }
          if (event.kind() == Kind.EVENT) {
            quietEnds = 0;
          }
        }
      }
      if (++quietEnds >= MAX_RECONNECTS) {
        throw new CommandFailedException(
            ExitCodes.ERROR,
            "The server ended the event stream "
                + quietEnds
                + " times without news of run "
                + runId
                + "; gave up following it");
      }
    }
  }

  /** The stream's next event or comment, reading the journal's tail whenever it is due. */
  private ServerEvent nextOf(ServerEvents events) {
    while (true) {
      Instant due = journalRead.plus(TAIL_INTERVAL);
      Instant now = clock.instant();
      if (!now.isBefore(due)) {
        readJournal();
        continue;
      }
      ServerEvent event = events.next(Duration.between(now, due));
      if (event != null) {
        return event;
      }
    }
  }

  /** The ended run when {@code event} shows the end, else null. */
  private JsonNode handle(ServerEvent event) {
    if (event.kind() == Kind.COMMENT) {
      return CONNECTED.equals(event.data()) ? catchUp() : null;
    }
    if (event.id() != null) {
      lastEventId = event.id();
    }
    if ("run".equals(event.name())) {
      // The entries of a change commit with the run's row: once the event shows the end, the
      // journal read after it holds the last entry.
      JsonNode changed = ApiResponse.parse(event.data());
      readJournal();
      return runId.toString().equals(changed.path("id").asText()) && RunEnd.ended(changed)
          ? changed
          : null;
    }
    return catchUp(); // "reload": more changed than the server replays
  }

  /** Reads the run, then the journal: if the run had ended, the journal read holds its end. */
  private JsonNode catchUp() {
    JsonNode current = run();
    readJournal();
    return RunEnd.ended(current) ? current : null;
  }

  private JsonNode run() {
    ApiResponse response = client.get("/api/v1/runs/" + runId);
    if (response.status() == 404) {
      throw new CommandFailedException(ExitCodes.NOT_FOUND, "Run " + runId + " not found");
    }
    return Failures.check(response).json();
  }

  /** Hands over the entries written since the last read, page by page. */
  private void readJournal() {
    journalRead = clock.instant();
    while (true) {
      JsonNode page =
          Failures.check(
                  client.get(
                      "/api/v1/runs/"
                          + runId
                          + "/journal?limit="
                          + JOURNAL_PAGE
                          + "&after="
                          + after))
              .json();
      for (JsonNode entry : page.path("entries")) {
        entries.accept(entry);
        after = Math.max(after, entry.path("seq").asLong());
      }
      JsonNode next = page.path("next");
      if (!next.isNumber()) {
        return;
      }
      after = Math.max(after, next.asLong());
    }
  }
}

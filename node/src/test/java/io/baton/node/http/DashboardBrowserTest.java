package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.baton.engine.EngineMetrics;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The dashboard as a person uses it, in real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}; {@code deploy/test.sh} installs them) against real nodes: filter the
 * runs, open a recoverable failed run, resume it and watch it succeed without a reload; retry a
 * step in back-off now; approve a waiting run; see two nodes on the cluster page and, after one
 * stops, the ownership history of the run it handed off. Screenshots of every page at 1280×800 and
 * at a phone's width go to {@code target/screenshots/}.
 */
class DashboardBrowserTest extends ApiTestBase {
  private static final Path SCREENSHOTS = Paths.get("target", "screenshots");
  private static final Dimension WIDE = new Dimension(1280, 800);
  private static final Dimension PHONE = new Dimension(390, 844);

  private HeadlessChromium chromium;
  private WebDriver browser;

  @BeforeAll
  void openBrowser() throws IOException {
    chromium = HeadlessChromium.start(TIMEOUT);
    browser = chromium.driver();
    browser.manage().window().setSize(WIDE);
    Files.createDirectories(SCREENSHOTS);
  }

  @AfterAll
  void closeBrowser() throws IOException {
    if (chromium != null) {
      chromium.close();
    }
  }

  private void open(TestNode target, String hash) {
    browser.get(target.uri() + "/" + hash);
  }

  private void awaitText(By selector, String text) {
    chromium.waiting().until(ExpectedConditions.textToBePresentInElementLocated(selector, text));
  }

  /** This page at 1280×800 and at a phone's width, into target/screenshots. */
  private void screenshots(String page) throws IOException {
    for (Dimension size : new Dimension[] {WIDE, PHONE}) {
      browser.manage().window().setSize(size);
      File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
      Path target = SCREENSHOTS.resolve(page + "-" + size.getWidth() + ".png");
      Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
      assertThat(Files.size(target)).isPositive();
    }
    browser.manage().window().setSize(WIDE);
  }

  @Test
  void filter_the_runs_open_a_recoverable_failure_resume_it_and_see_it_succeed_live()
      throws Exception {
    String toggled = uniqueName("toggled");
    String switchName = uniqueName("switch");
    applyFlow(TestFlows.toggled(toggled, switchName));
    String quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
    UUID done = submit(quick, "{\"value\": 1}");
    UUID failed = submit(toggled);
    awaitStatus(failed, "FAILED");
    awaitStatus(done, "SUCCEEDED");

    open(node, "#/runs");
    chromium.await(By.id("run-" + failed));
    chromium.await(By.id("run-" + done));
    screenshots("runs");

    browser.findElement(By.cssSelector("input[name=status][value=FAILED]")).click();
    new Select(browser.findElement(By.name("flow"))).selectByVisibleText(toggled);
    browser.findElement(By.id("apply-filters")).click();
    chromium
        .waiting()
        .until(
            d ->
                d.getCurrentUrl().contains("status=FAILED")
                    && d.findElements(By.id("run-" + done)).isEmpty()
                    && d.findElements(By.cssSelector("#runs-body tr.run-row")).size() == 1
                    && !d.findElements(By.id("run-" + failed)).isEmpty());

    browser.findElement(By.id("run-" + failed)).click();
    WebElement resume = chromium.await(By.id("cmd-resume"));
    chromium.waiting().until(ExpectedConditions.elementToBeClickable(resume));
    assertThat(browser.findElement(By.id("cmd-approve")).isEnabled()).isFalse();
    assertThat(browser.findElement(By.id("cmd-approve")).getAttribute("title"))
        .isEqualTo("No step is waiting for an approval");
    screenshots("run-failed");

    ((JavascriptExecutor) browser).executeScript("window.notReloaded = true;");
    steps.switchOn(switchName);
    browser.findElement(By.id("reason")).sendKeys("the switch is on again");
    browser.findElement(By.id("cmd-resume")).click();
    awaitText(By.id("run-status"), "SUCCEEDED");
    awaitText(By.cssSelector("#commands tr[data-command=resume]"), "the switch is on again");
    assertThat(((JavascriptExecutor) browser).executeScript("return window.notReloaded === true"))
        .as("the page updated itself, it was not reloaded")
        .isEqualTo(true);
    assertThat(browser.findElement(By.id("cmd-resume")).isEnabled()).isFalse();
  }

  @Test
  void retry_now_a_step_in_back_off_and_see_its_next_attempt_succeed_live() throws Exception {
    String backingOff = uniqueName("backing-off");
    String switchName = uniqueName("switch");
    applyFlow(TestFlows.backingOff(backingOff, switchName));
    UUID runId = submit(backingOff);
    awaitStepStatus(runId, "flaky", "RETRY_WAIT");

    open(node, "#/run/" + runId);
    WebElement retryNow =
        chromium.waiting().until(ExpectedConditions.elementToBeClickable(By.id("retry-now-flaky")));
    WebElement first = browser.findElement(By.id("retry-now-first"));
    assertThat(first.isEnabled()).isFalse();
    assertThat(first.getAttribute("title"))
        .isEqualTo("Only a step waiting to retry a failed attempt can be retried now");
    screenshots("run-back-off");
    By backingOffFor = By.cssSelector("#steps tr[data-step=flaky] td.duration");
    String sofar = browser.findElement(backingOffFor).getText();
    assertThat(sofar).as("a step not finished").matches("[0-9.]+ (ms|s) so far, retry wait");
    chromium
        .waiting()
        .until(d -> !d.findElement(backingOffFor).getText().equals(sofar)); // it grows, live

    ((JavascriptExecutor) browser).executeScript("window.notReloaded = true;");
    steps.switchOn(switchName);
    browser.findElement(By.id("reason")).sendKeys("the switch is on now");
    // off the corner where an earlier test's message may still show
    ((JavascriptExecutor) browser)
        .executeScript("arguments[0].scrollIntoView({block: 'center'});", retryNow);
    retryNow.click();
    awaitText(By.id("run-status"), "SUCCEEDED");
    awaitText(By.cssSelector("#commands tr[data-command=retry-now]"), "the switch is on now");
    assertThat(((JavascriptExecutor) browser).executeScript("return window.notReloaded === true"))
        .as("the page updated itself, it was not reloaded")
        .isEqualTo(true);
    assertThat(browser.findElement(By.id("retry-now-flaky")).isEnabled()).isFalse();
  }

  @Test
  void approve_a_waiting_run_from_its_page() throws Exception {
    String approval = uniqueName("approval");
    applyFlow(TestFlows.approval(approval));
    UUID runId = submit(approval, "{\"orderId\": \"o-7\"}");
    awaitApprovalRequested(runId, "ask");

    open(node, "#/run/" + runId);
    // the page may have read the run just before it parked: its stream then shows it again
    awaitText(By.id("run-status"), "WAITING");
    WebElement approve =
        chromium.waiting().until(ExpectedConditions.elementToBeClickable(By.id("cmd-approve")));
    chromium.await(By.cssSelector("svg.dag g[data-step=ask]"));
    screenshots("run-waiting");
    browser.findElement(By.id("reason")).sendKeys("looks right");
    approve.click();
    awaitText(By.id("run-status"), "SUCCEEDED");
    assertThat(status(runId)).isEqualTo("SUCCEEDED");
  }

  @Test
  void filter_the_runs_by_what_they_wait_for_and_see_the_wait_on_the_row() throws Exception {
    String approval = uniqueName("approval");
    applyFlow(TestFlows.approval(approval));
    UUID asking = submit(approval, "{\"orderId\": \"o-9\"}");
    UUID other = submit(approval, "{\"orderId\": \"o-10\"}");
    awaitApprovalRequested(asking, "ask");
    awaitApprovalRequested(other, "ask");
    http.post("/api/v1/runs/" + other + "/approve", "{}");
    awaitStatus(other, "SUCCEEDED");

    open(node, "#/runs");
    chromium.await(By.id("run-" + asking));
    new Select(browser.findElement(By.name("state"))).selectByVisibleText("waiting-approval");
    new Select(browser.findElement(By.name("flow"))).selectByVisibleText(approval);
    browser.findElement(By.id("apply-filters")).click();
    chromium
        .waiting()
        .until(
            d ->
                d.getCurrentUrl().contains("state=waiting-approval")
                    && d.findElements(By.id("run-" + other)).isEmpty()
                    && d.findElements(By.cssSelector("#runs-body tr.run-row")).size() == 1);
    WebElement row = browser.findElement(By.id("run-" + asking));
    assertThat(row.findElement(By.cssSelector(".badge.state")).getText())
        .isEqualTo("waiting-approval");
    assertThat(row.findElement(By.cssSelector(".wait-detail")).getText()).isEqualTo("ask");
    screenshots("runs-waiting");
  }

  @Test
  void filter_the_runs_by_their_root_run_and_by_what_their_output_contains() throws Exception {
    String quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
    UUID one = submit(quick, "{\"value\": 1}");
    UUID two = submit(quick, "{\"value\": 2}");
    awaitStatus(one, "SUCCEEDED");
    String output = awaitStatus(two, "SUCCEEDED").get("output").toString();
    open(node, "#/runs?flow=" + quick);
    chromium.await(By.id("run-" + one));
    chromium.await(By.id("run-" + two));

    browser.findElement(By.name("root")).sendKeys(one.toString());
    browser.findElement(By.id("apply-filters")).click();
    awaitOnlyRow("root=" + one, one);

    browser.findElement(By.name("root")).clear();
    browser.findElement(By.name("output")).sendKeys(output);
    browser.findElement(By.id("apply-filters")).click();
    awaitOnlyRow("output=", two);

    browser.findElement(By.name("output")).clear();
    browser.findElement(By.name("inputPath")).sendKeys("$.value < 2");
    browser.findElement(By.id("apply-filters")).click();
    awaitOnlyRow("inputPath=", one);

    browser.findElement(By.name("inputPath")).clear();
    browser.findElement(By.name("inputPath")).sendKeys("$.value <> 2");
    browser.findElement(By.id("apply-filters")).click();
    awaitText(By.id("runs-body"), "inputPath is not a JSON path predicate");
    assertThat(browser.findElement(By.id("runs-body")).getText()).contains("at position 10");
  }

  private void awaitOnlyRow(String inAddress, UUID runId) {
    chromium
        .waiting()
        .until(
            d ->
                d.getCurrentUrl().contains(inAddress)
                    && d.findElements(By.cssSelector("#runs-body tr.run-row")).size() == 1
                    && !d.findElements(By.id("run-" + runId)).isEmpty());
  }

  @Test
  void a_conflict_that_still_happens_shows_the_apis_message() throws Exception {
    String approval = uniqueName("approval");
    applyFlow(TestFlows.approval(approval));
    UUID runId = submit(approval, "{\"orderId\": \"o-8\"}");
    awaitApprovalRequested(runId, "ask");
    open(node, "#/run/" + runId);
    WebElement cancel = chromium.await(By.id("cmd-cancel"));
    chromium.waiting().until(ExpectedConditions.elementToBeClickable(cancel));
    closeStreamOfPage(); // the page stays as it is: it will not learn of the cancel below

    http.post("/api/v1/runs/" + runId + "/cancel", "{}"); // someone else was faster
    awaitStatus(runId, "CANCELLED");
    cancel.click();

    WebElement toast = chromium.await(By.id("toast"));
    assertThat(toast.getText()).contains("Run " + runId).contains("CANCELLED");
    awaitText(By.id("run-status"), "CANCELLED");
    assertThat(browser.findElement(By.id("cmd-approve")).isEnabled())
        .as("a cancelled run's approval step cannot be answered any more")
        .isFalse();
    screenshots("run-conflict");
  }

  private void closeStreamOfPage() {
    ((JavascriptExecutor) browser).executeScript("closeStream();");
  }

  @Test
  void the_cluster_page_shows_two_nodes_and_a_handed_off_run_shows_its_ownership_history()
      throws Exception {
    String held = uniqueName("held");
    applyFlow(TestFlows.held(held));
    TestNode other = startNode(nodeId("b"));
    Reply submitted = other.calls().post("/api/v1/runs", "{\"flow\": \"" + held + "\"}");
    UUID runId = UUID.fromString(submitted.json().get("id").asText());
    Awaitility.await().atMost(TIMEOUT).until(() -> steps.holding(runId));

    // what an operator reads in a failure: the peer wrote after losing runs
    other.metrics().counter(EngineMetrics.JOURNAL_FENCED_OUT).inc(2);
    assertThat(other.calls().post("/api/v1/cluster/rebalance?dryRun=false", "").status())
        .isEqualTo(200);

    open(node, "#/cluster");
    chromium.await(By.cssSelector("#nodes tr[data-node='" + other.nodeId() + "']"));
    chromium.await(By.cssSelector("#nodes tr[data-node='" + node.nodeId() + "']"));
    assertThat(browser.findElements(By.cssSelector("#nodes tbody tr"))).hasSize(2);
    for (TestNode each : List.of(node, other)) {
      String row = "#nodes tr[data-node='" + each.nodeId() + "'] ";
      assertThat(browser.findElement(By.cssSelector(row + ".lease-ends")).getText())
          .as("the lease of %s", each.nodeId())
          .matches("in \\d+\\.\\d s");
      assertThat(browser.findElement(By.cssSelector(row + ".claims")).getText()).matches("\\d+");
    }
    WebElement fenced =
        browser.findElement(
            By.cssSelector("#nodes tr[data-node='" + other.nodeId() + "'] .fenced-out"));
    assertThat(fenced.getText()).isEqualTo("2");
    assertThat(fenced.getAttribute("class")).contains("error");
    assertThat(
            browser
                .findElement(
                    By.cssSelector("#nodes tr[data-node='" + node.nodeId() + "'] .fenced-out"))
                .getText())
        .isEqualTo("0");
    screenshots("cluster");

    other.close(); // drains, then hands its runs over as SIGTERM does
    Awaitility.await().atMost(TIMEOUT).until(() -> run(runId).get("ownership").size() >= 2);
    open(node, "#/run/" + runId);
    chromium.await(By.id("ownership"));
    chromium
        .waiting()
        .until(d -> d.findElements(By.cssSelector("#ownership tbody tr")).size() >= 2);
    String history = browser.findElement(By.id("ownership")).getText();
    assertThat(history).contains(other.nodeId()).contains(node.nodeId());
    screenshots("run-handed-off");
    steps.release(runId);
  }

  /**
   * Prints how long a change committed on one node takes to show on a page open on another: for
   * each run, from the moment its SUCCEEDED was stamped (its {@code updatedAt}) to the moment its
   * row showed SUCCEEDED in the browser (same machine, same clock). Asserts only that every change
   * arrives.
   */
  @Test
  void changes_committed_on_another_node_appear_on_an_open_page() throws Exception {
    String quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
    TestNode viewer = startNode(nodeId("c"));
    open(viewer, "#/runs?flow=" + quick);
    chromium.await(By.id("runs"));
    chromium.waiting().until(d -> d.findElement(By.id("live")).getText().equals("live"));
    ((JavascriptExecutor) browser)
        .executeScript(
            """
            window.shownAt = {};
            new MutationObserver(() => {
              document.querySelectorAll('#runs-body tr[data-status=SUCCEEDED]').forEach((row) => {
                if (!window.shownAt[row.id]) window.shownAt[row.id] = Date.now();
              });
            }).observe(document.getElementById('runs-body'), {childList: true, subtree: true});
            """);
    int runs = 20;
    List<UUID> submitted = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      UUID runId = submit(quick);
      submitted.add(runId);
      // spread the changes out, as a person's cluster would: one run finishes before the next
      awaitStatus(runId, "SUCCEEDED");
    }
    double[] latencies = new double[runs];
    for (int i = 0; i < runs; i++) {
      UUID runId = submitted.get(i);
      Instant committed = Instant.parse(awaitStatus(runId, "SUCCEEDED").get("updatedAt").asText());
      Object shown =
          chromium
              .waiting()
              .until(
                  d ->
                      ((JavascriptExecutor) d)
                          .executeScript("return window.shownAt['run-" + runId + "'] || null"));
      latencies[i] = ((Number) shown).longValue() - committed.toEpochMilli();
    }
    Arrays.sort(latencies);
    System.out.printf(
        "dashboard: a change committed on node %s shown on a page of node %s after"
            + " p50 %.0f ms, p95 %.0f ms, max %.0f ms (%d runs)%n",
        node.nodeId(),
        viewer.nodeId(),
        latencies[runs / 2],
        latencies[(int) Math.ceil(runs * 0.95) - 1],
        latencies[runs - 1],
        runs);
    viewer.close();
  }

  /**
   * A page the person leaves stays in the browser's back/forward cache; with its run stream open it
   * would hold one of the six connections HTTP/1.1 allows per host, and fresh loads would wait for
   * one. Left, the page closes its stream; come back to, it shows what changed meanwhile (replayed
   * from its last event's id) and updates live again, without a reload (the same document, restored
   * from the cache).
   */
  @Test
  void a_page_left_closes_its_run_stream_and_come_back_to_catches_up_and_updates_live()
      throws Exception {
    leaveAndComeBack(true);
  }

  /** As above, for a page whose stream had no event yet: it is shown afresh when come back to. */
  @Test
  void a_page_left_before_any_change_closes_its_stream_and_come_back_to_shows_changes()
      throws Exception {
    leaveAndComeBack(false);
  }

  private void leaveAndComeBack(boolean changeSeenFirst) throws Exception {
    String quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
    open(node, "#/runs?flow=" + quick);
    chromium.await(By.id("runs"));
    chromium.waiting().until(d -> d.findElement(By.id("live")).getText().equals("live"));
    Awaitility.await().atMost(TIMEOUT).until(() -> node.api().runFeedSubscribers() == 1);
    if (changeSeenFirst) {
      UUID seen = submit(quick);
      chromium.await(By.cssSelector("#run-" + seen + "[data-status=SUCCEEDED]"));
    }
    chromium.script("window.notReloaded = true;");

    browser.get(node.uri() + "/api/v1/version"); // another document of the same node
    Awaitility.await()
        .atMost(TIMEOUT)
        .untilAsserted(
            () ->
                assertThat(node.api().runFeedSubscribers())
                    .as("run streams open after the page was left")
                    .isZero());
    UUID whileAway = submit(quick);
    awaitStatus(whileAway, "SUCCEEDED");

    browser.navigate().back();
    chromium.await(By.cssSelector("#run-" + whileAway + "[data-status=SUCCEEDED]"));
    assertThat(chromium.script("return window.notReloaded === true"))
        .as("the page came back from the back/forward cache, it was not loaded again")
        .isEqualTo(true);
    chromium.waiting().until(d -> d.findElement(By.id("live")).getText().equals("live"));
    UUID after = submit(quick);
    chromium.await(By.cssSelector("#run-" + after + "[data-status=SUCCEEDED]"));
    assertThat(chromium.script("return window.notReloaded === true")).isEqualTo(true);
  }

  /**
   * The journal timeline holds a bounded window of entries however far one scrolls: pages scrolled
   * past leave the document and come back when scrolled back to.
   */
  @Test
  void a_long_journal_scrolls_to_its_end_and_back_with_a_bounded_number_of_rows() throws Exception {
    String loop = uniqueName("loop");
    applyFlow(
        """
        name: %s
        steps:
          - name: loop
            capability: noop
            params: {done: false}
            repeat: {until: "{{ steps.loop.output.done }}", max: 1500}
        """
            .formatted(loop));
    UUID runId = submit(loop);
    Awaitility.await()
        .atMost(TIMEOUT.multipliedBy(4))
        .until(() -> !List.of("PENDING", "RUNNING").contains(status(runId)));
    long last = lastSeq(runId);
    assertThat(last).as("entries of the run").isGreaterThan(1000);

    open(node, "#/run/" + runId);
    chromium.await(By.cssSelector("#journal tr[data-seq='1']"));
    String rows = "return document.querySelectorAll('#journal tbody tr[data-seq]').length";
    String lastShown = "#journal tr[data-seq='" + last + "']";
    chromium
        .waiting()
        .until(
            d -> {
              chromium.script(
                  "const v = document.getElementById('journal-view');"
                      + " v.scrollTop = v.scrollHeight;");
              assertThat(((Number) chromium.script(rows)).intValue()).isLessThanOrEqualTo(600);
              return !d.findElements(By.cssSelector(lastShown)).isEmpty();
            });
    assertThat(browser.findElements(By.cssSelector("#journal tr[data-seq='1']")))
        .as("the first entries left the document")
        .isEmpty();
    chromium
        .waiting()
        .until(
            d -> {
              chromium.script("document.getElementById('journal-view').scrollTop = 0;");
              return !d.findElements(By.cssSelector("#journal tr[data-seq='1']")).isEmpty();
            });
    assertThat(((Number) chromium.script(rows)).intValue()).isLessThanOrEqualTo(600);
    assertThat(browser.findElements(By.cssSelector(lastShown))).isEmpty();
  }

  private long lastSeq(UUID runId) {
    long after = 0;
    for (; ; ) {
      JsonNode page =
          http.get("/api/v1/runs/" + runId + "/journal?limit=1000&after=" + after).json();
      JsonNode entries = page.get("entries");
      if (entries.size() > 0) {
        after = entries.get(entries.size() - 1).get("seq").asLong();
      }
      if (page.get("next").isNull()) {
        return after;
      }
    }
  }

  @Test
  void the_flows_page_lists_flows_and_starts_a_run_with_a_json_input() throws Exception {
    String quick = uniqueName("quick");
    applyFlow(TestFlows.quick(quick));
    open(node, "#/flows");
    chromium.await(By.linkText(quick)).click();
    WebElement input = chromium.await(By.id("start-input"));
    screenshots("flow");
    input.clear();
    input.sendKeys("{\"value\": 42}");
    browser.findElement(By.id("start-run")).click();
    awaitText(By.id("run-status"), "SUCCEEDED");
    String runId = browser.findElement(By.id("run-id")).getText();
    assertThat(run(UUID.fromString(runId)).get("input").get("value").asInt()).isEqualTo(42);

    String took = "\\d+ ms|\\d+\\.\\d s|\\d+ min \\d+ s";
    assertThat(browser.findElement(By.cssSelector("#steps th:nth-child(6)")).getText())
        .isEqualToIgnoringCase("Duration");
    assertThat(
            browser.findElement(By.cssSelector("#steps tr[data-step=only] td.duration")).getText())
        .as("how long the finished step took")
        .matches(took);
    assertThat(
            chromium.script(
                "return document.querySelector('svg.dag g[data-step=only] title').textContent"))
        .asString()
        .matches("only · succeeded · (" + took + ")");
    assertThat(
            browser
                .findElement(By.cssSelector("svg.dag g[data-step=only] text.duration"))
                .getText())
        .matches(took);
  }

  @Test
  void a_triggered_run_links_to_its_event_and_the_event_page_back_to_the_run() throws Exception {
    String flow = uniqueName("on-order");
    String type = uniqueName("order") + ".created";
    applyFlow(
        """
        name: %s
        trigger: {event: %s, key: "{{ event.data.orderId }}"}
        steps: [{name: only, capability: noop}]
        """
            .formatted(flow, type));
    String eventId = uniqueName("e");
    JsonNode answer =
        http.post(
                "/api/v1/events",
                """
                {"id": "%s", "source": "/shop", "type": "%s", "data": {"orderId": 5}}
                """
                    .formatted(eventId, type))
            .json();
    String runId = answer.get("runs").get(0).get("runId").asText();

    open(node, "#/run/" + runId);
    chromium.await(By.id("run-trigger")).click();
    awaitText(By.id("event-id"), eventId);
    screenshots("event");
    chromium.await(By.id("event-runs-list")).click();
    awaitOnlyRow("eventId=" + eventId, UUID.fromString(runId));
    browser.navigate().back();
    chromium.await(By.linkText(runId)).click();
    awaitText(By.id("run-id"), runId);
  }

  /** "in view", or where the first problem of the flow editor is and how tall the window is. */
  private Object firstProblemInView() {
    return chromium.script(
        """
        const box = document.querySelector('#flow-problems li').getBoundingClientRect();
        const inside = box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight
          && box.right <= window.innerWidth;
        return inside ? 'in view' : JSON.stringify({ box, height: window.innerHeight,
          width: window.innerWidth, scrollY: window.scrollY });
        """);
  }

  @Test
  void the_flow_page_shows_its_yaml_checks_an_edit_with_lines_and_opens_an_older_version()
      throws Exception {
    String name = uniqueName("edited");
    String first = applyFlow(TestFlows.approval(name)).get("hash").asText();
    applyFlow(TestFlows.quick(name));
    open(node, "#/flow/" + name);
    WebElement yaml = chromium.await(By.id("flow-yaml"));
    assertThat(yaml.getAttribute("value")).contains("name: " + name);

    yaml.clear();
    yaml.sendKeys("name: " + name + "\nsteps:\n  - name: one\n    capability: nosuchthing\n");
    browser.findElement(By.id("validate-flow")).click();
    awaitText(By.id("flow-problems"), "line 4");
    assertThat(browser.findElement(By.id("flow-problems")).getText())
        .contains("steps[0].capability", "nosuchthing");
    assertThat(firstProblemInView())
        .as("the first problem is in view at 1280×800 while the YAML is edited")
        .isEqualTo("in view");
    screenshots("flow-problems");
    browser.manage().window().setSize(PHONE);
    chromium.script("document.getElementById('flow-yaml').scrollIntoView({block: 'start'});");
    assertThat(firstProblemInView()).as("and at a phone's width").isEqualTo("in view");
    browser.manage().window().setSize(WIDE);
    browser.findElement(By.id("apply-flow")).click();
    assertThat(http.get("/api/v1/flows/" + name).json().get("versions")).hasSize(2);

    chromium.await(By.linkText(first)).click();
    chromium
        .waiting()
        .until(
            ExpectedConditions.attributeContains(
                By.id("flow-yaml"), "value", "capability: approval"));
    awaitText(By.id("flow-versions"), first + " (shown)");
  }
}

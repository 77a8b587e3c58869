package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.baton.node.auth.ApiKeys;
import io.baton.node.auth.ApiTokens;
import io.baton.node.auth.Authenticator;
import io.baton.time.SystemScheduler;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The dashboard on a node that needs API keys, in real headless Chromium: it asks for a key, keeps
 * it in the tab's sessionStorage, sends it on every call and on the live stream (read with fetch,
 * so the header goes with it), and shows only what the signed-in role may do: a viewer sees no
 * command buttons on a failed run, an operator resumes it and sees it succeed live, with the resume
 * on the run's record under the operator's key.
 */
class DashboardSignInBrowserTest extends ApiTestBase {
  private static final Path SCREENSHOTS = Path.of("target", "screenshots");

  private final String adminToken = ApiTokens.generate();
  private final String operatorToken = ApiTokens.generate();
  private final String viewerToken = ApiTokens.generate();
  private HeadlessChromium chromium;
  private WebDriver browser;

  @Override
  protected Authenticator authenticator() {
    try {
      Path file = Files.createTempFile("baton-keys", ".yaml");
      Files.writeString(
          file,
          "keys:\n"
              + entry("admin-key", "admin", adminToken)
              + entry("operator-key", "operator", operatorToken)
              + entry("viewer-key", "viewer", viewerToken));
      return ApiKeys.load(file, SystemScheduler.systemClock());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String entry(String name, String role, String token) {
    return "  - {name: "
        + name
        + ", role: "
        + role
        + ", hash: \""
        + ApiTokens.hash(token)
        + "\"}\n";
  }

  @BeforeAll
  void openBrowserAndCallAsAdmin() throws IOException {
    http = node.calls().withToken(adminToken);
    chromium = HeadlessChromium.start(TIMEOUT);
    browser = chromium.driver();
    Files.createDirectories(SCREENSHOTS);
  }

  @AfterAll
  void closeBrowser() throws IOException {
    if (chromium != null) {
      chromium.close();
    }
  }

  private void signIn(String token) {
    WebElement key = chromium.await(By.id("api-key"));
    key.clear();
    key.sendKeys(token);
    browser.findElement(By.id("sign-in-button")).click();
  }

  private void screenshot(String page) throws IOException {
    File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
    Files.copy(
        shot.toPath(), SCREENSHOTS.resolve(page + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void a_viewer_sees_no_resume_button_and_an_operator_resumes_the_run_live() throws Exception {
    String toggled = uniqueName("toggled");
    String switchName = uniqueName("switch");
    applyFlow(TestFlows.toggled(toggled, switchName));
    UUID failed = submit(toggled);
    awaitStatus(failed, "FAILED");

    browser.get(node.uri() + "/#/run/" + failed);
    chromium.script("sessionStorage.clear();");
    browser.navigate().refresh();
    signIn(viewerToken);
    chromium
        .waiting()
        .until(ExpectedConditions.textToBePresentInElementLocated(By.id("run-id"), "" + failed));
    assertThat(chromium.await(By.id("who")).getText()).isEqualTo("viewer-key (viewer)");
    chromium.await(By.id("steps"));
    assertThat(browser.findElements(By.id("cmd-resume"))).as("a viewer's resume button").isEmpty();
    assertThat(browser.findElements(By.id("cmd-cancel"))).isEmpty();
    assertThat(browser.findElements(By.id("reason"))).isEmpty();
    screenshot("signed-in-viewer-run");

    browser.findElement(By.id("sign-out")).click();
    chromium.await(By.id("api-key"));
    assertThat(chromium.script("return sessionStorage.getItem('baton.token')")).isNull();
    signIn(operatorToken);
    WebElement resume = chromium.await(By.id("cmd-resume"));
    chromium.waiting().until(ExpectedConditions.elementToBeClickable(resume));
    assertThat(browser.findElement(By.id("who")).getText()).isEqualTo("operator-key (operator)");
    chromium
        .waiting()
        .until(ExpectedConditions.textToBePresentInElementLocated(By.id("live"), "live"));
    screenshot("signed-in-operator-run");

    chromium.script("window.notReloaded = true;");
    steps.switchOn(switchName);
    browser.findElement(By.id("reason")).sendKeys("the switch is on now");
    browser.findElement(By.id("cmd-resume")).click();
    chromium
        .waiting()
        .until(
            ExpectedConditions.textToBePresentInElementLocated(By.id("run-status"), "SUCCEEDED"));
    assertThat(chromium.script("return window.notReloaded === true"))
        .as("the page updated itself from the authenticated stream, it was not reloaded")
        .isEqualTo(true);
    WebElement record = chromium.await(By.cssSelector("#commands tr[data-command=resume]"));
    assertThat(record.getText()).contains("operator-key").contains("key");
    assertThat(chromium.script("return localStorage.length")).isEqualTo(0L);
    assertThat(browser.getCurrentUrl()).doesNotContain(operatorToken);
  }

  @Test
  void an_unknown_key_is_refused_with_the_nodes_reason_and_a_viewer_cannot_start_runs()
      throws Exception {
    String flow = uniqueName("quick");
    applyFlow(TestFlows.quick(flow));
    browser.get(node.uri() + "/#/flow/" + flow);
    chromium.script("sessionStorage.clear();");
    browser.navigate().refresh();
    signIn(ApiTokens.generate());
    WebElement reason = chromium.await(By.id("sign-in-reason"));
    assertThat(reason.getText()).contains("not known");
    screenshot("sign-in-refused");

    signIn(viewerToken);
    chromium.await(By.cssSelector("svg.dag"));
    assertThat(browser.findElements(By.id("start-run"))).isEmpty();
    browser.findElement(By.id("sign-out")).click();
    signIn(operatorToken);
    chromium.await(By.id("start-run"));
  }
}

package io.baton.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Comparator;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium for one browser test class (the process tests' too), driven through
 * its chromedriver, on a fresh profile that makes no requests of its own. {@link #close()} quits
 * the browser, stops the driver and deletes the profile. Not thread-safe: one test thread drives
 * it.
 */
public final class HeadlessChromium implements AutoCloseable {
  static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
  static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
  private static final Duration POLL = Duration.ofMillis(50);

  private final Path profile;
  private final ChromeDriverService service;
  private final WebDriver driver;
  private final Duration timeout;

  private HeadlessChromium(
      Path profile, ChromeDriverService service, WebDriver driver, Duration timeout) {
    this.profile = profile;
    this.service = service;
    this.driver = driver;
    this.timeout = timeout;
  }

  /** Starts the browser; its waits give up after {@code timeout}. */
  public static HeadlessChromium start(Duration timeout) throws IOException {
    assertThat(CHROMEDRIVER)
        .as("chromium-driver is not installed: apt-get install -y chromium chromium-driver")
        .isExecutable();
    Path profile = Files.createTempDirectory("baton-chromium");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    ChromeOptions options =
        new ChromeOptions()
            .setBinary(CHROMIUM.toFile())
            .addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--user-data-dir=" + profile);
    return new HeadlessChromium(profile, service, new ChromeDriver(service, options), timeout);
  }

  /** The browser's profile directory; its processes carry it on their command lines. */
  public Path profile() {
    return profile;
  }

  public WebDriver driver() {
    return driver;
  }

  public WebDriverWait waiting() {
    return new WebDriverWait(driver, timeout, POLL);
  }

  /** The element once it is visible. */
  public WebElement await(By selector) {
    return waiting().until(ExpectedConditions.visibilityOfElementLocated(selector));
  }

  public Object script(String code) {
    return ((JavascriptExecutor) driver).executeScript(code);
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      service.stop();
      try (var files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }
}

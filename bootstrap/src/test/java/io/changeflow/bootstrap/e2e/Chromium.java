package io.changeflow.bootstrap.e2e;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The system's Chromium driven by Playwright for Java. Browsers are never downloaded
 * ({@code PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1}): without {@value #EXECUTABLE} the browser tests fail
 * with a message saying how to install it (CI's {@code .ci/run} installs it). They never skip: a green
 * build means the journeys ran in a real browser.
 */
final class Chromium implements AutoCloseable {

    static final String EXECUTABLE = "/usr/bin/chromium";
    static final List<String> ARGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync");
    static final String MISSING = "the browser tests need Chromium at " + EXECUTABLE
            + " (install it: apt-get install -y chromium; CI's .ci/run does)";

    /** Where screenshots of the main pages go (a build artifact). */
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    final Playwright playwright;
    final Browser browser;

    private Chromium(Playwright playwright, Browser browser) {
        this.playwright = playwright;
        this.browser = browser;
    }

    static boolean installed() {
        return Files.isExecutable(Path.of(EXECUTABLE));
    }

    static Chromium launch() {
        try {
            // Surefire points java.io.tmpdir at target/tmp; the driver unpacks itself there.
            Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
            Files.createDirectories(SCREENSHOTS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        try {
            var browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
                    .setExecutablePath(Path.of(EXECUTABLE))
                    .setHeadless(true)
                    .setArgs(ARGS));
            return new Chromium(playwright, browser);
        } catch (RuntimeException e) {
            playwright.close();
            throw e;
        }
    }

    static void screenshot(Page page, String name) {
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve(name + ".png")).setFullPage(true));
    }

    @Override
    public void close() {
        browser.close();
        playwright.close();
    }
}

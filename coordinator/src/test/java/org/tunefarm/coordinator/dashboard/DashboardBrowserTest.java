package org.tunefarm.coordinator.dashboard;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.tunefarm.coordinator.Coordinator;
import org.tunefarm.coordinator.CoordinatorConfig;
import org.tunefarm.coordinator.TestFarm;
import org.tunefarm.coordinator.local.AgentProcess;
import org.tunefarm.protocol.Protocol;

/**
 * The dashboard in a real browser: Debian's chromium, headless, driven through its own
 * chromedriver (no driver or browser is downloaded). A real coordinator with a read token and a
 * real agent process; the page asks for the token, a sweep started over REST shows up running,
 * progresses and ends done, its search is plotted, the table fills, and the browser logged no error.
 * Screenshots land in {@code target/dashboard-running.png} (part-way) and {@code target/dashboard.png} (done).
 */
class DashboardBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final String READ = "dashboard-read-token";
    static final String ADMIN = "dashboard-admin-token";
    static final String FARM = "dashboard-farm-token";
    static final int BUDGET = 60;

    @TempDir static Path data;
    static Coordinator coordinator;
    static AgentProcess agent;
    static WebDriver browser;
    static final HttpClient http = HttpClient.newHttpClient();
    /** Held so its level sticks: Selenium warns that it has no DevTools for this chromium, which the test does not use. */
    static final java.util.logging.Logger SELENIUM = java.util.logging.Logger.getLogger("org.openqa.selenium");

    @BeforeAll static void start() throws Exception {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String why = "the dashboard test needs Debian's chromium and chromium-driver (" + CHROMIUM + ", " + CHROMEDRIVER
                    + "): apt-get install chromium chromium-driver";
            if ("true".equals(System.getenv("CI"))) fail(why);
            Assumptions.abort(why);
        }
        CoordinatorConfig c = TestFarm.config(data).withTokens(FARM, ADMIN);
        coordinator = new Coordinator(c.withDoor(c.door().withReadToken(READ))).start();
        agent = AgentProcess.start("board-1", List.of("127.0.0.1:" + c.bridgePort()), FARM, data.resolve("agent.log"), List.of());

        SELENIUM.setLevel(Level.SEVERE);
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1500,1400",
                "--hide-scrollbars", "--force-device-scale-factor=1");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll static void stop() throws Exception {
        if (browser != null) browser.quit();
        if (agent != null) agent.close();
        if (coordinator != null) coordinator.close();
    }

    @Test void showsASweepProgressingToDoneWithNoBrowserError() throws Exception {
        browser.get("http://127.0.0.1:" + coordinator.httpPort() + "/");
        // The farm has a read token: the page asks for it before reading anything.
        WebElement token = await().atMost(Duration.ofSeconds(30)).until(() -> browser.findElement(By.id("login-token")), WebElement::isDisplayed);
        token.sendKeys(READ);
        browser.findElement(By.cssSelector("#login-form button")).click();

        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(300))
                .until(() -> text("#agents tbody").contains("board-1") && text("#agents tbody").contains("idle"));
        assertEquals("live", text("#live-text"));
        // This VM has no thermal sensor: the page says so rather than showing 0 °C.
        assertTrue(text("#agents tbody").contains("no sensor"), text("#agents tbody"));
        assertFalse(text("#agents tbody").contains("0.0 °C"), text("#agents tbody"));

        String id = submit("""
                name: browser-sleep
                kernel: sleep
                shapes: [{unitUs: 1000}]
                space: {mode: [slow, fast]}
                strategy: {name: random, budget: %d, seed: 5}
                measure: {minSamples: 3, minSampleMs: 15, maxWarmupMs: 20, timeoutMs: 10000, finalists: 0}
                batchSize: 4
                """.formatted(BUDGET));

        // Progressing: the page shows the search part-way (some measured, not all) before it is done.
        Set<Integer> seen = new TreeSet<>();
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200)).until(() -> {
            assertTrue(agent.alive(), "the agent died; see " + agent.log());
            String sweeps = text("#sweeps tbody");
            var m = java.util.regex.Pattern.compile("(\\d+) / " + BUDGET + " measured").matcher(sweeps);
            if (m.find() && seen.add(Integer.parseInt(m.group(1))) && seen.size() == 3) screenshot("dashboard-running.png");
            return sweeps.contains("browser-sleep") && sweeps.contains(id) && sweeps.contains("done");
        });
        assertTrue(seen.stream().anyMatch(n -> n > 0 && n < BUDGET), "the page showed the sweep part-way through, saw " + seen);
        assertTrue(text("#agents tbody").contains(id), "the agent row names the sweep it measured: " + text("#agents tbody"));

        // The finished search is plotted: best-so-far over every trial, and time against a parameter.
        await().atMost(Duration.ofSeconds(30)).until(() -> text("#search-title").contains(id));
        assertFalse(browser.findElements(By.cssSelector("#plot-best canvas")).isEmpty(), "best-so-far plot drawn");
        assertFalse(browser.findElements(By.cssSelector("#plot-param canvas")).isEmpty(), "parameter plot drawn");
        // The table has the sleep kernel's winner (read again within 5 s of the last records).
        await().atMost(Duration.ofSeconds(30)).until(() -> text("#table tbody").contains("sleep") && text("#table tbody").contains("unitUs=1000"));
        // Each row names its objective; a sleep kernel on this machine has no sustained run and no energy reading: n/a, never 0.
        assertTrue(text("#table tbody").contains("latency"), text("#table tbody"));
        assertTrue(text("#table tbody").contains("n/a"), text("#table tbody"));

        screenshot("dashboard.png");

        // The table's filters: a shape no entry has, then the one it has.
        WebElement shape = browser.findElement(By.id("f-shape"));
        shape.sendKeys("unitUs=999");
        browser.findElement(By.cssSelector("#table-filters button[type=submit]")).click();
        await().atMost(Duration.ofSeconds(10)).until(() -> text("#table tbody").contains("no entries match the filters"));
        shape.clear();
        shape.sendKeys("unitUs=1000");
        browser.findElement(By.cssSelector("#table-filters button[type=submit]")).click();
        await().atMost(Duration.ofSeconds(10)).until(() -> text("#table tbody").contains("mode=fast"));
        browser.findElement(By.id("download")).click();

        List<LogEntry> errors = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
        assertTrue(errors.isEmpty(), "the browser logged errors: " + errors);
    }

    /** Writes what the browser shows to {@code target/NAME}. */
    private static void screenshot(String name) throws java.io.IOException {
        Path shot = Path.of("target", name);
        Files.createDirectories(shot.getParent());
        Files.copy(((org.openqa.selenium.TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String text(String css) {
        return browser.findElement(By.cssSelector(css)).getText();
    }

    private static String submit(String yaml) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + coordinator.httpPort() + "/api/sweeps"))
                .header("Authorization", "Bearer " + ADMIN).POST(HttpRequest.BodyPublishers.ofString(yaml)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
        return Protocol.JSON.readTree(r.body()).path("id").asText();
    }
}

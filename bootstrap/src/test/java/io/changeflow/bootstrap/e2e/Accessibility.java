package io.changeflow.bootstrap.e2e;

import com.microsoft.playwright.Page;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;

/**
 * axe-core (the frontend's dev dependency, {@code frontend/node_modules/axe-core}, installed by the frontend
 * module's {@code npm ci}) run in the page: every rule axe runs by default (WCAG 2.x A and AA, best practices),
 * and a page passes with no violation of impact serious or critical. The script goes in through the DevTools
 * protocol ({@code page.evaluate}), not a script tag, so the page's Content-Security-Policy stays untouched.
 */
final class Accessibility {

    static final Path AXE = Path.of("..", "frontend", "node_modules", "axe-core", "axe.min.js");
    private static final List<String> BLOCKING = List.of("serious", "critical");

    private static String source;

    private Accessibility() {}

    private static synchronized String axe() {
        if (source == null) {
            try {
                source = Files.readString(AXE, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("axe-core is missing at " + AXE.toAbsolutePath()
                        + " (cd frontend && npm ci)", e);
            }
        }
        return source;
    }

    /** Runs axe on the page as it is now; fails naming every serious or critical violation and its elements. */
    @SuppressWarnings("unchecked")
    static void assertNoSeriousViolations(Page page, String what) {
        if (!Boolean.TRUE.equals(page.evaluate("() => typeof window.axe === 'object'"))) {
            page.evaluate(axe());
        }
        var violations = (List<Map<String, Object>>) page.evaluate("""
                async () => {
                  const result = await window.axe.run(document, { resultTypes: ['violations'] });
                  return result.violations.map(v => ({
                    id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\\s+/g, ' '))
                  }));
                }
                """);
        var blocking = violations.stream().filter(v -> BLOCKING.contains(String.valueOf(v.get("impact")))).toList();
        Assertions.assertThat(blocking).as("axe-core: serious or critical violations on %s (%s)", what, page.url())
                .isEmpty();
        if (!violations.isEmpty()) {
            System.out.println("[axe] " + what + ": minor/moderate " + violations.stream().map(v -> v.get("id")).toList());
        }
    }
}

package io.changeflow.adapter.web.identity;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * The authorization table ({@code changeflow.authorization.rules}): path patterns and the rule codes
 * that grant access to them, holding any one of a rule's codes is enough (all checked in one round
 * trip). The first rule whose pattern matches decides; a path no rule names is not protected here.
 *
 * <p>Defaults:
 * <ul>
 *   <li>{@code /ops/**}, {@code /sandbox/faults/**}: {@code ops.operator} or {@code ops.admin};</li>
 *   <li>{@code /sim/approval/inbox/**}: {@code approvals.approver}, {@code ops.operator} or {@code ops.admin}.</li>
 * </ul>
 * {@code /sim/approval/api/**} and {@code /sim/gitlab/**} (machine APIs of the simulated systems,
 * sandbox profile only) are deliberately not in the table.
 *
 * <p>Failure behaviour: a rule without paths or without rule codes, or an unparsable pattern, stops
 * start-up (an empty code list must never read as "open"). A request the interceptor sees but no
 * rule matches is denied.
 */
public final class AuthorizationRules {

    /** One row of the table: any of {@code ruleCodes} grants access to {@code paths}. */
    public record Rule(List<String> paths, List<String> ruleCodes) {

        public Rule {
            paths = clean(paths);
            ruleCodes = clean(ruleCodes);
        }

        private static List<String> clean(List<String> values) {
            return values == null ? List.of()
                    : values.stream().filter(v -> v != null && !v.isBlank()).map(String::strip).toList();
        }
    }

    public static final List<Rule> DEFAULTS = List.of(
            new Rule(List.of("/ops/**", "/sandbox/faults/**"), List.of("ops.operator", "ops.admin")),
            new Rule(List.of("/sim/approval/inbox/**"), List.of("approvals.approver", "ops.operator", "ops.admin")));

    private record Compiled(PathPattern pattern, Set<String> ruleCodes) {}

    private final List<Compiled> table;
    private final List<String> patterns;

    private AuthorizationRules(List<Compiled> table, List<String> patterns) {
        this.table = List.copyOf(table);
        this.patterns = List.copyOf(patterns);
    }

    /** Validates and compiles the table; throws {@link IllegalArgumentException} for an unusable rule. */
    public static AuthorizationRules of(List<Rule> rules) {
        var table = new ArrayList<Compiled>();
        var patterns = new ArrayList<String>();
        for (var i = 0; i < rules.size(); i++) {
            var rule = rules.get(i);
            if (rule.paths().isEmpty() || rule.ruleCodes().isEmpty()) {
                throw new IllegalArgumentException("changeflow.authorization.rules[" + i
                        + "] needs at least one path and at least one rule code");
            }
            for (var path : rule.paths()) {
                try {
                    table.add(new Compiled(PathPatternParser.defaultInstance.parse(path), Set.copyOf(rule.ruleCodes())));
                } catch (PatternParseException e) {
                    throw new IllegalArgumentException("changeflow.authorization.rules[" + i + "]: not a path pattern: '"
                            + path + "'", e);
                }
                patterns.add(path);
            }
        }
        return new AuthorizationRules(table, patterns);
    }

    /** Every pattern of the table, in order (where the authorization interceptor is registered). */
    public List<String> patterns() {
        return patterns;
    }

    /** Every rule code of the table (what {@code GET /api/me} asks about, in one round trip). */
    public Set<String> allRuleCodes() {
        var all = new LinkedHashSet<String>();
        table.forEach(c -> all.addAll(c.ruleCodes()));
        return Set.copyOf(all);
    }

    /** The rule codes of the first rule matching the request's path; empty when none matches. */
    public Optional<Set<String>> ruleCodesFor(HttpServletRequest request) {
        var path = path(request);
        return table.stream().filter(c -> c.pattern().matches(path)).map(Compiled::ruleCodes).findFirst();
    }

    /** The rule codes of the first rule matching a path template ({@code /ops/operations/{operationId}}); empty when none. */
    public Optional<Set<String>> ruleCodesFor(String pathTemplate) {
        var path = PathContainer.parsePath(pathTemplate);
        return table.stream().filter(c -> c.pattern().matches(path)).map(Compiled::ruleCodes).findFirst();
    }

    /** The path as the handler mappings (and so the interceptor registration) matched it. */
    private static PathContainer path(HttpServletRequest request) {
        if (ServletRequestPathUtils.hasCachedPath(request)) {
            var cached = ServletRequestPathUtils.getCachedPath(request);
            return cached instanceof PathContainer container ? container : PathContainer.parsePath(cached.toString());
        }
        return ServletRequestPathUtils.parseAndCache(request).pathWithinApplication();
    }
}

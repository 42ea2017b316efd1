package io.changeflow.sandbox.gitlab;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The read-only web page of a simulated merge request (what its {@code web_url} opens): title, state,
 * branches, approvals, pipeline and the change to the grant files as a line diff. Self-contained HTML
 * (inline styles, no script); every value from the simulator is escaped.
 */
final class MergeRequestPage {

    /** One changed file; {@code before} null: created, {@code after} null: deleted. */
    record FileChange(String path, String before, String after) {}

    /** What the page shows, read from the simulator at once. */
    record View(String project, long iid, String title, String description, String state, String detailedMergeStatus,
                String sourceBranch, String targetBranch, String author, Instant createdAt, Instant mergedAt,
                Instant closedAt, List<String> approvedBy, int approvalsRequired, Long pipelineId,
                String pipelineStatus, String mergeError, List<FileChange> changes) {}

    /** One line of a diff: {@code ' '} context, {@code '-'} removed, {@code '+'} added, {@code '~'} skipped lines. */
    record DiffLine(char kind, String text) {}

    /** Lines of unchanged context shown around each change. */
    static final int CONTEXT = 3;
    /** Above this many line pairs the diff is not aligned: every old line is removed, every new one added. */
    static final long MAX_ALIGNED_CELLS = 4_000_000;

    private MergeRequestPage() {
    }

    static String render(View view) {
        var html = new StringBuilder(4096);
        var heading = view.title() + " (!" + view.iid() + ")";
        html.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(escape(heading)).append(" · ").append(escape(view.project()))
                .append(" · GitLab simulator</title><style>").append(STYLE).append("</style></head><body>");
        html.append("<main data-testid=\"mr-page\" data-project=\"").append(escape(view.project()))
                .append("\" data-iid=\"").append(view.iid()).append("\">");
        html.append("<p class=\"muted\">GitLab simulator (sandbox) · <code>").append(escape(view.project()))
                .append("</code> · merge request !").append(view.iid()).append("</p>");
        html.append("<h1 data-testid=\"mr-title\">").append(escape(view.title())).append("</h1>");
        html.append("<p><span class=\"state state-").append(escape(view.state())).append("\" data-testid=\"mr-state\">")
                .append(escape(view.state())).append("</span> <span class=\"muted\">merge status: <code data-testid=\"mr-merge-status\">")
                .append(escape(view.detailedMergeStatus())).append("</code></span></p>");

        html.append("<dl>");
        fact(html, "Branches", "<code data-testid=\"mr-source-branch\">" + escape(view.sourceBranch())
                + "</code> into <code data-testid=\"mr-target-branch\">" + escape(view.targetBranch()) + "</code>");
        fact(html, "Author", escape(view.author()));
        fact(html, "Created", time(view.createdAt()));
        if (view.mergedAt() != null) {
            fact(html, "Merged", time(view.mergedAt()));
        }
        if (view.closedAt() != null) {
            fact(html, "Closed", time(view.closedAt()));
        }
        var approvers = view.approvedBy().isEmpty() ? "none yet" : escape(String.join(", ", view.approvedBy()));
        fact(html, "Approvals", "<span data-testid=\"mr-approvals\" data-count=\"" + view.approvedBy().size() + "\">"
                + view.approvedBy().size() + " of " + view.approvalsRequired() + " required: " + approvers + "</span>");
        fact(html, "Pipeline", view.pipelineId() == null
                ? "<span data-testid=\"mr-pipeline\" data-status=\"none\">none</span>"
                : "<span data-testid=\"mr-pipeline\" data-status=\"" + escape(view.pipelineStatus()) + "\">#"
                        + view.pipelineId() + " " + escape(view.pipelineStatus()) + "</span>");
        if (view.mergeError() != null && !view.mergeError().isBlank()) {
            fact(html, "Merge error", escape(view.mergeError()));
        }
        html.append("</dl>");

        if (view.description() != null && !view.description().isBlank()) {
            html.append("<h2>Description</h2><pre class=\"description\" data-testid=\"mr-description\">")
                    .append(escape(view.description())).append("</pre>");
        }

        html.append("<h2>Changes</h2>");
        if (view.changes().isEmpty()) {
            html.append("<p class=\"muted\">No changes.</p>");
        }
        for (var change : view.changes()) {
            var kind = change.before() == null ? "new file" : change.after() == null ? "deleted" : "modified";
            html.append("<section class=\"file\" data-testid=\"mr-diff\" data-path=\"").append(escape(change.path()))
                    .append("\"><h3><code>").append(escape(change.path())).append("</code> <span class=\"muted\">")
                    .append(kind).append("</span></h3><pre class=\"diff\">");
            for (var line : diff(lines(change.before()), lines(change.after()))) {
                var css = switch (line.kind()) {
                    case '+' -> "add";
                    case '-' -> "del";
                    case '~' -> "skip";
                    default -> "ctx";
                };
                html.append("<span class=\"").append(css).append("\">")
                        .append(line.kind() == '~' ? "…" : line.kind() + " ").append(escape(line.text()))
                        .append("</span>\n");
            }
            html.append("</pre></section>");
        }
        html.append("</main></body></html>\n");
        return html.toString();
    }

    /** The page for a project or merge request the simulator does not know. */
    static String notFound(String what) {
        return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found · GitLab simulator"
                + "</title><style>" + STYLE + "</style></head><body><main data-testid=\"mr-not-found\"><h1>404 Not found</h1>"
                + "<p>" + escape(what) + "</p></main></body></html>\n";
    }

    /**
     * A unified line diff of {@code before} and {@code after} with {@value #CONTEXT} lines of context around
     * each change; runs of unchanged lines beyond that are one {@code '~'} line saying how many were skipped.
     */
    static List<DiffLine> diff(List<String> before, List<String> after) {
        var all = align(before, after);
        var keep = new boolean[all.size()];
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).kind() != ' ') {
                for (int j = Math.max(0, i - CONTEXT); j <= Math.min(all.size() - 1, i + CONTEXT); j++) {
                    keep[j] = true;
                }
            }
        }
        var shown = new ArrayList<DiffLine>();
        int skipped = 0;
        for (int i = 0; i < all.size(); i++) {
            if (keep[i]) {
                if (skipped > 0) {
                    shown.add(skippedLine(skipped));
                    skipped = 0;
                }
                shown.add(all.get(i));
            } else {
                skipped++;
            }
        }
        if (skipped > 0 && !shown.isEmpty()) {
            shown.add(skippedLine(skipped));
        }
        return shown;
    }

    private static DiffLine skippedLine(int count) {
        return new DiffLine('~', " " + count + " unchanged line" + (count == 1 ? "" : "s"));
    }

    /** Every line of both sides, aligned by a longest common subsequence. */
    private static List<DiffLine> align(List<String> a, List<String> b) {
        var result = new ArrayList<DiffLine>(a.size() + b.size());
        if ((long) a.size() * b.size() > MAX_ALIGNED_CELLS) {
            a.forEach(line -> result.add(new DiffLine('-', line)));
            b.forEach(line -> result.add(new DiffLine('+', line)));
            return result;
        }
        var lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = a.size() - 1; i >= 0; i--) {
            for (int j = b.size() - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < a.size() && j < b.size()) {
            if (a.get(i).equals(b.get(j))) {
                result.add(new DiffLine(' ', a.get(i)));
                i++;
                j++;
            } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
                result.add(new DiffLine('-', a.get(i++)));
            } else {
                result.add(new DiffLine('+', b.get(j++)));
            }
        }
        while (i < a.size()) {
            result.add(new DiffLine('-', a.get(i++)));
        }
        while (j < b.size()) {
            result.add(new DiffLine('+', b.get(j++)));
        }
        return result;
    }

    private static List<String> lines(String content) {
        return content == null || content.isEmpty() ? List.of() : content.lines().toList();
    }

    private static void fact(StringBuilder html, String name, String valueHtml) {
        html.append("<div><dt>").append(name).append("</dt><dd>").append(valueHtml).append("</dd></div>");
    }

    private static String time(Instant instant) {
        return instant == null ? "—" : "<time datetime=\"" + instant + "\">" + instant + "</time>";
    }

    /** Text and attribute values: the five characters HTML gives meaning to. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        var out = new StringBuilder(text.length() + 16);
        for (int k = 0; k < text.length(); k++) {
            char c = text.charAt(k);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static final String STYLE = """
            body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1c2430;background:#f6f7f9}
            main{max-width:60rem;margin:0 auto;padding:1rem}
            h1{font-size:1.5rem;margin:.25rem 0 .5rem;overflow-wrap:anywhere}
            code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
            code{overflow-wrap:anywhere}
            .muted{color:#566171}
            .state{display:inline-block;padding:.1rem .6rem;border-radius:999px;font-weight:600;background:#e8f0fc}
            .state-merged{background:#e6f4ea;color:#1e6b34}.state-closed{background:#fdecea;color:#b3261e}
            dl{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.5rem 1.5rem}
            dt{font-weight:600;font-size:.9rem;color:#566171}dd{margin:0;overflow-wrap:anywhere}
            pre{background:#fff;border:1px solid #d5dae1;border-radius:6px;padding:.5rem;overflow-x:auto;margin:.25rem 0}
            .description{white-space:pre-wrap}
            .diff span{display:inline-block;min-width:100%}.add{background:#e6f4ea}.del{background:#fdecea}.skip{color:#566171}
            """.replace("\n", "");
}

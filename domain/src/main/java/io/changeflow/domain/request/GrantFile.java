package io.changeflow.domain.request;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The configuration file of one target, as code: one line per subject
 * ({@code <subject> until=<ISO instant|never> op=<operationId>}), sorted, so that any number of grants (one request,
 * or every member of a batch) combine into one deterministic file content. A hand edit is never silently dropped
 * (docs/workflow.md, "The grant file").
 */
public final class GrantFile {

    private final List<String> comments;
    private final TreeMap<String, Grant> grants;
    private final List<String> unparsed;

    private GrantFile(List<String> comments, TreeMap<String, Grant> grants, List<String> unparsed) {
        this.comments = comments;
        this.grants = grants;
        this.unparsed = unparsed;
    }

    /** A file that does not exist yet: the default header, no grants. */
    public static GrantFile missing(TargetKey target) {
        return parse(target, "");
    }

    /** Parses a file's content; an empty file is, like a missing one, a file with the default header. */
    public static GrantFile parse(TargetKey target, String content) {
        var comments = new ArrayList<String>();
        var grants = new TreeMap<String, Grant>();
        var unparsed = new ArrayList<String>();
        for (var line : content.split("\n", -1)) {
            var trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.startsWith("#")) {
                comments.add(trimmed);
                continue;
            }
            parseLine(trimmed).ifPresentOrElse(g -> grants.put(g.subject().value(), g), () -> unparsed.add(trimmed));
        }
        if (comments.isEmpty()) {
            comments.add("# Access grants for target " + target.value() + ", managed by Changeflow.");
            comments.add("# One line per subject: <subject> until=<ISO instant|never> op=<operationId>");
        }
        return new GrantFile(comments, grants, unparsed);
    }

    /**
     * The grant one line of a grant file states ({@code <subject> until=<ISO instant|never> op=<operationId>}, already
     * stripped); empty for a line the format does not parse (a comment, text, a garbled until, subject or operation).
     */
    public static Optional<Grant> parseLine(String line) {
        var parts = line.split("\\s+");
        if (parts.length != 3 || !parts[1].startsWith("until=") || !parts[2].startsWith("op=")) {
            return Optional.empty();
        }
        var subject = SubjectId.parse(parts[0]);
        var op = OperationId.parse(parts[2].substring(3));
        var untilText = parts[1].substring(6);
        Optional<Instant> until;
        try {
            until = "never".equals(untilText) ? Optional.empty() : Optional.of(Instant.parse(untilText));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
        if (subject.isEmpty() || op.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Grant(subject.get(), until, op.get()));
    }

    /** This file with the grants applied (a subject's earlier line is replaced). */
    public GrantFile with(Collection<Grant> added) {
        return edited(added, (copy, grant) -> copy.put(grant.subject().value(), grant));
    }

    public GrantFile with(Grant grant) {
        return with(List.of(grant));
    }

    /**
     * This file without exactly the lines of {@code removed}: a subject's line goes only when it is the very
     * grant given (same until, same operation). A line edited by hand (another until or operation) stays, and so
     * does every line this file could not parse: a removal never drops what it did not write.
     */
    public GrantFile without(Collection<Grant> removed) {
        return edited(removed, (copy, grant) -> copy.remove(grant.subject().value(), grant));
    }

    /** A copy of this file whose grants {@code edit} changed, once for each of {@code given}. */
    private GrantFile edited(Collection<Grant> given, BiConsumer<TreeMap<String, Grant>, Grant> edit) {
        var copy = new TreeMap<>(grants);
        for (var grant : given) {
            edit.accept(copy, grant);
        }
        return new GrantFile(comments, copy, unparsed);
    }

    /** True when the file holds exactly {@code grant}'s line (what {@link #without} would remove). */
    public boolean holds(Grant grant) {
        return grantOf(grant.subject()).equals(Optional.of(grant));
    }

    /**
     * The subject's line when it is there but is not exactly {@code grant}'s: another until or operation, or a line
     * of the subject the format cannot parse (edited by hand). Empty when the file holds {@code grant}'s line, or no
     * line of the subject at all. What a removal must neither take out nor claim removed (issue 36).
     */
    public Optional<String> editedLineOf(Grant grant) {
        var parsed = grantOf(grant.subject());
        if (parsed.isPresent()) {
            return parsed.filter(found -> !found.equals(grant)).map(Grant::line);
        }
        return unparsed.stream()
                .filter(line -> SubjectId.parse(line.split("\\s+")[0]).filter(grant.subject()::equals).isPresent())
                .findFirst();
    }

    public Optional<Grant> grantOf(SubjectId subject) {
        return Optional.ofNullable(grants.get(subject.value()));
    }

    /** The content to commit: header comments, sorted grants, kept unparsed lines, final newline. */
    public String render() {
        var out = new StringBuilder();
        comments.forEach(c -> out.append(c).append('\n'));
        grants.values().forEach(g -> out.append(g.line()).append('\n'));
        unparsed.forEach(u -> out.append(u).append('\n'));
        return out.toString();
    }
}

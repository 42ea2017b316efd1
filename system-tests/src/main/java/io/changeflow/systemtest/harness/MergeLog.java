package io.changeflow.systemtest.harness;

import io.changeflow.sandbox.MergeListener;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Every merge the GitLab simulator performed, in merge order, with the operations each merge request
 * carried (its {@code Changeflow-Operation:} trailer lines). The witness of "merged once": an
 * operation merged by two merge requests, or twice, shows up here.
 */
public final class MergeLog implements MergeListener {

    private static final Pattern TRAILER = Pattern.compile(
            "^\\s*Changeflow-Operation:\\s*([0-9a-fA-F-]{36})\\s*$", Pattern.MULTILINE);

    /** One merge: the merge request and the operations its description names. */
    public record Merge(String project, long iid, List<String> operationIds, Instant at) {}

    private final List<Merge> merges = new ArrayList<>();

    @Override
    public synchronized void merged(String project, long iid, String description) {
        var ids = new ArrayList<String>();
        var matcher = TRAILER.matcher(description == null ? "" : description);
        while (matcher.find()) {
            ids.add(matcher.group(1).toLowerCase(Locale.ROOT));
        }
        merges.add(new Merge(project, iid, List.copyOf(ids), Instant.now()));
    }

    public synchronized List<Merge> merges() {
        return List.copyOf(merges);
    }

    /** How many merges carried {@code operationId}: 1 for a merged request, never more. */
    public synchronized long mergesOf(String operationId) {
        var id = operationId.toLowerCase(Locale.ROOT);
        return merges.stream().filter(m -> m.operationIds().contains(id)).count();
    }

    /** How often merge request {@code iid} of {@code project} was merged: 0 or 1. */
    public synchronized long mergesOf(String project, long iid) {
        return merges.stream().filter(m -> m.project().equals(project) && m.iid() == iid).count();
    }

    public synchronized void clear() {
        merges.clear();
    }
}

package io.changeflow.adapter.gitlab;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The parent shas of commits, remembered per project and sha: a commit's parents never change, so a merge request whose
 * stored head pipeline is another commit's (the window after a push, {@link GitLabHeadPipeline}) costs one read of that
 * commit, not one per look while the workflow polls. An unknown commit (no parents read) is not remembered.
 */
final class CommitParents {

    /** How many commits are remembered; the least recently used is forgotten first. */
    static final int REMEMBERED = 512;

    private final BiFunction<String, String, List<String>> read;
    private final Map<String, List<String>> known = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<String>> eldest) {
            return size() > REMEMBERED;
        }
    });

    /** @param read the parents of (project, sha) as GitLab answers them now; empty when it does not know the commit */
    CommitParents(BiFunction<String, String, List<String>> read) {
        this.read = read;
    }

    /** The parents of a commit of {@code project}, read at most once per commit while remembered. */
    Function<String, List<String>> of(String project) {
        return sha -> {
            var key = project + "@" + sha;
            var remembered = known.get(key);
            if (remembered != null) {
                return remembered;
            }
            var parents = read.apply(project, sha);
            if (!parents.isEmpty()) {
                known.put(key, parents);
            }
            return parents;
        };
    }
}

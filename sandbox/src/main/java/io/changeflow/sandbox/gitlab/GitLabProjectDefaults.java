package io.changeflow.sandbox.gitlab;

import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Project settings of the GitLab simulator ({@code sandbox.gitlab.*}, next to {@link GitLabSimulatorProperties}): how
 * projects created from now on merge, and which have no CI. Tests change them per project
 * ({@link GitLabSimulator#setMergeMethod}, {@link GitLabSimulator#setCi}). Bad values fall back to the default.
 *
 * @param mergeMethod       GitLab's {@code merge_method} of every project: {@code merge} (default), {@code ff} or
 *                          {@code rebase_merge}; anything else is {@code merge}
 * @param projectsWithoutCi project paths that have no CI: no pipeline is ever created for them ({@code head_pipeline}
 *                          null); empty by default
 * @param protectDefaultBranch whether every project's default branch is protected, as GitLab protects it by default
 *                          (true unless set to false): no API account may push to it (403), only merge into it
 */
@ConfigurationProperties("sandbox.gitlab")
public record GitLabProjectDefaults(String mergeMethod, List<String> projectsWithoutCi, Boolean protectDefaultBranch) {

    /** GitLab's merge methods (doc/api/projects.md, {@code merge_method}). */
    public enum MergeMethod {
        /** A merge commit; merging is allowed while the target moved on, unless they conflict. */
        MERGE("merge"),
        /**
         * Fast-forward only: the source branch must contain the target's head; otherwise {@code detailed_merge_status}
         * is {@code need_rebase} and merging is refused (17/18.x: 422, 19.x: 405). Merging moves the target to the head.
         */
        FF("ff"),
        /** A merge commit, but only on a source branch that contains the target's head ({@code need_rebase} otherwise). */
        REBASE_MERGE("rebase_merge");

        private final String apiName;

        MergeMethod(String apiName) {
            this.apiName = apiName;
        }

        /** The name GitLab's API uses. */
        public String apiName() {
            return apiName;
        }

        /** Whether the source branch must contain the target's head to be merged. */
        boolean needsRebasedSource() {
            return this != MERGE;
        }

        /** {@code merge}, {@code ff} (or {@code fast_forward}), {@code rebase_merge} (or {@code rebase-merge}); else merge. */
        public static MergeMethod parse(String text) {
            var value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT).replace('-', '_');
            return switch (value) {
                case "ff", "fast_forward" -> FF;
                case "rebase_merge" -> REBASE_MERGE;
                default -> MERGE;
            };
        }
    }

    public GitLabProjectDefaults {
        mergeMethod = MergeMethod.parse(mergeMethod).apiName();
        projectsWithoutCi = projectsWithoutCi == null ? List.of() : List.copyOf(projectsWithoutCi);
        protectDefaultBranch = protectDefaultBranch == null || protectDefaultBranch;
    }

    public static GitLabProjectDefaults defaults() {
        return new GitLabProjectDefaults(null, null, null);
    }

    public MergeMethod method() {
        return MergeMethod.parse(mergeMethod);
    }
}

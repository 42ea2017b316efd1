package io.changeflow.sandbox;

/**
 * Told by the GitLab simulator after every merge, in merge order; the deploy pipeline simulator
 * listens and later reports the change "in effect".
 *
 * @param project     project path, e.g. {@code platform/access-config}
 * @param iid         the merged merge request's number in its project
 * @param description the merge request's description (Changeflow lists operation IDs there)
 */
public interface MergeListener {

    void merged(String project, long iid, String description);
}

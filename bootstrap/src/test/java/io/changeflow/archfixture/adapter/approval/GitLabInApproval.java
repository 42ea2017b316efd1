package io.changeflow.archfixture.adapter.approval;

import org.gitlab4j.api.GitLabApi;

/** Deliberate violation: gitlab4j outside the GitLab adapter. */
public class GitLabInApproval {

    GitLabApi api;
}

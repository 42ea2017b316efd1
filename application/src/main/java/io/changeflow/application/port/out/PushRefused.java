package io.changeflow.application.port.out;

/**
 * GitLab refused a commit or a new branch of Changeflow's because of the project's push rule (a commit message, a
 * branch name, the author's email, a file name or a secret-like file; 400 with the rule's message, issue 35). No retry
 * helps: a person changes the push rule or the target. {@link #rule()} is GitLab's own message, which names the rule
 * and the refused value; it holds nothing secret and is shown to people.
 */
public final class PushRefused extends ExternalCallException {

    private final String rule;

    public PushRefused(String system, String operation, String rule, Throwable cause) {
        super(system, Kind.HTTP_STATUS, 400, operation + ": refused by the project's push rule", cause);
        this.rule = rule;
    }

    /** GitLab's message, e.g. "Author's email 'bot@example.org' does not follow the pattern '@corp\\.com$'". */
    public String rule() {
        return rule;
    }
}

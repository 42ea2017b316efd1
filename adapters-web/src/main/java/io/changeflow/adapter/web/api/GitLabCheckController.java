package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.application.setup.CheckGitLabSetup;
import io.changeflow.application.setup.SetupFinding;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /ops/gitlab-check}: the setup check ({@link CheckGitLabSetup}) run now, reading each catalog project's
 * settings from GitLab: what will stop Changeflow there, how badly, and what to do. Operators only, like every
 * {@code /ops/} path.
 */
@RestController
public final class GitLabCheckController {

    /** One finding: {@code severity} is {@code BLOCKS} or {@code WARNS}. */
    record FindingJson(String project, String what, String severity, String why, String action) {
        static FindingJson of(SetupFinding finding) {
            return new FindingJson(finding.project(), finding.what(), finding.severity().name(), finding.why(),
                    finding.action());
        }
    }

    /** The check's answer: {@code blocking} counts the findings that stop requests. */
    record CheckJson(int blocking, List<FindingJson> findings) {}

    private final CheckGitLabSetup check;

    public GitLabCheckController(CheckGitLabSetup check) {
        this.check = check;
    }

    @Answers(summary = "What in the catalog projects' GitLab settings will stop Changeflow")
    @GetMapping("/ops/gitlab-check")
    ApiResponse<CheckJson> check() {
        var findings = check.check();
        return ApiResponse.ok(new CheckJson(
                (int) findings.stream().filter(f -> f.severity() == SetupFinding.Severity.BLOCKS).count(),
                findings.stream().map(FindingJson::of).toList()));
    }
}

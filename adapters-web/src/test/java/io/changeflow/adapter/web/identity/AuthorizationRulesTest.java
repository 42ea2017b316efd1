package io.changeflow.adapter.web.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.adapter.web.WebProperties;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.web.MockHttpServletRequest;

class AuthorizationRulesTest {

    private static final Set<String> OPERATORS = Set.of("ops.operator", "ops.admin");

    private static Optional<Set<String>> codesFor(AuthorizationRules rules, String path) {
        return rules.ruleCodesFor(new MockHttpServletRequest("GET", path));
    }

    @Test
    void theDefaultsProtectOperationsFaultsAndTheApproverInboxAndLeaveTheSimulatorApisOpen() {
        var rules = AuthorizationRules.of(AuthorizationRules.DEFAULTS);
        assertThat(codesFor(rules, "/ops/operations")).contains(OPERATORS);
        assertThat(codesFor(rules, "/ops/stats")).contains(OPERATORS);
        assertThat(codesFor(rules, "/sandbox/faults")).contains(OPERATORS);
        assertThat(codesFor(rules, "/sandbox/faults/gitlab")).contains(OPERATORS);
        assertThat(codesFor(rules, "/sim/approval/inbox")).contains(Set.of("approvals.approver", "ops.operator", "ops.admin"));
        assertThat(codesFor(rules, "/sim/approval/inbox/T-1/decision")).contains(Set.of("approvals.approver", "ops.operator", "ops.admin"));
        assertThat(codesFor(rules, "/sim/approval/api/approvals")).isEmpty();
        assertThat(codesFor(rules, "/sim/gitlab/api/v4/projects/1")).isEmpty();
        assertThat(codesFor(rules, "/sandbox/login")).isEmpty();
        assertThat(codesFor(rules, "/api/requests")).isEmpty();
        assertThat(codesFor(rules, "/opsx")).isEmpty();
        assertThat(rules.patterns()).containsExactly("/ops/**", "/sandbox/faults/**", "/sim/approval/inbox/**");
        assertThat(rules.allRuleCodes()).containsExactlyInAnyOrder("ops.operator", "ops.admin", "approvals.approver");
    }

    @Test
    void theFirstMatchingRuleDecides() {
        var rules = AuthorizationRules.of(List.of(
                new AuthorizationRules.Rule(List.of("/ops/config"), List.of("ops.admin")),
                new AuthorizationRules.Rule(List.of("/ops/**"), List.of("ops.operator"))));
        assertThat(codesFor(rules, "/ops/config")).contains(Set.of("ops.admin"));
        assertThat(codesFor(rules, "/ops/stats")).contains(Set.of("ops.operator"));
    }

    @Test
    void aRuleWithoutPathsOrWithoutRuleCodesOrWithABadPatternStopsStartUp() {
        assertThatThrownBy(() -> AuthorizationRules.of(List.of(new AuthorizationRules.Rule(List.of("/ops/**"), List.of(" ")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rule code");
        assertThatThrownBy(() -> AuthorizationRules.of(List.of(new AuthorizationRules.Rule(null, List.of("ops.admin")))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AuthorizationRules.of(List.of(new AuthorizationRules.Rule(List.of("/ops/**/x/**"), List.of("a")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a path pattern");
    }

    @Test
    void theTableIsConfigurableAndReplacesTheDefaultsAsAWhole() {
        var environment = new MockEnvironment()
                .withProperty("changeflow.authorization.rules[0].paths", "/ops/**, /reports/**")
                .withProperty("changeflow.authorization.rules[0].rule-codes", "ops.auditor")
                .withProperty("changeflow.authorization.rules[1].paths", "/sim/**")
                .withProperty("changeflow.authorization.rules[1].rule-codes", "sim.user, ops.auditor");
        var rules = AuthorizationRules.of(WebProperties.load(environment).authorizationRules());
        assertThat(codesFor(rules, "/reports/daily")).contains(Set.of("ops.auditor"));
        assertThat(codesFor(rules, "/sim/gitlab/api")).contains(Set.of("sim.user", "ops.auditor"));
        assertThat(codesFor(rules, "/sandbox/faults")).isEmpty();
    }

    @Test
    void theReplacedSettingsStopStartUpInsteadOfBeingIgnored() {
        for (var replaced : WebProperties.REPLACED) {
            assertThatThrownBy(() -> WebProperties.load(new MockEnvironment().withProperty(replaced, "/admin/**")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("changeflow.authorization.rules");
        }
    }

    @Test
    void withoutConfigurationTheDefaultsApply() {
        assertThat(WebProperties.load(new MockEnvironment()).authorizationRules()).isEqualTo(AuthorizationRules.DEFAULTS);
    }
}

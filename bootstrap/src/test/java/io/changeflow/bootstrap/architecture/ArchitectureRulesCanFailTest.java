package io.changeflow.bootstrap.architecture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs every rule against {@code io.changeflow.archfixture}, a small tree of deliberate violations
 * laid out like Changeflow: each rule must report its violation, so none of them can pass vacuously.
 */
class ArchitectureRulesCanFailTest {

    private static final String FIXTURE = "io.changeflow.archfixture";
    private static JavaClasses violations;

    @BeforeAll
    static void importViolations() {
        violations = new ClassFileImporter().importPackages(FIXTURE);
    }

    @Test
    void domainRuleCatchesADomainClassUsingSpring() {
        assertFails(ArchitectureRules.domainDependsOnTheJdkOnly(FIXTURE), "SpringInDomain");
    }

    @Test
    void applicationRuleCatchesAnApplicationClassUsingAnAdapter() {
        assertFails(ArchitectureRules.applicationDependsOnDomainAndTheJdkOnly(FIXTURE), "ApplicationUsingAdapter");
    }

    @Test
    void springRuleCatchesSpringInTheCore() {
        assertFails(ArchitectureRules.noSpringInTheCore(FIXTURE), "SpringInDomain");
    }

    @Test
    void jooqRuleCatchesJooqOutsidePersistence() {
        assertFails(ArchitectureRules.jooqOnlyInPersistence(FIXTURE), "JooqInWeb");
    }

    @Test
    void gitlab4jRuleCatchesGitLab4jOutsideTheGitLabAdapter() {
        assertFails(ArchitectureRules.gitlab4jOnlyInTheGitLabAdapter(FIXTURE), "GitLabInApproval");
    }

    @Test
    void wallClockRuleCatchesInstantNowAndCurrentTimeMillis() {
        assertFails(ArchitectureRules.noWallClockInTheCore(FIXTURE), "Instant.now()");
        assertFails(ArchitectureRules.noWallClockInTheCore(FIXTURE), "System.currentTimeMillis()");
        assertFails(ArchitectureRules.noWallClockInTheCore(FIXTURE), "LocalDateTime.now()");
    }

    @Test
    void adapterRuleCatchesAnAdapterUsingAnotherAdapter() {
        var webRule = ArchitectureRules.adaptersAreIndependent(FIXTURE).getFirst();
        assertFails(webRule, "WebUsingPersistence");
        var localRule = ArchitectureRules.adaptersAreIndependent(FIXTURE).getLast();
        assertFails(localRule, "LocalUsingWeb");
    }

    @Test
    void localRuleCatchesALocalAdapterUsingTheWebAdapterOrHttpTypes() {
        assertFails(ArchitectureRules.localAdaptersAreNotWeb(FIXTURE), "WebUsingPersistence");
        assertFails(ArchitectureRules.localAdaptersAreNotWeb(FIXTURE), "HttpStatus");
    }

    @Test
    void webPackageRulesCatchACycleAndAPackageUsingOneAboveIt() {
        assertFails(ArchitectureRules.webPackagesAreFreeOfCycles(FIXTURE), "IdentityUsingApi");
        var identityRule = ArchitectureRules.webPackagesKeepTheirDirection(FIXTURE).stream()
                .filter(rule -> rule.getDescription().startsWith("adapter.web.identity ")).findFirst().orElseThrow();
        assertFails(identityRule, "IdentityUsingApi");
    }

    private static void assertFails(ArchRule rule, String mentioned) {
        assertThatThrownBy(() -> rule.check(violations))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(mentioned);
    }
}

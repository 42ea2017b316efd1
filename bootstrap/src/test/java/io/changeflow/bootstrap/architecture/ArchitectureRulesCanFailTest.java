package io.changeflow.bootstrap.architecture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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

    static List<Arguments> rules() {
        return List.of(
                argumentSet("the domain rule catches a domain class using Spring",
                        ArchitectureRules.domainDependsOnTheJdkOnly(FIXTURE), List.of("SpringInDomain")),
                argumentSet("the application rule catches an application class using an adapter",
                        ArchitectureRules.applicationDependsOnDomainAndTheJdkOnly(FIXTURE), List.of("ApplicationUsingAdapter")),
                argumentSet("the Spring rule catches Spring in the core",
                        ArchitectureRules.noSpringInTheCore(FIXTURE), List.of("SpringInDomain")),
                argumentSet("the jOOQ rule catches jOOQ outside persistence",
                        ArchitectureRules.jooqOnlyInPersistence(FIXTURE), List.of("JooqInWeb")),
                argumentSet("the gitlab4j rule catches gitlab4j outside the GitLab adapter",
                        ArchitectureRules.gitlab4jOnlyInTheGitLabAdapter(FIXTURE), List.of("GitLabInApproval")),
                argumentSet("the wall clock rule catches Instant.now() and System.currentTimeMillis()",
                        ArchitectureRules.noWallClockInTheCore(FIXTURE),
                        List.of("Instant.now()", "System.currentTimeMillis()", "LocalDateTime.now()")),
                argumentSet("the adapter rule catches the web adapter using another adapter",
                        ArchitectureRules.adaptersAreIndependent(FIXTURE).getFirst(), List.of("WebUsingPersistence")),
                argumentSet("the adapter rule catches the local adapter using another adapter",
                        ArchitectureRules.adaptersAreIndependent(FIXTURE).stream()
                                .filter(rule -> rule.getDescription().startsWith("the local adapter ")).findFirst().orElseThrow(),
                        List.of("LocalUsingWeb")),
                argumentSet("the local rule catches a local adapter using the web adapter or HTTP types",
                        ArchitectureRules.localAdaptersAreNotWeb(FIXTURE), List.of("WebUsingPersistence", "HttpStatus")),
                argumentSet("the web package rules catch a cycle",
                        ArchitectureRules.webPackagesAreFreeOfCycles(FIXTURE), List.of("IdentityUsingApi")),
                argumentSet("the web package rules catch a package using one above it",
                        ArchitectureRules.webPackagesKeepTheirDirection(FIXTURE).stream()
                                .filter(rule -> rule.getDescription().startsWith("adapter.web.identity ")).findFirst().orElseThrow(),
                        List.of("IdentityUsingApi")));
    }

    @ParameterizedTest
    @MethodSource("rules")
    void reportsItsViolation(ArchRule rule, List<String> mentioned) {
        mentioned.forEach(text -> assertFails(rule, text));
    }

    private static void assertFails(ArchRule rule, String mentioned) {
        assertThatThrownBy(() -> rule.check(violations))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(mentioned);
    }
}

package io.changeflow.bootstrap.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The hexagonal rules that Maven's module graph cannot enforce, checked on every build. */
class ArchitectureTest {

    private static final String ROOT = "io.changeflow";
    private static JavaClasses changeflow;

    @BeforeAll
    static void importChangeflow() {
        changeflow = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TEST_FIXTURES)
                // test jars (the application's in-memory fakes) are tests too, wherever they come from
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages(ROOT);
    }

    @Test
    void domainDependsOnTheJdkOnly() {
        ArchitectureRules.domainDependsOnTheJdkOnly(ROOT).check(changeflow);
    }

    @Test
    void applicationDependsOnDomainAndTheJdkOnly() {
        ArchitectureRules.applicationDependsOnDomainAndTheJdkOnly(ROOT).check(changeflow);
    }

    @Test
    void springIsNowhereInTheCore() {
        ArchitectureRules.noSpringInTheCore(ROOT).check(changeflow);
    }

    @Test
    void jooqOnlyInThePersistenceAdapter() {
        ArchitectureRules.jooqOnlyInPersistence(ROOT).check(changeflow);
    }

    @Test
    void gitlab4jOnlyInTheGitLabAdapter() {
        ArchitectureRules.gitlab4jOnlyInTheGitLabAdapter(ROOT).check(changeflow);
    }

    @Test
    void theCoreNeverReadsTheWallClock() {
        ArchitectureRules.noWallClockInTheCore(ROOT).check(changeflow);
    }

    @Test
    void adaptersNeverDependOnEachOther() {
        ArchitectureRules.adaptersAreIndependent(ROOT).forEach(rule -> rule.check(changeflow));
    }

    @Test
    void theLocalAdaptersAreNotWeb() {
        ArchitectureRules.localAdaptersAreNotWeb(ROOT).check(changeflow);
    }

    @Test
    void theWebAdaptersPackagesKeepTheirDirection() {
        ArchitectureRules.webPackagesAreFreeOfCycles(ROOT).check(changeflow);
        ArchitectureRules.webPackagesKeepTheirDirection(ROOT).forEach(rule -> rule.check(changeflow));
    }

    @Test
    void theImportSeesEveryLayer() {
        // Guards against a rule passing vacuously because a layer was not on the class path.
        org.assertj.core.api.Assertions.assertThat(changeflow.stream().map(c -> c.getPackageName()))
                .anyMatch(p -> p.startsWith(ROOT + ".domain"))
                .anyMatch(p -> p.startsWith(ROOT + ".application"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.persistence"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.gitlab"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.approval"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.web"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.local"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.web.api"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.web.envelope"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.web.guard"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.web.identity"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.web.metrics"))
                .anyMatch(p -> p.startsWith(ROOT + ".adapter.scheduler"))
                .anyMatch(p -> p.startsWith(ROOT + ".bootstrap"));
    }
}

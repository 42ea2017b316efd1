package io.changeflow.bootstrap.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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

    static List<Arguments> rules() {
        return ArchitectureRules.all(ROOT).stream()
                .<Arguments>map(rule -> argumentSet(rule.getDescription(), rule)).toList();
    }

    @ParameterizedTest
    @MethodSource("rules")
    void changeflowKeepsTheRule(ArchRule rule) {
        rule.check(changeflow);
    }

    @Test
    void theImportSeesEveryLayer() {
        // Guards against a rule passing vacuously because a layer was not on the class path.
        var packages = changeflow.stream().map(JavaClass::getPackageName).toList();
        assertThat(List.of("domain", "application", "adapter.persistence", "adapter.gitlab", "adapter.approval",
                "adapter.web", "adapter.local", "adapter.web.api", "adapter.web.envelope", "adapter.web.guard",
                "adapter.web.identity", "adapter.web.metrics", "adapter.scheduler", "adapter.notify", "bootstrap"))
                .allSatisfy(layer -> assertThat(packages).anyMatch(p -> p.startsWith(ROOT + "." + layer)));
    }
}

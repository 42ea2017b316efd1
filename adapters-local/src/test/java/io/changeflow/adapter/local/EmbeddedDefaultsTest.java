package io.changeflow.adapter.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.identity.Identity;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;

class EmbeddedDefaultsTest {

    @Test
    void theDemoDirectoryKnowsTheContractsPeople() {
        var file = PeopleFile.load(new ClassPathResource("changeflow/demo-directory.properties"));
        var directory = new PeopleFileDirectory(file);
        assertThat(directory.accountOf("E1001")).hasValue("alice");
        assertThat(directory.accountOf("e1002")).hasValue("bob");
        assertThat(directory.accountOf("E7777")).isEmpty();
        assertThat(file.byAccount("alice")).hasValueSatisfying(p -> assertThat(p.email()).isEqualTo("alice@corp.example"));
        assertThat(file.people()).extracting(PeopleFile.Person::account).contains("alice", "bob", "amy", "otto");
    }

    @Test
    void outsideTheSandboxTheDemoDirectoryIsNeverUsed() {
        var loader = new org.springframework.core.io.DefaultResourceLoader();
        var unconfigured = PeopleFile.configured("", false, true, loader);
        var demoNamed = PeopleFile.configured(PeopleFile.DEMO_LOCATION, false, true, loader);
        for (var file : java.util.List.of(unconfigured, demoNamed)) {
            assertThat(file.people()).isEmpty();
            assertThat(new PeopleFileDirectory(file).accountOf("E1004")).isEmpty();
        }
    }

    @Test
    void theSandboxUsesTheDemoDirectoryUnlessAnotherIsConfigured() {
        var loader = new org.springframework.core.io.DefaultResourceLoader();
        assertThat(new PeopleFileDirectory(PeopleFile.configured("", true, true, loader)).accountOf("E1004")).hasValue("otto");
        assertThat(PeopleFile.configured("file:/nonexistent/directory.properties", true, true, loader).people()).isEmpty();
    }

    /** Issue 37: the relations of the {@code related} policy of who may ask for whom. */
    @Test
    void theDirectoryRelatesAManagerAndTheirReportAndOneTeamButNobodyElse(@org.junit.jupiter.api.io.TempDir
                                                                           java.nio.file.Path dir) throws Exception {
        var properties = dir.resolve("people.properties");
        java.nio.file.Files.writeString(properties, String.join("\n", "maria.team=payments", "bob.manager=Maria",
                "bob.team=payments", "carl.team=payments", "dora.team=search", "erik.employeeId=E7"));
        var directory = new PeopleFileDirectory(PeopleFile.load(new FileSystemResource(properties)));

        assertThat(directory.relates("maria", "bob")).as("manager for report").isTrue();
        assertThat(directory.relates("bob", "maria")).as("report for manager").isTrue();
        assertThat(directory.relates("carl", "bob")).as("one team").isTrue();
        assertThat(directory.relates("dora", "bob")).as("another team").isFalse();
        assertThat(directory.relates("erik", "bob")).as("no team").isFalse();
        assertThat(directory.relates("erik", "nobody")).isFalse();
    }

    @Test
    void aMissingDirectoryFileIsAnEmptyDirectoryNotAFailedStart() {
        var file = PeopleFile.load(new FileSystemResource("/nonexistent/directory.properties"));
        assertThat(file.people()).isEmpty();
        assertThat(new PeopleFileDirectory(file).accountOf("E1001")).isEmpty();
    }

    @Test
    void configuredPermissionsGrantOnlyWhatIsConfiguredToVerifiedIdentities() {
        var permissions = new ConfiguredPermissions(Map.of("otto", "ops.operator", "Ada", " ops.admin , other "));
        var wanted = Set.of("ops.operator", "ops.admin");
        assertThat(permissions.granted(Identity.verified("otto"), wanted)).containsExactly("ops.operator");
        assertThat(permissions.granted(Identity.verified("ada"), wanted)).containsExactly("ops.admin");
        assertThat(permissions.granted(Identity.verified("alice"), wanted)).isEmpty();
        assertThat(permissions.granted(new Identity("otto", Identity.Trust.UNVERIFIED), wanted)).isEmpty();
        assertThat(permissions.granted(Identity.verified("otto"), Set.of("ops.unknown"))).isEmpty();
    }
}

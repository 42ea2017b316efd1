package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.adapter.persistence.ExpandOnlyMigrations.Script;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every migration only expands the schema (issue 31, docs/operations.md "Upgrading"): the previous release runs on
 * the new schema during a rolling upgrade and after a rollback, so no script may drop, rename or narrow what it
 * reads. The planted scripts below are text fed to the rule after the real migrations; they are never in
 * {@code db/migration}.
 */
class ExpandOnlyMigrationsTest {

    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__.+\\.sql");
    private static final String RELEASE = "0.5.0-SNAPSHOT";

    @Test
    void everyMigrationOfTheRepositoryOnlyExpands() throws Exception {
        var scripts = realMigrations();
        assertThat(scripts).as("the migration folder is read").hasSizeGreaterThanOrEqualTo(12);

        assertThat(ExpandOnlyMigrations.check(releaseBeingBuilt(), scripts)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
        drop column                 | ALTER TABLE operation DROP COLUMN detail                    | drops the column operation.detail
        drop column, no keyword     | alter table operation drop reason                            | drops the column operation.reason
        drop column among others    | ALTER TABLE binding ADD KEY k (status), DROP expires_at      | drops the column binding.expires_at
        drop table                  | DROP TABLE IF EXISTS scan_cursor                             | drops the table scan_cursor
        rename column               | ALTER TABLE operation RENAME COLUMN reason TO why            | renames the column operation.reason to why
        change to another name      | ALTER TABLE operation CHANGE reason why VARCHAR(1000) NOT NULL | renames the column operation.reason to why
        rename table                | RENAME TABLE audit_log TO audit_entry                        | renames the table audit_log to audit_entry
        alter table rename          | ALTER TABLE audit_log RENAME TO audit_entry                  | renames the table audit_log to audit_entry
        shorter varchar             | ALTER TABLE operation MODIFY reason VARCHAR(200) NOT NULL    | narrows the column operation.reason: VARCHAR(1000) NOT NULL to VARCHAR(200) NOT NULL
        smaller integer             | ALTER TABLE operation MODIFY mr_iid INT NULL                 | narrows the column operation.mr_iid: BIGINT NULL to INT NULL
        another type                | ALTER TABLE operation MODIFY COLUMN step VARCHAR(16) NOT NULL | narrows the column operation.step: INT NOT NULL to VARCHAR(16) NOT NULL
        null to not null            | ALTER TABLE operation MODIFY expires_at DATETIME(3) NOT NULL DEFAULT '2030-01-01' | NULL to NOT NULL
        not null loses its default  | ALTER TABLE operation MODIFY change_kind VARCHAR(16) NOT NULL | a NOT NULL column loses its DEFAULT
        drop default of not null    | ALTER TABLE operation ALTER COLUMN detail DROP DEFAULT       | drops the default of the NOT NULL column operation.detail
        narrowed by change          | ALTER TABLE merge_batch_request CHANGE depth depth TINYINT NOT NULL DEFAULT 0 | narrows the column merge_batch_request.depth: INT NOT NULL to TINYINT NOT NULL
        """)
    void refusesAPlantedMigrationThatRemovesOrNarrowsWhatThePreviousReleaseReads(String what, String planted,
            String reason) throws Exception {
        var refusals = checkAfterTheRealOnes(planted);

        assertThat(refusals).singleElement().satisfies(refusal -> {
            assertThat(refusal.script()).isEqualTo("V99__planted.sql");
            assertThat(refusal.reason()).contains(reason);
            assertThat(refusal.toString()).contains(planted.split(" ")[0]);
        });
    }

    @Test
    void theRefusalSaysWhatToDoInstead() throws Exception {
        var refusals = checkAfterTheRealOnes("ALTER TABLE operation DROP COLUMN detail");

        assertThat(refusals).singleElement().hasToString("V99__planted.sql: drops the column operation.detail, which"
                + " the previous release still reads: a release only expands the schema; remove it one release after"
                + " the code stopped reading it, with the marker '-- contract: operation.detail unread since <that"
                + " release>' [ALTER TABLE operation DROP COLUMN detail]");
    }

    @Test
    void addingANotNullColumnWithoutADefaultToAnExistingTableIsRefusedEvenWithAMarker() throws Exception {
        var refusals = checkAfterTheRealOnes("""
            -- contract: operation.ticket unread since 0.4.0
            ALTER TABLE operation ADD COLUMN ticket VARCHAR(64) NOT NULL;
            """);

        assertThat(refusals).singleElement().satisfies(refusal -> assertThat(refusal.reason())
                .startsWith("adds the NOT NULL column operation.ticket without a DEFAULT to an existing table"));
    }

    @Test
    void aContractMarkerNamingAnOlderReleaseLetsTheRemovalThrough() throws Exception {
        var refusals = checkAfterTheRealOnes("""
            -- contract: operation.detail unread since 0.4.0
            -- contract: scan_cursor unread since 0.3.1
            ALTER TABLE operation DROP COLUMN detail;
            DROP TABLE scan_cursor;
            """);

        assertThat(refusals).isEmpty();
    }

    @Test
    void aContractMarkerMustNameAReleaseOlderThanTheOneBeingBuilt() throws Exception {
        var refusals = checkAfterTheRealOnes("""
            -- contract: operation.detail unread since 0.5.0
            ALTER TABLE operation DROP COLUMN detail;
            """);

        assertThat(refusals).singleElement().satisfies(refusal -> assertThat(refusal.reason())
                .contains("names release 0.5.0, which is not older than the release being built (0.5.0)"));
    }

    @Test
    void aContractMarkerCoversOnlyWhatItNames() throws Exception {
        var refusals = checkAfterTheRealOnes("""
            -- contract: operation.detail unread since 0.4.0
            ALTER TABLE operation DROP COLUMN detail, DROP COLUMN reason;
            """);

        assertThat(refusals).singleElement().satisfies(refusal -> assertThat(refusal.reason())
                .startsWith("drops the column operation.reason,"));
    }

    @Test
    void expandingChangesPass() throws Exception {
        var refusals = checkAfterTheRealOnes("""
            CREATE TABLE instance (id VARCHAR(64) NOT NULL, version VARCHAR(64) NOT NULL, PRIMARY KEY (id));
            ALTER TABLE operation
              ADD COLUMN format_version INT NOT NULL DEFAULT 1,
              ADD COLUMN note VARCHAR(255) NULL COMMENT 'a note, NOT NULL in a comment is a comment',
              MODIFY reason VARCHAR(2000) NOT NULL,
              MODIFY mr_iid BIGINT NULL,
              ADD KEY idx_operation_note (note),
              ALGORITHM = INPLACE;
            ALTER TABLE merge_batch_request MODIFY depth BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE audit_log MODIFY parameters MEDIUMTEXT NOT NULL;
            ALTER TABLE operation ALTER COLUMN mr_branch SET DEFAULT 'main';
            CREATE INDEX idx_instance_version ON instance (version);
            DROP INDEX idx_instance_version ON instance;
            ALTER TABLE deploy_callback DROP KEY idx_deploy_callback_created;
            """);

        assertThat(refusals).isEmpty();
    }

    @Test
    void aColumnIsJudgedAgainstWhatTheEarlierMigrationsMadeOfIt() throws Exception {
        // V7 added transient_failures INT NOT NULL DEFAULT 0 to a V2 table: narrowing it is seen through both scripts
        var refusals = checkAfterTheRealOnes("ALTER TABLE merge_batch_request MODIFY transient_failures SMALLINT NOT NULL"
                + " DEFAULT 0");

        assertThat(refusals).singleElement().satisfies(refusal -> assertThat(refusal.reason())
                .contains("INT NOT NULL to SMALLINT NOT NULL"));
    }

    private static List<ExpandOnlyMigrations.Refusal> checkAfterTheRealOnes(String planted) throws Exception {
        var scripts = new ArrayList<>(realMigrations());
        scripts.add(new Script("V99__planted.sql", planted));
        return ExpandOnlyMigrations.check(RELEASE, scripts);
    }

    /** The scripts of {@code db/migration} on the class path, in Flyway's version order. */
    private static List<Script> realMigrations() throws IOException, URISyntaxException {
        var folder = Path.of(ExpandOnlyMigrationsTest.class.getClassLoader().getResource("db/migration").toURI());
        var scripts = new ArrayList<Script>();
        try (var files = Files.list(folder)) {
            for (var file : files.sorted(Comparator.comparingInt(ExpandOnlyMigrationsTest::version)).toList()) {
                scripts.add(new Script(file.getFileName().toString(), Files.readString(file)));
            }
        }
        return scripts;
    }

    private static int version(Path file) {
        var matcher = VERSIONED.matcher(file.getFileName().toString());
        if (!matcher.matches()) {
            throw new IllegalStateException("not a versioned migration: " + file);
        }
        return Integer.parseInt(matcher.group(1));
    }

    /** The project version, from the build (the module's surefire configuration). */
    private static String releaseBeingBuilt() {
        var version = System.getProperty("changeflow.version");
        assertThat(version).as("system property changeflow.version (set by the module's surefire configuration)")
                .isNotBlank();
        return version;
    }
}

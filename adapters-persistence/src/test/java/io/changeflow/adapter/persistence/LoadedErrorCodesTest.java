package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import org.jooq.SQLDialect;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;

/**
 * jOOQ's exception translation with Spring's error codes loaded at start-up (issue 34): the translators of the servers
 * the adapter runs on are built when the bean is, and the first failure reuses them; they translate as Spring Boot's
 * default does (a duplicate key is a {@link DuplicateKeyException}).
 */
class LoadedErrorCodesTest {

    @Test
    void theTranslatorsOfMySqlAndMariaDbAreBuiltBeforeAnyFailureAndReused() {
        var codes = new LoadedErrorCodes();
        // jOOQ names Spring's MySQL error codes for both dialects (sql-error-codes.xml lists MariaDB under MySQL)
        assertThat(codes.loaded()).containsExactly("MySQL");
        var mariaDb = codes.forDialect(SQLDialect.MARIADB);
        assertThat(mariaDb).isInstanceOf(SQLErrorCodeSQLExceptionTranslator.class);
        assertThat(codes.forDialect(SQLDialect.MARIADB)).as("one translator per database, not one per failure")
                .isSameAs(mariaDb);
        assertThat(codes.forDialect(SQLDialect.MYSQL)).isSameAs(mariaDb);
        assertThat(codes.loaded()).hasSize(1);
    }

    @Test
    void aDuplicateKeyAndALostConnectionAreTranslatedAsBootsDefaultDoes() {
        var translator = new LoadedErrorCodes().forDialect(SQLDialect.MYSQL);
        var duplicate = new SQLIntegrityConstraintViolationException("Duplicate entry 'x' for key 'uk'", "23000", 1062);
        assertThat(translator.translate("insert", "insert ...", duplicate)).isInstanceOf(DuplicateKeyException.class);
        var lost = new SQLException("Communications link failure", "08S01", 0);
        assertThat(translator.translate("select", "select 1", lost)).isNotNull()
                .satisfies(e -> assertThat(e.getCause()).isSameAs(lost));
        assertThat(new LoadedErrorCodes().forDialect(null).translate("select", "select 1", lost)).isNotNull()
                .isNotInstanceOf(TransientDataAccessResourceException.class);
    }
}

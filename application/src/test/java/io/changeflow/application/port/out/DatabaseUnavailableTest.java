package io.changeflow.application.port.out;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class DatabaseUnavailableTest {

    @Test
    void theDatabaseNotAnsweringIsUnavailableWhoeverWrappedIt() {
        assertThat(DatabaseUnavailable.in(wrapped(new SQLTransientConnectionException("pool wait")))).isTrue();
        assertThat(DatabaseUnavailable.in(wrapped(new SQLTimeoutException("statement limit")))).isTrue();
        assertThat(DatabaseUnavailable.in(wrapped(new SQLRecoverableException("Communications link failure")))).isTrue();
        assertThat(DatabaseUnavailable.in(wrapped(new SQLNonTransientConnectionException("connection closed")))).isTrue();
        assertThat(DatabaseUnavailable.in(wrapped(new SQLException("link", "08S01")))).isTrue();
    }

    @Test
    void theReasonIsTheFirstSuchCause() {
        assertThat(DatabaseUnavailable.reason(wrapped(new SQLTransientConnectionException("pool wait"))))
                .contains(DatabaseUnavailable.Reason.POOL_WAIT);
        assertThat(DatabaseUnavailable.reason(wrapped(new SQLTimeoutException("limit"))))
                .contains(DatabaseUnavailable.Reason.STATEMENT_DEADLINE);
        assertThat(DatabaseUnavailable.reason(wrapped(new SQLRecoverableException("link"))))
                .contains(DatabaseUnavailable.Reason.CONNECTION_LOST);
        assertThat(DatabaseUnavailable.reason(new IllegalStateException("a bug"))).isEmpty();
    }

    @Test
    void aWrongStatementOrAnotherFailureIsNot() {
        assertThat(DatabaseUnavailable.in(wrapped(new SQLIntegrityConstraintViolationException("dup", "23000", 1062))))
                .isFalse();
        assertThat(DatabaseUnavailable.in(wrapped(new SQLException("syntax", "42000")))).isFalse();
        assertThat(DatabaseUnavailable.in(new IllegalStateException("a bug"))).isFalse();
    }

    @Test
    void aCauseChainWithALoopEnds() {
        var first = new RuntimeException("a");
        var second = new RuntimeException("b", first);
        first.initCause(second);
        assertThat(DatabaseUnavailable.in(first)).isFalse();
    }

    private static RuntimeException wrapped(SQLException root) {
        return new RuntimeException("data access", new RuntimeException("jOOQ", root));
    }
}

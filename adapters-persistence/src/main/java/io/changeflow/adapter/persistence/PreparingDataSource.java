package io.changeflow.adapter.persistence;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/** A {@link DataSource} that hands out every connection of the one it wraps through {@link #prepared}. */
abstract class PreparingDataSource extends DelegatingDataSource {

    PreparingDataSource(DataSource target) {
        super(target);
    }

    /** {@code connection} as the caller gets it; an implementation closes it when preparing it fails. */
    abstract Connection prepared(Connection connection) throws SQLException;

    @Override
    public final Connection getConnection() throws SQLException {
        return prepared(obtainTargetDataSource().getConnection());
    }

    @Override
    public final Connection getConnection(String username, String password) throws SQLException {
        return prepared(obtainTargetDataSource().getConnection(username, password));
    }
}

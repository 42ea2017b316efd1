package io.changeflow.adapter.persistence;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.ExecuteContext;
import org.jooq.SQLDialect;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

/**
 * The exception translator of each jOOQ dialect, as Spring Boot's default chooses it (Spring's error codes of the
 * dialect's database, else the SQLException subclasses), built once and ahead of need: the translator of MySQL and
 * MariaDB (the servers this adapter runs on; jOOQ names Spring's MySQL error codes for both) when constructed, so Spring's {@code sql-error-codes.xml} is parsed at
 * start-up and not by the first request that meets a database failure. Issue 34, docs/reliability.md.
 */
final class LoadedErrorCodes {

    private static final SQLExceptionTranslator BY_SUBCLASS = new SQLExceptionSubclassTranslator();

    private final Map<String, SQLExceptionTranslator> byDatabase = new ConcurrentHashMap<>();

    LoadedErrorCodes() {
        forDialect(SQLDialect.MYSQL);
        forDialect(SQLDialect.MARIADB);
    }

    SQLExceptionTranslator translator(ExecuteContext context) {
        return forDialect(context.configuration().dialect());
    }

    SQLExceptionTranslator forDialect(@Nullable SQLDialect dialect) {
        var database = dialect == null ? null : dialect.thirdParty().springDbName();
        if (database == null) {
            return BY_SUBCLASS;
        }
        return byDatabase.computeIfAbsent(database, SQLErrorCodeSQLExceptionTranslator::new);
    }

    /** The databases whose translators are built. */
    Set<String> loaded() {
        return Set.copyOf(byDatabase.keySet());
    }
}

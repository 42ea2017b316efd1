package io.changeflow.domain.identity;

import java.util.Optional;

/** Maps an employee ID (e.g. {@code E10023}) to its account. May throw when the directory is down. */
@FunctionalInterface
public interface EmployeeDirectory {

    /** The account of this employee ID, or empty when the directory does not know it. */
    Optional<String> accountOf(String employeeId);
}

package io.changeflow.application.port.out;

import io.changeflow.domain.identity.EmployeeDirectory;

/** The company directory: maps employee IDs to accounts for the identity resolver. May throw when down. */
public interface Directory extends EmployeeDirectory {
}

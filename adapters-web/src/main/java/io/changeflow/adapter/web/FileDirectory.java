package io.changeflow.adapter.web;

import io.changeflow.application.port.out.Directory;
import java.util.Optional;

/**
 * The embedded default {@link Directory}: employee IDs looked up in the {@link DirectoryFile}
 * (in the sandbox the demo directory: alice E1001, bob E1002, amy, otto). A deployment with a real
 * company directory wires its own adapter and sets {@code changeflow.identity.embedded-defaults=false}.
 */
final class FileDirectory implements Directory {

    private final DirectoryFile file;

    FileDirectory(DirectoryFile file) {
        this.file = file;
    }

    @Override
    public Optional<String> accountOf(String employeeId) {
        return file.byEmployeeId(employeeId).map(DirectoryFile.Person::account);
    }
}

package io.changeflow.adapter.local;

import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.application.port.out.Directory;
import java.util.Optional;

/**
 * The embedded default {@link Directory}: employee IDs looked up in the {@link PeopleFile}
 * (in the sandbox the demo directory: alice E1001, bob E1002, amy, otto), and who relates to whom from the
 * file's {@code .manager} and {@code .team} keys. A deployment with a real
 * company directory wires its own adapter and sets {@code changeflow.identity.embedded-defaults=false}.
 */
public final class PeopleFileDirectory implements Directory {

    private final PeopleFile file;

    public PeopleFileDirectory(PeopleFile file) {
        this.file = file;
    }

    @Override
    public Optional<String> accountOf(String employeeId) {
        return file.byEmployeeId(employeeId).map(DemoPeople.Person::account);
    }

    /** Related as the people file says: {@code <account>.manager} either way round, or one {@code <account>.team}. */
    @Override
    public boolean relates(String requester, String subject) {
        return file.relates(requester, subject);
    }
}

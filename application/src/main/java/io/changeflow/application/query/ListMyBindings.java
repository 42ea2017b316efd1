package io.changeflow.application.query;

import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.request.SubjectId;
import java.util.List;

/** The subject-target relationships of the caller (one row each, whoever's request owns it now). */
public final class ListMyBindings {

    /** @param account the caller's canonical account, which is also their subject ID */
    public record Command(String account) {}

    private final Operations operations;

    public ListMyBindings(Operations operations) {
        this.operations = operations;
    }

    /** Empty when the account is not a valid subject. */
    public List<Binding> list(Command command) {
        return SubjectId.parse(command.account()).map(operations::bindingsOf).orElse(List.of());
    }
}

package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.query.RequestView;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 15: the status read ({@code GET /api/requests/{id}}, {@link ShowChangeRequest}) reads the operation with its
 * timeline in one statement ({@code findWithHistory}), and answers exactly what {@code find} plus {@code history}
 * answered. Statement counts are asserted, never times.
 */
class StatusReadCostTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    @Test
    void theRequesterReadsARequestWithItsTimelineInOneStatement() {
        var operations = persistence.operations();
        var op = Fixtures.walked(operations, Fixtures.request(Fixtures.unique("s"), Fixtures.unique("t")),
                WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_GRANTED_MERGE, WorkflowEvent.HANDLE_STARTED);
        var show = new ShowChangeRequest(operations, (identity, rules) -> Set.of());
        var recorder = persistence.statements();

        recorder.start();
        var shown = show.show(new ShowChangeRequest.Command(op.id().value(), Identity.verified("alice")));
        var statements = recorder.stop();

        assertThat(statements).hasSize(1);
        var expected = RequestView.of(operations.find(op.id()).orElseThrow(), operations.history(op.id()));
        assertThat(shown).contains(expected);
        assertThat(shown.get().timeline()).hasSize(4);
    }

    @Test
    void anUnknownOrInvisibleRequestCostsOneStatementAndShowsNothing() {
        var operations = persistence.operations();
        var op = Fixtures.opened(operations, Fixtures.request(Fixtures.unique("s"), Fixtures.unique("t")));
        var show = new ShowChangeRequest(operations, (identity, rules) -> Set.of());
        var recorder = persistence.statements();

        recorder.start();
        var unknown = show.show(new ShowChangeRequest.Command(Fixtures.newId().value(), Identity.verified("alice")));
        var invisible = show.show(new ShowChangeRequest.Command(op.id().value(), Identity.verified("mallory")));
        var statements = recorder.stop();

        assertThat(unknown).isEmpty();
        assertThat(invisible).isEmpty();
        assertThat(statements).hasSize(2);
    }

    /**
     * Issue 33: the conditional status read (If-None-Match) reads the request's version with one indexed statement
     * (the operation by its primary key, with its binding and batch) and no history; the full read's version is the
     * same. (With the work queue, a request the service is to act on adds the scheduler's read of its step.)
     */
    @Test
    void theVersionOfARequestViewCostsOneStatementWithoutTheTimeline() {
        var operations = persistence.operations();
        var op = Fixtures.walked(operations, Fixtures.request(Fixtures.unique("s"), Fixtures.unique("t")),
                WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_GRANTED_MERGE, WorkflowEvent.HANDLE_STARTED);
        var show = new ShowChangeRequest(operations, (identity, rules) -> Set.of());
        var command = new ShowChangeRequest.Command(op.id().value(), Identity.verified("alice"));
        var recorder = persistence.statements();

        recorder.start();
        var version = show.version(command);
        var statements = recorder.stop();

        assertThat(statements).hasSize(1);
        assertThat(statements.getFirst()).doesNotContain("operation_history");
        assertThat(version).contains(show.read(command).orElseThrow().version());
    }
}

package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Operations.RequestFilter;
import io.changeflow.application.port.out.Operations.RowVersion;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.query.ListMyRequests;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 33: the version of a page of my records reads the row versions of exactly the rows {@code requestsOf} lists,
 * in one statement of the same conditions, and changes with what the list shows. Statement counts, never times.
 */
class MyRecordsVersionTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    private static ChangeRequest requestBy(String requester, String subject) {
        return new ChangeRequest(Fixtures.newId(), requester, TargetKey.of(Fixtures.unique("t")), SubjectId.of(subject),
                "needed for a test", Optional.empty());
    }

    @Test
    void theRowVersionsAreThoseOfTheListedRowsInOrderReadInOneStatement() {
        var operations = persistence.operations();
        var person = Fixtures.unique("p");
        Fixtures.opened(operations, requestBy(person, person));
        Fixtures.walked(operations, requestBy(person, Fixtures.unique("s")), WorkflowEvent.APPROVAL_SUBMITTED);
        Fixtures.opened(operations, requestBy(Fixtures.unique("other"), person));
        var recorder = persistence.statements();

        for (var filter : new RequestFilter[] {RequestFilter.ANY,
                new RequestFilter(Optional.of(BindingStatus.APPROVAL_SENT), Optional.empty())}) {
            recorder.start();
            var versions = operations.requestVersionsOf(person, filter, 0, 21);
            var statements = recorder.stop();

            assertThat(statements).hasSize(1);
            assertThat(versions).isEqualTo(operations.requestsOf(person, filter, 0, 21).stream().map(RowVersion::of).toList());
        }
        assertThat(operations.requestVersionsOf(person, RequestFilter.ANY, 0, 21)).hasSize(3);
        assertThat(operations.requestVersionsOf(person, RequestFilter.ANY, 1, 1)).hasSize(1);
    }

    @Test
    void thePagesVersionIsTheFullReadsAndChangesWhenARowChanges() {
        var operations = persistence.operations();
        var person = Fixtures.unique("p");
        var op = Fixtures.opened(operations, requestBy(person, person));
        var list = new ListMyRequests(operations);
        var command = new ListMyRequests.Command(person, 0, 20);

        var before = list.version(command);
        assertThat(list.read(command).version()).isEqualTo(before);

        operations.apply(op.id(), op.version(), WorkflowEvent.APPROVAL_SUBMITTED, StepNote.system("sent"));

        assertThat(list.version(command)).isNotEqualTo(before).isEqualTo(list.read(command).version());
    }
}

package io.changeflow.application.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.OperationId;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: the version of a request view ({@link ShowChangeRequest#version}), the ETag of the conditional status
 * read: the same as the full read's while nothing shown changed, another one as soon as anything shown did, and
 * nothing for a request the viewer may not read.
 */
class RequestViewVersionTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    private ShowChangeRequest.Command as(String viewer, OperationId id) {
        return new ShowChangeRequest.Command(id.value(), Identity.verified(viewer));
    }

    @Test
    void theCheapVersionIsTheFullReadsVersionAndStaysWhileNothingChanges() {
        var id = app.submittedAndRun("alice");

        var full = app.showRequest.read(as("alice", id)).orElseThrow();
        var version = app.showRequest.version(as("alice", id));

        assertThat(version).contains(full.version());
        assertThat(app.showRequest.version(as("alice", id))).as("read again").contains(full.version());
        assertThat(app.showRequest.version(as("otto", id))).as("an operator's").contains(full.version());
    }

    @Test
    void aStateWriteChangesTheVersion() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "alice");
        var before = app.showRequest.version(as("alice", id)).orElseThrow();

        app.queue.runUntilIdle();

        var after = app.showRequest.read(as("alice", id)).orElseThrow();
        assertThat(after.view().timeline()).hasSizeGreaterThan(1);
        assertThat(after.version()).isNotEqualTo(before);
        assertThat(app.showRequest.version(as("alice", id))).contains(after.version());
    }

    @Test
    void aRescheduledLookWithoutAnyStateWriteChangesTheVersionWithTheNextAttemptShown() {
        var id = app.openedWithPipelineRunning("alice");
        var before = app.showRequest.read(as("alice", id)).orElseThrow();
        var writes = app.operations.writes();

        app.clock.advance(Duration.ofMinutes(5));
        app.gitlab.nextPipeline(MergeRequests.PipelineStatus.RUNNING);
        app.queue.runNext();

        var after = app.showRequest.read(as("alice", id)).orElseThrow();
        assertThat(app.operations.writes()).as("the look wrote no state").isEqualTo(writes);
        assertThat(after.view().waiting().orElseThrow().nextAttemptAt())
                .isNotEqualTo(before.view().waiting().orElseThrow().nextAttemptAt());
        assertThat(after.version()).isNotEqualTo(before.version());
        assertThat(app.showRequest.version(as("alice", id))).contains(after.version());
    }

    @Test
    void anUnknownMalformedOrInvisibleRequestHasNoVersion() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "bob");

        assertThat(app.showRequest.version(as("carol", id))).isEmpty();
        assertThat(app.showRequest.version(new ShowChangeRequest.Command("not-an-id", Identity.verified("bob")))).isEmpty();
        assertThat(app.showRequest.version(new ShowChangeRequest.Command(InMemoryChangeflow.newOperationId(),
                Identity.verified("bob")))).isEmpty();
        app.permissions.failing(true);
        assertThat(app.showRequest.version(as("otto", id))).as("permissions fail closed").isEmpty();
        assertThat(app.showRequest.version(as("bob", id))).isPresent();
    }
}

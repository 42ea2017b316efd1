package io.changeflow.application.grant;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.query.RemovalStory;
import io.changeflow.application.query.RequestKind;
import io.changeflow.application.query.RequestView;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.application.recovery.ShowOperation;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, item 5: the request view says what a request changes ({@link RequestKind}) and, for a removal, why and by
 * whom ({@link RemovalStory}), told from what is stored, the same for the requester's and the operator's view.
 */
class RemovalStoryTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();


    private RequestView shown(OperationId id, String viewer) {
        return app.showRequest.show(new ShowChangeRequest.Command(id.value(), Identity.verified(viewer))).orElseThrow();
    }

    private RequestView opsView(OperationId id) {
        return app.showOperation.show(new ShowOperation.Command(id.value())).orElseThrow().request();
    }

    private OperationId owner(String subject) {
        return app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().operationId();
    }

    @Test
    void aFirstGrantIsAGrantAndAnotherExpiryForItIsARenewalNamingIt() {
        var grant = app.grantInEffect("alice", "alice", app.clock.instant().plus(Duration.ofDays(3)));
        assertThat(shown(grant, "alice").kind()).isEqualTo(RequestKind.GRANT);
        assertThat(shown(grant, "alice").previousGrant()).isEmpty();
        assertThat(shown(grant, "alice").removal()).isEmpty();

        var renewal = app.grantInEffect("alice", "alice", app.clock.instant().plus(Duration.ofDays(30)));
        assertThat(shown(renewal, "alice").kind()).isEqualTo(RequestKind.RENEWAL);
        assertThat(shown(renewal, "alice").previousGrant()).contains(grant);
        assertThat(shown(renewal, "alice").removal()).isEmpty();
    }

    @Test
    void anExpiryIsTheSystemsRemovalOfTheGrantWhoseTimeCame() {
        var until = app.clock.instant().plus(Duration.ofHours(1));
        var grant = app.grantInEffect("bob", "bob", until);
        app.clock.advance(Duration.ofHours(2));
        assertThat(app.expireGrants.run(new ExpireGrants.Command()).opened()).isEqualTo(1);

        var removal = shown(owner("bob"), "bob");
        assertThat(removal.kind()).isEqualTo(RequestKind.EXPIRY);
        assertThat(removal.previousGrant()).contains(grant);
        assertThat(removal.expiresAt()).contains(until);
        assertThat(removal.removal()).contains(new RemovalStory(RemovalStory.Cause.EXPIRED, "system"));
        assertThat(opsView(removal.operationId()).removal()).isEqualTo(removal.removal());
        assertThat(RequestView.summaryOf(app.op(removal.operationId())).kind()).as("list views carry the kind too")
                .isEqualTo(RequestKind.EXPIRY);
    }

    @Test
    void aGiveUpByTheSubjectIsGivenUpAndAnOperatorsIsRevoked() {
        app.grantInEffect("carol", "carol", null);
        var bySubject = (RemoveGrant.Result.Accepted) app.removeGrant.remove(
                RemoveGrant.Command.giveUp(null, FakeTargets.SINGLE.value(), "carol"));
        assertThat(bySubject.removal().kind()).isEqualTo(RequestKind.REVOCATION);
        assertThat(bySubject.removal().removal()).contains(new RemovalStory(RemovalStory.Cause.GIVEN_UP, "carol"));

        var grant = app.grantInEffect("erin", "erin", null);
        var byOperator = (RemoveGrant.Result.Accepted) app.removeGrant.remove(
                RemoveGrant.Command.revoke("erin", FakeTargets.SINGLE.value(), "otto", Map.of()));
        var story = new RemovalStory(RemovalStory.Cause.REVOKED, "otto");
        assertThat(byOperator.removal().removal()).contains(story);
        assertThat(shown(byOperator.removal().operationId(), "erin").removal()).contains(story);
        assertThat(opsView(byOperator.removal().operationId()).removal()).contains(story);
        assertThat(opsView(byOperator.removal().operationId()).previousGrant()).contains(grant);
    }
}

package io.changeflow.application.grant;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.batch.RunScheduledBatchRounds;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 18, item 3: giving a grant up and an operator's revocation, through the removal rounds. */
class GrantRevocationTest {

    private static final String FILE = "grants/db-prod-readonly.txt";

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    private OperationId validated(String requester, String subject, Instant until) {
        return app.grantInEffect(requester, subject, until);
    }

    private BindingStatus statusOf(String subject) {
        return app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().status();
    }

    private String main() {
        return app.gitlab.fileOn(FakeTargets.PROJECT, "main", FILE).orElse("");
    }

    private void roundAndDeploy(String subject) {
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        app.deployed(app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().operationId());
    }

    @Test
    void aGivenUpGrantIsRemovedWithoutApprovalEndsRevokedAndCanBeAppliedForAgain() {
        validated("alice", "alice", null);
        var result = app.removeGrant.remove(RemoveGrant.Command.giveUp(null, FakeTargets.SINGLE.value(), "alice"));
        assertThat(result).isInstanceOf(RemoveGrant.Result.Accepted.class);
        assertThat(result.code()).isEqualTo("REMOVAL_ACCEPTED");
        var removal = ((RemoveGrant.Result.Accepted) result).removal();
        assertThat(removal.status()).contains(BindingStatus.REVOKING);
        assertThat(removal.requester()).isEqualTo("alice");

        roundAndDeploy("alice");
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REVOKED);
        assertThat(main()).doesNotContain("alice until=");
        assertThat(app.approvals.formOf(removal.operationId())).isEmpty();
        assertThat(app.operations.history(removal.operationId())).extracting(h -> h.event()).startsWith(
                WorkflowEvent.REVOCATION_REQUESTED);

        var again = validated("alice", "alice", null);
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.VALIDATED);
        assertThat(main()).contains("alice until=never op=" + again.value());
    }

    /**
     * Issue 37: only the subject gives a grant up. Whoever requested it (here bob, for carol) holds no right over it,
     * and a give-up naming someone else is refused before anything about their access is read (403, whether a grant
     * exists or not). This used to let the requester give it up too.
     */
    @Test
    void onlyTheSubjectMayGiveAGrantUpNeitherItsRequesterNorAnyoneElse() {
        validated("bob", "carol", null);
        assertThat(app.removeGrant.remove(RemoveGrant.Command.giveUp("carol", FakeTargets.SINGLE.value(), "mallory")))
                .isInstanceOf(RemoveGrant.Result.NotAllowedForSubject.class);
        var byRequester = app.removeGrant.remove(RemoveGrant.Command.giveUp("carol", FakeTargets.SINGLE.value(), "bob"));
        assertThat(byRequester).as("the requester").isInstanceOf(RemoveGrant.Result.NotAllowedForSubject.class);
        assertThat(byRequester.code()).isEqualTo("NOT_ALLOWED_FOR_SUBJECT");
        assertThat(app.removeGrant.remove(RemoveGrant.Command.giveUp("nobody", FakeTargets.SINGLE.value(), "bob")))
                .as("no grant at all: the same answer").isInstanceOf(RemoveGrant.Result.NotAllowedForSubject.class);
        assertThat(statusOf("carol")).isEqualTo(BindingStatus.VALIDATED);

        assertThat(app.removeGrant.remove(RemoveGrant.Command.giveUp("carol", FakeTargets.SINGLE.value(), "carol")))
                .as("the subject").isInstanceOf(RemoveGrant.Result.Accepted.class);
        assertThat(app.removeGrant.remove(RemoveGrant.Command.giveUp("carol", FakeTargets.SINGLE.value(), "carol")))
                .as("already being removed").isInstanceOf(RemoveGrant.Result.NotInEffect.class);
        assertThat(app.removeGrant.remove(RemoveGrant.Command.giveUp("carol", "no such target!", "carol")))
                .isInstanceOf(RemoveGrant.Result.NotFound.class);
    }

    @Test
    void anOperatorsRevocationIsAuditedUnderTheOperatorAndEndsRevoked() {
        validated("dave", "dave", app.clock.instant().plus(Duration.ofDays(5)));
        var result = app.removeGrant.remove(RemoveGrant.Command.revoke("dave", FakeTargets.SINGLE.value(), "otto",
                Map.of("reason", "left the team")));
        assertThat(result).isInstanceOf(RemoveGrant.Result.Accepted.class);
        assertThat(((RemoveGrant.Result.Accepted) result).removal().requester()).isEqualTo("otto");
        assertThat(app.audit.all()).singleElement().satisfies(e -> {
            assertThat(e.actor()).isEqualTo("otto");
            assertThat(e.action()).isEqualTo("REVOKE_GRANT");
            assertThat(e.parameters()).containsEntry("reason", "left the team").containsEntry("result", "REMOVAL_ACCEPTED");
        });
        roundAndDeploy("dave");
        assertThat(statusOf("dave")).isEqualTo(BindingStatus.REVOKED);

        // a refused revocation is audited too
        app.removeGrant.remove(RemoveGrant.Command.revoke("dave", FakeTargets.SINGLE.value(), "otto", Map.of()));
        assertThat(app.audit.all()).last().satisfies(e -> assertThat(e.parameters()).containsEntry("result",
                "GRANT_NOT_IN_EFFECT"));
    }

    @Test
    void aGiveUpAndTheExpiryOfTheSameGrantEndWithExactlyOneRemoval() {
        validated("erin", "erin", app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        assertThat(app.removeGrant.remove(RemoveGrant.Command.giveUp(null, FakeTargets.SINGLE.value(), "erin")))
                .isInstanceOf(RemoveGrant.Result.Accepted.class);
        var expiry = app.expireGrants.run(new ExpireGrants.Command());
        assertThat(expiry.due()).isZero();
        assertThat(expiry.opened()).isZero();
        roundAndDeploy("erin");
        assertThat(statusOf("erin")).isEqualTo(BindingStatus.REVOKED);
        assertThat(main()).doesNotContain("erin until=");
    }

    @Test
    void theSubjectSeesTheRemovalOfItsGrantAndNobodyElseDoes() {
        validated("frank", "frank", null);
        app.removeGrant.remove(RemoveGrant.Command.revoke("frank", FakeTargets.SINGLE.value(), "otto", Map.of()));
        var removal = app.operations.binding(SubjectId.of("frank"), FakeTargets.SINGLE).orElseThrow().operationId();
        var frank = io.changeflow.domain.identity.Identity.verified("frank");
        var other = io.changeflow.domain.identity.Identity.verified("mallory");
        assertThat(app.showRequest.show(new io.changeflow.application.query.ShowChangeRequest.Command(removal.value(), frank)))
                .hasValueSatisfying(v -> assertThat(v.status()).contains(BindingStatus.REVOKING));
        assertThat(app.showRequest.show(new io.changeflow.application.query.ShowChangeRequest.Command(removal.value(), other)))
                .isEmpty();
    }
}

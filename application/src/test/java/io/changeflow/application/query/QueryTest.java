package io.changeflow.application.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void theRequestViewCarriesBothLayersTheHintTheMergeRequestAndTheTimeline() {
        var id = app.submittedAndRun("alice");

        var view = app.showRequest.show(new ShowChangeRequest.Command(id.value(), Identity.verified("alice"))).orElseThrow();

        assertThat(view.status()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(view.stepCode()).isEqualTo(view.step().code());
        assertThat(view.hint()).isEqualTo(Hint.NONE);
        assertThat(view.mergeRequest()).isPresent();
        assertThat(view.timeline()).extracting(RequestView.TimelineEntry::event)
                .startsWith(WorkflowEvent.SUBMITTED_CREATE_FIRST).endsWith(WorkflowEvent.APPROVAL_SUBMITTED);
    }

    @Test
    void onlyTheRequesterOrAnOperatorSeesARequest() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "bob");

        assertThat(app.showRequest.show(new ShowChangeRequest.Command(id.value(), Identity.verified("carol")))).isEmpty();
        assertThat(app.showRequest.show(new ShowChangeRequest.Command(id.value(), Identity.verified("otto")))).isPresent();
        app.permissions.failing(true);
        assertThat(app.showRequest.show(new ShowChangeRequest.Command(id.value(), Identity.verified("otto")))).isEmpty();
        assertThat(app.showRequest.show(new ShowChangeRequest.Command(id.value(), Identity.verified("bob")))).isPresent();
    }

    /** Issue 37: the subject of a request someone asked for them is told: it is in their list and they may read it. */
    @Test
    void theSubjectOfARequestSomeoneAskedForThemFindsItInTheirListAndMayReadItNobodyElse() {
        var id = InMemoryChangeflow.newOperationId();
        app.submit("alice", InMemoryChangeflow.submission(id, FakeTargets.SINGLE, "bob"));

        var view = app.showRequest.show(new ShowChangeRequest.Command(id, Identity.verified("bob"))).orElseThrow();
        assertThat(view.requester()).isEqualTo("alice");
        assertThat(app.myRequests.list(new ListMyRequests.Command("bob", 0, 10)).items())
                .extracting(v -> v.operationId().value(), RequestView::requester).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(id, "alice"));
        assertThat(app.myRequests.list(new ListMyRequests.Command("alice", 0, 10)).items())
                .extracting(v -> v.operationId().value()).containsExactly(id);
        assertThat(app.showRequest.show(new ShowChangeRequest.Command(id, Identity.verified("carol")))).isEmpty();
        assertThat(app.myRequests.list(new ListMyRequests.Command("carol", 0, 10)).items()).isEmpty();
    }

    @Test
    void aReplacedRequestHasNoStatusAndSaysYouCanApplyAgain() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var first = app.rejected("dave");
        app.submitAccepted(FakeTargets.SINGLE, "dave");

        var view = app.showRequest.show(new ShowChangeRequest.Command(first.value(), Identity.verified("dave"))).orElseThrow();

        assertThat(view.status()).isEmpty();
        assertThat(view.hint()).isEqualTo(Hint.CAN_REAPPLY);
    }

    @Test
    void myRecordsAreNewestFirstAndPaged() {
        var older = app.submitAccepted(FakeTargets.SINGLE, "erin");
        app.clock.advance(Duration.ofMinutes(1));
        var newer = app.submitAccepted(FakeTargets.BATCHABLE, "erin");
        app.submitAccepted(FakeTargets.SINGLE, "frank");

        var first = app.myRequests.list(new ListMyRequests.Command("erin", 0, 1));
        var second = app.myRequests.list(new ListMyRequests.Command("erin", 1, 1));

        assertThat(first.items()).extracting(RequestView::operationId).containsExactly(newer);
        assertThat(first.hasMore()).isTrue();
        assertThat(second.items()).extracting(RequestView::operationId).containsExactly(older);
        assertThat(second.hasMore()).isFalse();
        assertThat(first.items().getFirst().timeline()).isEmpty();
    }

    @Test
    void myBindingsListOneRowPerTarget() {
        app.submitAccepted(FakeTargets.SINGLE, "grace");
        app.submitAccepted(FakeTargets.BATCHABLE, "grace");

        assertThat(app.myBindings.list(new ListMyBindings.Command("grace"))).hasSize(2);
        assertThat(app.myBindings.list(new ListMyBindings.Command("Not A Subject!"))).isEmpty();
    }

    @Test
    void thePreviewShowsTheLineThatIsReplacedAndTheLineThatIsWritten() {
        var first = app.submittedAndRun("heidi");
        app.gitlab.mergeExternally(app.mr(first).project(), app.mr(first).iid());
        var formId = InMemoryChangeflow.newOperationId();

        var preview = app.preview.preview(new PreviewChange.Command(FakeTargets.SINGLE.value(), Optional.empty(), Identity.verified("heidi"),
                Optional.of(formId), Optional.of("2026-12-04"))).orElseThrow();

        assertThat(preview.project()).isEqualTo(FakeTargets.PROJECT);
        assertThat(preview.removedLine()).contains("heidi until=never op=" + first.value());
        assertThat(preview.addedLine()).isEqualTo("heidi until=2026-12-05T00:00:00Z op=" + formId);
    }

    @Test
    void thePreviewForAnotherSubjectShowsOnlyTheLineItWouldAddUnlessTheCallerIsAnOperator() {
        var bobs = app.submittedAndRun("bob");
        app.gitlab.mergeExternally(app.mr(bobs).project(), app.mr(bobs).iid());
        var formId = InMemoryChangeflow.newOperationId();
        var reads = app.gitlab.calls().getOrDefault("readFile", 0);

        var byMallory = app.preview.preview(new PreviewChange.Command(FakeTargets.SINGLE.value(), Optional.of("bob"),
                Identity.verified("mallory"), Optional.of(formId), Optional.empty())).orElseThrow();
        var byOperator = app.preview.preview(new PreviewChange.Command(FakeTargets.SINGLE.value(), Optional.of("bob"),
                Identity.verified("otto"), Optional.of(formId), Optional.empty())).orElseThrow();

        assertThat(byMallory.removedLine()).isEmpty();
        assertThat(byMallory.addedLine()).isEqualTo("bob until=never op=" + formId);
        assertThat(byOperator.removedLine()).contains("bob until=never op=" + bobs.value());
        assertThat(app.gitlab.calls().getOrDefault("readFile", 0)).as("only the operator's preview read the file")
                .isEqualTo(reads + 1);
    }

    @Test
    void thePreviewIsEmptyOnAnyFailureAndNeverBlocks() {
        app.gitlab.failNext("readFile", ExternalCallException.status("gitlab", 503, "down"));

        assertThat(app.preview.preview(new PreviewChange.Command(FakeTargets.SINGLE.value(), Optional.empty(), Identity.verified("ivan"),
                Optional.empty(), Optional.empty()))).isEmpty();
        assertThat(app.preview.preview(new PreviewChange.Command("no-such-target", Optional.empty(), Identity.verified("ivan"),
                Optional.empty(), Optional.empty()))).isEmpty();
        assertThat(app.preview.preview(new PreviewChange.Command(FakeTargets.SINGLE.value(), Optional.empty(), Identity.verified("ivan"),
                Optional.empty(), Optional.empty()))).hasValueSatisfying(p -> assertThat(p.removedLine()).isEmpty());
    }
}

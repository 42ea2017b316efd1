package io.changeflow.application.submit;

import static io.changeflow.application.fake.InMemoryChangeflow.newOperationId;
import static io.changeflow.application.fake.InMemoryChangeflow.submission;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.submit.SubmitChangeRequest.Result;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import org.junit.jupiter.api.Test;

/** Issue 37, item 1: who may ask for whom, per target ({@code ask-for}: self by default, anyone, related). */
class AskForPolicyTest {

    private static final TargetKey TARGET = FakeTargets.SINGLE;

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    private Result ask(String requester, String subject) {
        return app.submit(requester, submission(newOperationId(), TARGET, subject));
    }

    private boolean nothingOpenedFor(String subject) {
        return app.operations.binding(SubjectId.of(subject), TARGET).isEmpty();
    }

    @Test
    void aTargetWithoutTheSettingLetsARequesterAskForThemselvesOnly() {
        var plain = TargetKey.of("plain-db");
        app.targets.add(new Target(plain, "Plain", "no ask-for setting", FakeTargets.PROJECT, "grants/plain.txt", false,
                null));

        var forBob = app.submit("mallory", submission(newOperationId(), plain, "bob"));
        assertThat(forBob).isInstanceOf(Result.NotAllowedForSubject.class);
        assertThat(forBob.code()).isEqualTo("NOT_ALLOWED_FOR_SUBJECT");
        assertThat(app.operations.binding(SubjectId.of("bob"), plain)).isEmpty();
        assertThat(app.submit("mallory", submission(newOperationId(), plain, "mallory")))
                .isInstanceOf(Result.Accepted.class);
        assertThat(app.submit("bob", submission(newOperationId(), plain, null)))
                .as("no subject named: the requester's own account").isInstanceOf(Result.Accepted.class);
    }

    @Test
    void underSelfARefusedRequestForAnotherPersonLeavesNothingThatBlocksTheirOwn() {
        app.targets.withAskFor(TARGET, AskPolicy.SELF);

        assertThat(ask("mallory", "bob")).isInstanceOf(Result.NotAllowedForSubject.class);
        assertThat(nothingOpenedFor("bob")).isTrue();
        assertThat(app.idempotency.size()).as("the key is released").isZero();
        assertThat(ask("bob", "bob")).isInstanceOf(Result.Accepted.class);
    }

    @Test
    void underAnyoneARequesterMayAskForAnotherPerson() {
        app.targets.withAskFor(TARGET, AskPolicy.ANYONE);

        assertThat(ask("alice", "svc-reports")).isInstanceOf(Result.Accepted.class);
    }

    @Test
    void underRelatedOnlyThePeopleTheDirectoryRelatesMayAskForEachOther() {
        app.targets.withAskFor(TARGET, AskPolicy.RELATED);
        app.directory.relate("maria", "bob");

        assertThat(ask("mallory", "bob")).as("unrelated").isInstanceOf(Result.NotAllowedForSubject.class);
        assertThat(nothingOpenedFor("bob")).isTrue();
        assertThat(ask("maria", "bob")).as("related").isInstanceOf(Result.Accepted.class);
        assertThat(ask("mallory", "mallory")).as("oneself").isInstanceOf(Result.Accepted.class);
    }

    @Test
    void underRelatedADirectoryThatKnowsNoRelationOrIsDownAllowsSelfOnly() {
        app.targets.withAskFor(TARGET, AskPolicy.RELATED);

        assertThat(ask("maria", "bob")).as("no relation known").isInstanceOf(Result.NotAllowedForSubject.class);
        app.directory.relate("maria", "bob");
        app.directory.failing(true);
        assertThat(ask("maria", "bob")).as("directory down").isInstanceOf(Result.NotAllowedForSubject.class);
        assertThat(ask("maria", "maria")).as("oneself needs no directory").isInstanceOf(Result.Accepted.class);
    }
}

package io.changeflow.application.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;

/** An in-memory application whose requests are approved first, and merged requests made in it. */
final class MergedRequests {

    private MergedRequests() {
    }

    static InMemoryChangeflow approveFirstApp() {
        var app = new InMemoryChangeflow();
        app.config.set(Settings.APPROVE_FIRST, "true");
        return app;
    }

    /** Submits for {@code subject}, approves it and runs the workflow until the request is merged. */
    static OperationId merged(InMemoryChangeflow app, String subject) {
        var id = app.submitAccepted(FakeTargets.SINGLE, subject);
        app.queue.runUntilIdle();
        app.decide(id, Decision.APPROVED);
        app.queue.runUntilIdle();
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        return id;
    }
}

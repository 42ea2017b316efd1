package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.GrantDurations;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.StepStatus;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.json.JsonMapper;

/** The requester's endpoints on the application's use cases (in-memory fakes). */
class RequestsWebTest extends WebTestSupport {

    private static final AtomicInteger PEOPLE = new AtomicInteger();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A person nobody else in the suite uses, so one subject-target row per test. */
    private static String newPerson() {
        return "req" + PEOPLE.incrementAndGet();
    }

    private static String body(String operationId, String targetKey, String reason) {
        return "{\"operationId\":\"" + operationId + "\",\"targetKey\":\"" + targetKey + "\",\"reason\":\"" + reason + "\"}";
    }

    /** A submission for db-prod-readonly under a new operationId. */
    private static String newBody(String reason) {
        return body(InMemoryChangeflow.newOperationId(), "db-prod-readonly", reason);
    }

    private static MockHttpServletRequestBuilder submit(String person, String body) {
        return as(post("/api/requests").contentType(MediaType.APPLICATION_JSON).content(body), person);
    }

    @Test
    void aSubmissionIsAccepted202WithTheRequestViewAndItsLocation() throws Exception {
        var person = newPerson();
        var id = InMemoryChangeflow.newOperationId();
        mvc.perform(submit(person, body(id, "db-prod-readonly", "on call next week")))
                .andExpect(status().isAccepted())
                .andExpect(header().string("Location", "/api/requests/" + id))
                .andExpect(jsonPath("$.code").value("ACCEPTED"))
                .andExpect(jsonPath("$.traceId").isNotEmpty())
                .andExpect(jsonPath("$.data.operationId").value(id))
                .andExpect(jsonPath("$.data.targetKey").value("db-prod-readonly"))
                .andExpect(jsonPath("$.data.subjectId").value(person))
                .andExpect(jsonPath("$.data.requester").value(person))
                .andExpect(jsonPath("$.data.reason").value("on call next week"))
                .andExpect(jsonPath("$.data.stepOrder").value("CREATE_FIRST"))
                .andExpect(jsonPath("$.data.status").value("MR_CREATING"))
                .andExpect(jsonPath("$.data.hint.code").value("NONE"))
                .andExpect(jsonPath("$.data.timeline[0].event").value("SUBMITTED_CREATE_FIRST"))
                .andExpect(jsonPath("$.data.expiresAt").value(Matchers.nullValue()));
        assertThat(app.op(OperationId.of(id)).requester()).isEqualTo(person);
    }

    @Test
    void aDuplicateSubmitReplaysTheOriginalAnswerAndStays202() throws Exception {
        var person = newPerson();
        var id = InMemoryChangeflow.newOperationId();
        var first = mvc.perform(submit(person, body(id, "db-prod-readonly", "incident 7"))).andExpect(status().isAccepted())
                .andReturn().getResponse().getContentAsString();
        var writes = app.operations.writes();

        var again = mvc.perform(submit(person, body(id, "db-prod-readonly", "incident 7")))
                .andExpect(status().isAccepted())
                .andExpect(header().string("Location", "/api/requests/" + id))
                .andExpect(jsonPath("$.code").value("DUPLICATE_SUBMIT"))
                .andReturn().getResponse().getContentAsString();

        assertThat(JSON.readTree(again).get("data")).as("the original request's answer").isEqualTo(JSON.readTree(first).get("data"));
        assertThat(app.operations.writes()).as("nothing written again").isEqualTo(writes);
    }

    @Test
    void theSameOperationIdWithAnotherPayloadIs422() throws Exception {
        var person = newPerson();
        var id = InMemoryChangeflow.newOperationId();
        mvc.perform(submit(person, body(id, "db-prod-readonly", "first reason"))).andExpect(status().isAccepted());
        mvc.perform(submit(person, body(id, "db-prod-readonly", "another reason")))
                .andExpect(answers(status().isUnprocessableContent(), "IDEMPOTENCY_KEY_REUSED"))
                .andExpect(jsonPath("$.data").value(Matchers.nullValue()));
    }

    @Test
    void aDuplicateOverQuotaIs429BecauseRateLimitingRunsBeforeTheIdempotencyCheck() throws Exception {
        writeConfig("APPLY_RATE_LIMIT=1\n");
        var person = newPerson();
        var request = newBody("retry storm");
        mvc.perform(submit(person, request)).andExpect(status().isAccepted())
                .andExpect(header().string("RateLimit-Policy", "\"apply\";q=1;w=60"));
        var writes = app.operations.writes();
        mvc.perform(submit(person, request))
                .andExpect(answers(status().isTooManyRequests(), "RATE_LIMITED"))
                .andExpect(jsonPath("$.message").value("Too many submissions, please try again later"))
                .andExpect(header().exists("Retry-After"));
        assertThat(app.operations.writes()).isEqualTo(writes);
    }

    @Test
    void withoutAnyLimitConfiguredTheAnnotationDefaultOfTenApplies() throws Exception {
        var person = newPerson();
        mvc.perform(submit(person, newBody("x")))
                .andExpect(header().string("RateLimit-Policy", "\"apply\";q=10;w=60"));
    }

    @Test
    void missingFieldsAre400WithEveryFieldError() throws Exception {
        mvc.perform(submit(newPerson(), "{\"subjectId\":\"Not A Subject!\"}"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[?(@.field=='operationId')].code").value("REQUIRED"))
                .andExpect(jsonPath("$.data.fieldErrors[?(@.field=='targetKey')].code").value("REQUIRED"))
                .andExpect(jsonPath("$.data.fieldErrors[?(@.field=='reason')].code").value("REQUIRED"))
                .andExpect(jsonPath("$.data.fieldErrors[?(@.field=='subjectId')].code").value("INVALID_FORMAT"));
        mvc.perform(submit(newPerson(), "{\"operationId\":\"not-a-uuid\",\"targetKey\":\"db-prod-readonly\",\"reason\":\"r\","
                        + "\"expiresAt\":\"2001-01-01\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.data.fieldErrors[?(@.field=='operationId')].code").value("INVALID_FORMAT"))
                .andExpect(jsonPath("$.data.fieldErrors[?(@.field=='expiresAt')].code").value("IN_THE_PAST"));
    }

    /** Issue 32 item 3: a target's maximum duration is a field error with the limit; the catalog shows the rule. */
    @Test
    void anEndBeyondTheTargetsMaximumIs400TooFarWithTheLimitAndTheCatalogShowsTheRule() throws Exception {
        var key = TargetKey.of("limited-target");
        app.targets.add(new Target(key, "Limited", "At most 30 days", FakeTargets.PROJECT, "grants/limited.txt", false, null)
                .withAskFor(AskPolicy.ANYONE).withDurations(new GrantDurations(java.util.Optional.of(Duration.ofDays(30)),
                        java.util.Optional.of(Duration.ofDays(7)))));
        var tooFar = app.clock.instant().plus(Duration.ofDays(31)).toString();

        mvc.perform(submit(newPerson(), "{\"operationId\":\"" + InMemoryChangeflow.newOperationId()
                        + "\",\"targetKey\":\"limited-target\",\"reason\":\"r\",\"expiresAt\":\"" + tooFar + "\"}"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("expiresAt", "TOO_FAR"))
                .andExpect(jsonPath("$.data.fieldErrors[0].message").value(Matchers.containsString("30 days")));
        mvc.perform(as(get("/api/targets"), newPerson()))
                .andExpect(jsonPath("$.data[?(@.key=='limited-target')].maxDuration").value("P30D"))
                .andExpect(jsonPath("$.data[?(@.key=='limited-target')].defaultDuration").value("P7D"))
                .andExpect(jsonPath("$.data[?(@.key=='limited-target')].allowsNever").value(false))
                .andExpect(jsonPath("$.data[?(@.key=='db-prod-readonly')].allowsNever").value(true));
    }

    /** Issue 32 item 3: a duration instead of an end, its field codes, and the target's maximum and rule. */
    @Test
    void aDurationIsAcceptedWithoutAnEndYetAndItsBadFormsAre400WithTheFieldCode() throws Exception {
        var key = TargetKey.of("hours-target");
        app.targets.add(new Target(key, "Hours", "At most a day", FakeTargets.PROJECT, "grants/hours.txt", false, null)
                .withAskFor(AskPolicy.ANYONE).withDurations(new GrantDurations(java.util.Optional.of(Duration.ofDays(1)),
                        java.util.Optional.empty(), true)));
        app.targets.add(new Target(TargetKey.of("ends-target"), "Ends", "Ends only", FakeTargets.PROJECT,
                "grants/ends.txt", false, null).withAskFor(AskPolicy.ANYONE).withDurations(
                        new GrantDurations(java.util.Optional.empty(), java.util.Optional.empty(), false)));

        mvc.perform(submit(newPerson(), durationBody("hours-target", null, "PT8H")))
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.data.duration").value("PT8H"))
                .andExpect(jsonPath("$.data.expiresAt").value(Matchers.nullValue()))
                .andExpect(jsonPath("$.data.stepOrder").value("APPROVE_FIRST"));
        mvc.perform(submit(newPerson(), durationBody("hours-target", null, "P1DT1H")))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("duration", "TOO_FAR"))
                .andExpect(jsonPath("$.data.fieldErrors[0].message").value(Matchers.containsString("1 day (P1D)")));
        mvc.perform(submit(newPerson(), durationBody("hours-target", app.clock.instant().plus(Duration.ofHours(2)).toString(), "PT8H")))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("duration", "MUTUALLY_EXCLUSIVE"));
        mvc.perform(submit(newPerson(), durationBody("hours-target", null, "8 hours")))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("duration", "INVALID_FORMAT"));
        mvc.perform(submit(newPerson(), durationBody("hours-target", null, "PT0H")))
                .andExpect(firstFieldError("duration", "TOO_SHORT"));
        mvc.perform(submit(newPerson(), durationBody("ends-target", null, "PT1H")))
                .andExpect(firstFieldError("duration", "NOT_ALLOWED"));
        mvc.perform(as(get("/api/targets"), newPerson()))
                .andExpect(jsonPath("$.data[?(@.key=='hours-target')].allowsDurations").value(true))
                .andExpect(jsonPath("$.data[?(@.key=='ends-target')].allowsDurations").value(false));
    }

    private static String durationBody(String target, String expiresAt, String duration) {
        return "{\"operationId\":\"" + InMemoryChangeflow.newOperationId() + "\",\"targetKey\":\"" + target
                + "\",\"reason\":\"r\"" + (expiresAt == null ? "" : ",\"expiresAt\":\"" + expiresAt + "\"")
                + ",\"duration\":\"" + duration + "\"}";
    }

    @Test
    void anUnknownTargetIs400AndItsKeyCanBeUsedAgainAfterTheFix() throws Exception {
        var person = newPerson();
        var id = InMemoryChangeflow.newOperationId();
        mvc.perform(submit(person, body(id, "no-such-target", "typo")))
                .andExpect(status().isBadRequest())
                .andExpect(firstFieldError("targetKey", "UNKNOWN"));
        mvc.perform(submit(person, body(id, "db-prod-readonly", "typo"))).andExpect(status().isAccepted());
    }

    @Test
    void malformedJsonIs400ButOnlyForAnIdentifiedCaller() throws Exception {
        mvc.perform(post("/api/requests").contentType(MediaType.APPLICATION_JSON).content("{\"operationId\": "))
                .andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
        mvc.perform(submit(newPerson(), "{\"operationId\": "))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"));
    }

    @Test
    void aBodyThatIsNoFormIs400NeverA500() throws Exception {
        for (var body : new String[] {"null", "[]", "\"text\"", "{\"operationId\":{\"a\":1}}"}) {
            mvc.perform(submit(newPerson(), body))
                    .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"));
        }
    }

    @Test
    void anUnverifiedEmployeeIdMayNotSubmit() throws Exception {
        mvc.perform(submit("E9999", newBody("x")))
                .andExpect(answers(status().isForbidden(), "ACCESS_DENIED"))
                .andExpect(jsonPath("$.message").value("Access denied"));
    }

    @Test
    void anActiveRequestForTheSameSubjectAndTargetIs409RequestInProgress() throws Exception {
        var person = newPerson();
        mvc.perform(submit(person, newBody("one"))).andExpect(status().isAccepted());
        mvc.perform(submit(person, newBody("two")))
                .andExpect(answers(status().isConflict(), "REQUEST_IN_PROGRESS"));
    }

    @Test
    void accessThatIsAlreadyInEffectIs409AlreadyInEffect() throws Exception {
        var person = newPerson();
        approvedAndDeployed(app.submitAccepted(FakeTargets.SINGLE, person));

        mvc.perform(submit(person, newBody("again")))
                .andExpect(answers(status().isConflict(), "ALREADY_IN_EFFECT"));
    }

    @Test
    void anOriginalStillBeingValidatedPastTheWaitIs409IdempotencyInFlight() throws Exception {
        var person = newPerson();
        var id = InMemoryChangeflow.newOperationId();
        var original = new io.changeflow.domain.request.Submission(id, "db-prod-readonly", null, "x", null);
        var fingerprint = ((io.changeflow.domain.request.Submission.Validation.Valid) original
                .validate(person, app.clock.instant())).request().fingerprint();
        // another instance claimed the key and never answers within the duplicate's wait
        app.idempotency.checkOrInsert(id, fingerprint, java.time.Duration.ofDays(1),
                io.changeflow.application.submit.SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);
        mvc.perform(submit(person, body(id, "db-prod-readonly", "x")))
                .andExpect(answers(status().isConflict(), "IDEMPOTENCY_IN_FLIGHT"));
    }

    /** Issue 37: a target whose policy is the default {@code self} refuses a request naming another person. */
    @Test
    void askingForAnotherPersonWhereTheTargetSaysSelfIs403NotAllowedForSubject() throws Exception {
        // a target of its own (the application is shared by the web tests): no ask-for setting, so self only
        app.targets.add(new io.changeflow.domain.request.Target(io.changeflow.domain.request.TargetKey.of("self-only-db"),
                "Self only", "no ask-for setting", FakeTargets.PROJECT, "grants/self-only-db.txt", false, null));
        var requester = newPerson();
        var other = newPerson();
        var forOther = "{\"operationId\":\"" + InMemoryChangeflow.newOperationId()
                + "\",\"targetKey\":\"self-only-db\",\"subjectId\":\"" + other + "\",\"reason\":\"x\"}";
        mvc.perform(submit(requester, forOther))
                .andExpect(answers(status().isForbidden(), "NOT_ALLOWED_FOR_SUBJECT"));
        // nothing was opened for the other person: their own request is not blocked
        mvc.perform(submit(other, body(InMemoryChangeflow.newOperationId(), "self-only-db", "mine")))
                .andExpect(answers(status().isAccepted(), "ACCEPTED"));
    }

    /** {@code asker} asks for {@code subject} on db-prod-readonly (anyone may ask for anyone there): accepted. */
    private String askFor(String asker, String subject) throws Exception {
        var id = InMemoryChangeflow.newOperationId();
        mvc.perform(submit(asker, "{\"operationId\":\"" + id + "\",\"targetKey\":\"db-prod-readonly\","
                        + "\"subjectId\":\"" + subject + "\",\"reason\":\"for a colleague\"}"))
                .andExpect(answers(status().isAccepted(), "ACCEPTED"));
        return id;
    }

    /**
     * Issue 37: a request asked for someone shows in their list and opens for them ("asked for you by"); their own
     * request supersedes it while it is not merging, and once it is merging they get 409 REQUEST_IN_PROGRESS naming
     * it and who asked. Nobody else sees it.
     */
    @Test
    void theSubjectSeesARequestAskedForThemAndTheirOwnSupersedesItOr409NamesItOnceMerging() throws Exception {
        var asker = newPerson();
        var subject = newPerson();
        var forSubject = askFor(asker, subject);
        mvc.perform(as(get("/api/requests"), subject)).andExpect(status().isOk())
                .andExpect(jsonPath("$.data.items[0].operationId").value(forSubject))
                .andExpect(jsonPath("$.data.items[0].requester").value(asker))
                .andExpect(jsonPath("$.data.items[0].subjectId").value(subject));
        mvc.perform(as(get("/api/requests/" + forSubject), subject)).andExpect(status().isOk())
                .andExpect(jsonPath("$.data.requester").value(asker));
        mvc.perform(as(get("/api/requests/" + forSubject), newPerson()))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));

        var own = InMemoryChangeflow.newOperationId();
        mvc.perform(submit(subject, body(own, "db-prod-readonly", "mine"))).andExpect(answers(status().isAccepted(), "ACCEPTED"));
        mvc.perform(as(get("/api/requests/" + forSubject), asker)).andExpect(status().isOk())
                .andExpect(jsonPath("$.data.step").value("SUPERSEDED_BY_SUBJECT"))
                .andExpect(jsonPath("$.data.hint.code").value("CAN_REAPPLY"))
                .andExpect(jsonPath("$.data.timeline[*].detail").value(Matchers.hasItem(Matchers.containsString(
                        "asked for this access themselves"))));

        // the subject's own request merging: a new request for them by the asker is refused, and so is theirs
        app.queue.runUntilIdle();
        app.decide(io.changeflow.domain.request.OperationId.of(own),
                io.changeflow.application.callback.HandleApprovalCallback.Decision.APPROVED);
        mvc.perform(submit(asker, "{\"operationId\":\"" + InMemoryChangeflow.newOperationId() + "\","
                        + "\"targetKey\":\"db-prod-readonly\",\"subjectId\":\"" + subject + "\",\"reason\":\"again\"}"))
                .andExpect(answers(status().isConflict(), "REQUEST_IN_PROGRESS"))
                .andExpect(jsonPath("$.data").value(Matchers.nullValue()));
    }

    @Test
    void theSubjectsOwnRequestWhileOneAskedForThemIsMergingIs409NamingIt() throws Exception {
        var asker = newPerson();
        var subject = newPerson();
        var forSubject = askFor(asker, subject);
        app.queue.runUntilIdle();
        app.decide(io.changeflow.domain.request.OperationId.of(forSubject),
                io.changeflow.application.callback.HandleApprovalCallback.Decision.APPROVED);

        mvc.perform(submit(subject, newBody("mine")))
                .andExpect(answers(status().isConflict(), "REQUEST_IN_PROGRESS"))
                .andExpect(jsonPath("$.message").value(Matchers.containsString("asked for by " + asker)))
                .andExpect(jsonPath("$.data.operationId").value(forSubject))
                .andExpect(jsonPath("$.data.requester").value(asker))
                .andExpect(jsonPath("$.data.status").value("MERGING"));
    }

    @Test
    void closedAccessIs403ServiceClosed() throws Exception {
        app.config.set(Settings.ACCESS_MODE, "closd");
        mvc.perform(submit(newPerson(), newBody("x")))
                .andExpect(answers(status().isForbidden(), "SERVICE_CLOSED"));
    }

    @Test
    void aRetryOfAnAcceptedRequestStillReplaysAfterAccessClosed() throws Exception {
        var person = newPerson();
        var request = newBody("x");
        mvc.perform(submit(person, request)).andExpect(status().isAccepted());
        app.config.set(Settings.ACCESS_MODE, "CLOSED");
        mvc.perform(submit(person, request)).andExpect(answers(status().isAccepted(), "DUPLICATE_SUBMIT"));
    }

    @Test
    void theRequesterSeesTheRequestWithHintTimelineAndMergeRequest() throws Exception {
        var person = newPerson();
        app.gitlab.nextPipeline(PipelineStatus.RUNNING, PipelineStatus.FAILED);
        var id = app.submitAccepted(FakeTargets.SINGLE, person);
        app.queue.runUntilIdle();
        app.gitlab.nextPipeline(PipelineStatus.PASSED);

        mvc.perform(as(get("/api/requests/" + id.value()), person))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.status").value("CREATE_FAILED"))
                .andExpect(jsonPath("$.data.step").value("CREATE_PIPELINE_FAILED"))
                .andExpect(jsonPath("$.data.stepCode").isNumber())
                .andExpect(jsonPath("$.data.hint.code").value("CONTACT_MAINTAINERS"))
                .andExpect(jsonPath("$.data.hint.message").isNotEmpty())
                .andExpect(jsonPath("$.data.mergeRequest.project").value(FakeTargets.PROJECT))
                .andExpect(jsonPath("$.data.mergeRequest.iid").isNumber())
                .andExpect(jsonPath("$.data.mergeRequest.webUrl").isNotEmpty())
                .andExpect(jsonPath("$.data.timeline.length()").value(Matchers.greaterThan(1)))
                .andExpect(jsonPath("$.data.timeline[0].at").isNotEmpty())
                .andExpect(jsonPath("$.data.waiting.waitingFor").value("MAINTAINERS"))
                .andExpect(jsonPath("$.data.waiting.deadline").value(Matchers.nullValue()));
    }

    @Test
    void theRequestSaysWhoActsNextUntilWhenAndWhenTheNextLookIsDue() throws Exception {
        var person = newPerson();
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var id = app.submitAccepted(FakeTargets.SINGLE, person);
        while (app.op(id).step() != StepStatus.CREATE_PIPELINE_PENDING) {
            app.queue.runNext();
        }
        var pendingSince = app.clock.instant();
        var nextLook = app.queue.pending(StepKind.CREATE, id.value())
                .orElseThrow().due();

        mvc.perform(as(get("/api/requests/" + id.value()), person))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.hint.code").value("KEEP_WAITING"))
                .andExpect(jsonPath("$.data.waiting.waitingFor").value("PIPELINE"))
                .andExpect(jsonPath("$.data.waiting.since").value(pendingSince.toString()))
                .andExpect(jsonPath("$.data.waiting.deadline").value(pendingSince.plus(app.policy.pendingGiveUpAfter()).toString()))
                .andExpect(jsonPath("$.data.waiting.nextAttemptAt").value(nextLook.toString()))
                .andExpect(jsonPath("$.data.waiting.checkedEverySeconds").value(app.policy.pendingRecheck().toSeconds()))
                .andExpect(jsonPath("$.data.waiting.failing").value(Matchers.nullValue()));
        // my records say who acts next since the last change; the deadline and the next look are the request page's
        mvc.perform(as(get("/api/requests"), person))
                .andExpect(jsonPath("$.data.items[0].waiting.waitingFor").value("PIPELINE"))
                .andExpect(jsonPath("$.data.items[0].waiting.since").value(app.op(id).updatedAt().toString()))
                .andExpect(jsonPath("$.data.items[0].waiting.deadline").value(Matchers.nullValue()))
                .andExpect(jsonPath("$.data.items[0].waiting.nextAttemptAt").value(Matchers.nullValue()));
    }

    @Test
    void someoneElsesRequestIs404UnlessTheViewerIsAnOperator() throws Exception {
        var person = newPerson();
        var id = app.submitAccepted(FakeTargets.SINGLE, person);
        mvc.perform(as(get("/api/requests/" + id.value()), newPerson()))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
        mvc.perform(as(get("/api/requests/" + id.value()), "otto")).andExpect(status().isOk());
        mvc.perform(as(get("/api/requests/not-a-uuid"), person)).andExpect(status().isNotFound());
        mvc.perform(as(get("/api/requests/" + InMemoryChangeflow.newOperationId()), person)).andExpect(status().isNotFound());
        mvc.perform(get("/api/requests/" + id.value())).andExpect(status().isUnauthorized());
    }

    @Test
    void myRecordsArePagedNewestFirstWithoutTimelines() throws Exception {
        var person = newPerson();
        var ids = new java.util.ArrayList<String>();
        for (var subject : new String[] {person + "a", person + "b", person + "c"}) {
            var id = InMemoryChangeflow.newOperationId();
            ids.add(id);
            mvc.perform(submit(person, "{\"operationId\":\"" + id + "\",\"targetKey\":\"db-prod-readonly\",\"subjectId\":\""
                    + subject + "\",\"reason\":\"team access\"}")).andExpect(status().isAccepted());
            app.clock.advance(java.time.Duration.ofSeconds(1));
        }
        mvc.perform(as(get("/api/requests").param("size", "2"), person))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.items.length()").value(2))
                .andExpect(jsonPath("$.data.items[0].operationId").value(ids.get(2)))
                .andExpect(jsonPath("$.data.items[1].operationId").value(ids.get(1)))
                .andExpect(jsonPath("$.data.items[0].timeline").doesNotExist())
                .andExpect(jsonPath("$.data.page").value(0))
                .andExpect(jsonPath("$.data.size").value(2))
                .andExpect(jsonPath("$.data.hasMore").value(true));
        mvc.perform(as(get("/api/requests").param("page", "1").param("size", "2"), person))
                .andExpect(jsonPath("$.data.items.length()").value(1))
                .andExpect(jsonPath("$.data.items[0].operationId").value(ids.get(0)))
                .andExpect(jsonPath("$.data.hasMore").value(false));
        mvc.perform(as(get("/api/requests").param("page", "first"), person))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("page"));
    }

    @Test
    void myRecordsFilterByStatusAndTargetAndRefuseValuesThatCannotBeOne() throws Exception {
        var person = newPerson();
        var single = app.submitAccepted(FakeTargets.SINGLE, person);
        app.clock.advance(java.time.Duration.ofSeconds(1));
        var batchable = app.submitAccepted(FakeTargets.BATCHABLE, person);
        app.queue.runUntilIdle();
        var status = app.op(single).binding().orElseThrow().name();
        mvc.perform(as(get("/api/requests").param("targetKey", FakeTargets.SINGLE.value()), person))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.items.length()").value(1))
                .andExpect(jsonPath("$.data.items[0].operationId").value(single.value()));
        mvc.perform(as(get("/api/requests").param("targetKey", FakeTargets.BATCHABLE.value())
                        .param("status", status.toLowerCase(java.util.Locale.ROOT)), person))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.items[?(@.operationId=='" + single.value() + "')]").isEmpty());
        mvc.perform(as(get("/api/requests").param("status", status), person))
                .andExpect(jsonPath("$.data.items[?(@.operationId=='" + single.value() + "')].status").value(status))
                .andExpect(jsonPath("$.data.items[?(@.status!='" + status + "')]").isEmpty());
        mvc.perform(as(get("/api/requests").param("status", "VALIDATED"), person))
                .andExpect(jsonPath("$.data.items.length()").value(0))
                .andExpect(jsonPath("$.data.hasMore").value(false));
        mvc.perform(as(get("/api/requests").param("status", " ").param("targetKey", ""), person))
                .andExpect(jsonPath("$.data.items.length()").value(2))
                .andExpect(jsonPath("$.data.items[0].operationId").value(batchable.value()));
        mvc.perform(as(get("/api/requests").param("status", "DONE"), person))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("status", "INVALID_VALUE"));
        mvc.perform(as(get("/api/requests").param("targetKey", "../etc"), person))
                .andExpect(status().isBadRequest())
                .andExpect(firstFieldError("targetKey", "INVALID_VALUE"));
    }

    @Test
    void thePreviewShowsTheLineTheMergeRequestWouldWrite() throws Exception {
        var person = newPerson();
        var id = InMemoryChangeflow.newOperationId();
        mvc.perform(as(get("/api/requests/preview").param("targetKey", "db-prod-readonly").param("operationId", id), person))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.project").value(FakeTargets.PROJECT))
                .andExpect(jsonPath("$.data.filePath").value("grants/db-prod-readonly.txt"))
                .andExpect(jsonPath("$.data.removedLine").value(Matchers.nullValue()))
                .andExpect(jsonPath("$.data.addedLine").value(Matchers.allOf(Matchers.containsString(person),
                        Matchers.containsString(id))));
    }

    @Test
    void thePreviewForAnotherSubjectNeverShowsTheirExistingLineExceptToAnOperator() throws Exception {
        var bob = newPerson();
        var grant = approvedAndDeployed(app.submitAccepted(FakeTargets.SINGLE, bob));
        var formId = InMemoryChangeflow.newOperationId();
        java.util.function.Supplier<MockHttpServletRequestBuilder> preview = () -> get("/api/requests/preview")
                .param("targetKey", FakeTargets.SINGLE.value()).param("subjectId", bob).param("operationId", formId);

        mvc.perform(as(preview.get(), newPerson()))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.removedLine").value(Matchers.nullValue()))
                .andExpect(jsonPath("$.data.addedLine").value(Matchers.allOf(Matchers.startsWith(bob + " "),
                        Matchers.containsString(formId))))
                .andExpect(content().string(Matchers.not(Matchers.containsString(grant.value()))));
        mvc.perform(as(preview.get(), bob))
                .andExpect(jsonPath("$.data.removedLine").value(Matchers.containsString(grant.value())));
        mvc.perform(as(preview.get(), "otto"))
                .andExpect(jsonPath("$.data.removedLine").value(Matchers.containsString(grant.value())));
    }

    @Test
    void anyPreviewFailureIs200PreviewUnavailableWithNullData() throws Exception {
        var person = newPerson();
        for (var request : new MockHttpServletRequestBuilder[] {
                get("/api/requests/preview").param("targetKey", "no-such-target"),
                get("/api/requests/preview"),
                get("/api/requests/preview").param("targetKey", "db-prod-readonly").param("subjectId", "Bad Subject!")}) {
            mvc.perform(as(request, person))
                    .andExpect(answers(status().isOk(), "PREVIEW_UNAVAILABLE"))
                    .andExpect(jsonPath("$.data").value(Matchers.nullValue()));
        }
        app.gitlab.failNext("defaultBranch", ExternalCallException.status("gitlab", 502, "<html>Bad Gateway</html>"));
        mvc.perform(as(get("/api/requests/preview").param("targetKey", "db-prod-readonly"), person))
                .andExpect(answers(status().isOk(), "PREVIEW_UNAVAILABLE"));
    }

    @Test
    void thePreviewHasARateLimitOfItsOwnApartFromSubmissions() throws Exception {
        writeConfig("PREVIEW_RATE_LIMIT=2\n");
        var person = newPerson();
        for (var i = 0; i < 2; i++) {
            mvc.perform(as(get("/api/requests/preview").param("targetKey", "db-prod-readonly"), person))
                    .andExpect(answers(status().isOk(), "OK"));
        }
        mvc.perform(as(get("/api/requests/preview").param("targetKey", "db-prod-readonly"), person))
                .andExpect(answers(status().isTooManyRequests(), "RATE_LIMITED"))
                .andExpect(header().string("RateLimit-Policy", Matchers.startsWith("\"preview\";q=2;")));
        // submissions count on their own quota
        mvc.perform(submit(person, newBody("after previews")))
                .andExpect(status().isAccepted());
        // and the default quota of previews is 60 a window
        writeConfig("");
        var other = newPerson();
        mvc.perform(as(get("/api/requests/preview").param("targetKey", "db-prod-readonly"), other))
                .andExpect(status().isOk())
                .andExpect(header().string("RateLimit-Policy", Matchers.startsWith("\"preview\";q=60;")));
    }

    @Test
    void overRealHttpASubmissionAndItsDuplicateAreBoth202() throws Exception {
        var person = newPerson();
        var request = body(InMemoryChangeflow.newOperationId(), "wiki-editors", "over the wire");
        for (var expected : new String[] {"ACCEPTED", "DUPLICATE_SUBMIT"}) {
            var response = send(HttpRequest.newBuilder(uri("/api/requests"))
                    .header("Content-Type", "application/json").header(CallerIdentity.USER_HEADER, person)
                    .POST(HttpRequest.BodyPublishers.ofString(request)));
            assertThat(response.statusCode()).isEqualTo(202);
            assertThat(JSON.readTree(response.body()).get("code").stringValue()).isEqualTo(expected);
            assertThat(JSON.readTree(response.body()).at("/data/stepOrder").stringValue()).isEqualTo("APPROVE_FIRST");
        }
    }
}
